// The sheets' XML, copied with a large buffer. In constant-memory mode libxlsxwriter writes a sheet's rows to a
// temporary file of its own; `workbook_close` then makes another temporary file for each sheet (`lxw_tmpfile`), writes
// the sheet's header to it, copies the rows into it 4 KiB at a time (`fread` into a 4 KiB array, `fwrite`), writes the
// footer, and reads the whole file back to zip it. With stdio's 4 KiB buffer each 4 KiB of that copy is a `write`
// system call of its own: 67,000 of them for the 180 MB sheet of 320,000 payout transactions, on the closing thread,
// with nothing else to overlap them (docs/BENCHMARKS.md, "The close's copy, the parts' page cache, and rounds").
//
// How (Linux only), as for `deflateInit2_` (deflate_level.c): this executable defines `lxw_tmpfile`, which
// libxlsxwriter calls through its PLT, so the dynamic linker resolves the call to this definition (the executable
// exports it: `nm -D connect-recon` shows `T lxw_tmpfile`, and CI checks it). The definition calls libxlsxwriter's
// own, found with `dlsym(RTLD_NEXT, …)`, and returns its stream unchanged, unless the calling thread is inside the
// bracket `deflate_level_begin` opens around `workbook_close`: then the stream gets a buffer of
// `CLOSING_STREAM_BUFFER_BYTES`, freed when the bracket ends. Nothing else in the process is affected.

#define _GNU_SOURCE
#include "closing_streams.h"
#include "parallel_deflate.h"

#if defined(__linux__)

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

typedef FILE *(*lxw_tmpfile_function)(char *tmpdir);

FILE *lxw_tmpfile(char *tmpdir);

static void *_Atomic libxlsxwriter_tmpfile = NULL;
static _Thread_local int closing = 0;
/// The buffers given inside the bracket, freed at its end.
static _Thread_local void **buffers = NULL;
static _Thread_local size_t buffer_count = 0, buffer_capacity = 0;

void closing_streams_begin(void) {
    closing = 1;
    joined_sheets_reset();
}

int closing_streams_active(void) { return closing; }

void closing_streams_end(void) {
    closing = 0;
    for (size_t index = 0; index < buffer_count; index++) free(buffers[index]);
    free(buffers);
    buffers = NULL;
    buffer_count = buffer_capacity = 0;
}

/// Keeps `buffer` to free at the bracket's end; 0 when there is no memory to keep it.
static int keep(void *buffer) {
    if (buffer_count == buffer_capacity) {
        size_t capacity = buffer_capacity ? 2 * buffer_capacity : 16;
        void **grown = realloc(buffers, capacity * sizeof *grown);
        if (grown == NULL) return 0;
        buffers = grown;
        buffer_capacity = capacity;
    }
    buffers[buffer_count++] = buffer;
    return 1;
}

FILE *lxw_tmpfile(char *tmpdir) {
    lxw_tmpfile_function own =
        (lxw_tmpfile_function)zlib_function_once(&libxlsxwriter_tmpfile, "lxw_tmpfile", lxw_tmpfile);
    // No libxlsxwriter after this executable: nothing could have called this definition through it.
    if (own == NULL) return NULL;
    FILE *file = own(tmpdir);
    if (file != NULL && closing) closing_streams_buffer(file);
    return file;
}

void closing_streams_buffer(FILE *file) {
    // Without memory for a buffer, or for keeping it, the stream keeps stdio's own.
    void *buffer = malloc(CLOSING_STREAM_BUFFER_BYTES);
    if (buffer == NULL) return;
    if (!keep(buffer)) {
        free(buffer);
        return;
    }
    if (setvbuf(file, buffer, _IOFBF, CLOSING_STREAM_BUFFER_BYTES) != 0) {
        buffer_count -= 1;
        free(buffer);
    }
}

#else

void closing_streams_begin(void) {}

void closing_streams_end(void) {}

#endif
