// The workbook's zip level. libxlsxwriter (1.1.x, Debian 12) zips every sheet on `workbook_close` at zlib's default
// level (6) and has no setting for it; at a million rows that zip is a single-threaded tail of about 25 seconds,
// most of it spent finding matches that save little on XML. Level 1 (Z_BEST_SPEED) zips the same XML about 2.4
// times as fast into a file about 30 % larger that every reader opens the same way (`WorkbookTests` checks the
// level against zlib's own output).
//
// How (Linux only): this executable defines `deflateInit2_`, the zlib entry point that minizip calls. On Debian
// libxlsxwriter zips through the system's minizip (`libminizip.so.1`), which calls zlib's `deflateInit2_`; the
// dynamic linker resolves that call to the executable's definition first (the executable exports it: `nm -D
// connect-recon` shows `T deflateInit2_`, and CI checks it). The definition calls zlib's own, found with
// `dlsym(RTLD_NEXT, …)`, with the level unchanged, unless the calling thread is inside `deflate_level_begin` and the
// caller asked for zlib's default. Inside the bracket it also hands the stream to `parallel_deflate.c`, which zips it
// on every core. Nothing else in the process is affected. `deflate_level_end` says whether the override was
// applied, so the run can log it; on another system, or if the symbols are not exported, it never is and the
// workbook is zipped at zlib's default, as libxlsxwriter does on its own.

#define _GNU_SOURCE
#include "deflate_level.h"
#include "closing_streams.h"
#include "parallel_deflate.h"

#if defined(__linux__)

#include <stdatomic.h>
#include <stddef.h>

enum { inactive = -2 };

static _Thread_local int requested_level = inactive;
static _Thread_local int applied = 0;
static void *_Atomic zlib_deflate_init2 = NULL;

void deflate_level_begin(int level) {
    requested_level = level;
    applied = 0;
    closing_streams_begin();
}

int deflate_level_end(void) {
    requested_level = inactive;
    parallel_deflate_stop_workers();
    closing_streams_end();
    return applied;
}

int deflateInit2_(zlib_stream *stream, int level, int method, int window_bits, int memory_level, int strategy,
                  const char *version, int stream_size) {
    zlib_deflate_init2_function real =
        (zlib_deflate_init2_function)zlib_function_once(&zlib_deflate_init2, "deflateInit2_", deflateInit2_);
    if (real == NULL) return zlib_version_error;
    if (requested_level == inactive) {
        return real(stream, level, method, window_bits, memory_level, strategy, version, stream_size);
    }
    if (level == zlib_default_compression) {
        level = requested_level;
        applied += 1;
    }
    int result = real(stream, level, method, window_bits, memory_level, strategy, version, stream_size);
    if (result == zlib_ok && method == zlib_deflated) {
        parallel_deflate_adopt(stream, level, window_bits, memory_level, strategy, version, stream_size);
    }
    return result;
}

#else

void deflate_level_begin(int level) { (void)level; }

int deflate_level_end(void) { return 0; }

#endif
