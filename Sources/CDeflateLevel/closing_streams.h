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

#endif
