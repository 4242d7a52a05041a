// The streams libxlsxwriter makes while it closes the workbook: see closing_streams.c.
#ifndef CONNECT_RECON_CLOSING_STREAMS_H
#define CONNECT_RECON_CLOSING_STREAMS_H

#include "deflate_level.h"

/// From now on, on the calling thread, every temporary file libxlsxwriter makes (`lxw_tmpfile`) gets a stream buffer
/// of `CLOSING_STREAM_BUFFER_BYTES`, until `closing_streams_end`.
void closing_streams_begin(void);

/// Ends `closing_streams_begin` on the calling thread and frees the buffers it gave: only once the streams are
/// closed (`workbook_close` closes each before it returns).
void closing_streams_end(void);

#include <stdio.h>

/// Whether the calling thread is inside `closing_streams_begin`.
int closing_streams_active(void);

/// Gives `file` a stream buffer of `CLOSING_STREAM_BUFFER_BYTES`, freed by `closing_streams_end` (call it inside the
/// bracket, before the stream is used); without memory for one, the stream keeps stdio's own.
void closing_streams_buffer(FILE *file);

/// Starts counting the sheets joined on the calling thread (`joined_sheets.c`) from zero.
void joined_sheets_reset(void);

#endif
