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
// caller asked for zlib's default. Nothing else in the process is affected. `deflate_level_end` says whether the
// override was applied, so the run can log it; on another system, or if the symbol is not exported, it never is
// and the workbook is zipped at zlib's default, as libxlsxwriter does on its own.

#define _GNU_SOURCE
#include "deflate_level.h"

#if defined(__linux__)

#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>

// zlib's Z_DEFAULT_COMPRESSION and Z_VERSION_ERROR, so that building needs no zlib headers.
enum { default_compression = -1, version_error = -6, inactive = -2 };

typedef int (*deflate_init2_function)(void *stream, int level, int method, int window_bits, int memory_level,
                                      int strategy, const char *version, int stream_size);

static _Thread_local int requested_level = inactive;
static _Thread_local int applied = 0;
static _Atomic(deflate_init2_function) zlib_deflate_init2 = NULL;

void deflate_level_begin(int level) {
    requested_level = level;
    applied = 0;
}

int deflate_level_end(void) {
    requested_level = inactive;
    return applied;
}

int deflateInit2_(void *stream, int level, int method, int window_bits, int memory_level, int strategy,
                  const char *version, int stream_size) {
    deflate_init2_function real = atomic_load(&zlib_deflate_init2);
    if (real == NULL) {
        real = (deflate_init2_function)dlsym(RTLD_NEXT, "deflateInit2_");
        // No zlib after this executable: then nobody could have called this through it either.
        if (real == NULL || real == deflateInit2_) return version_error;
        atomic_store(&zlib_deflate_init2, real);
    }
    if (requested_level != inactive && level == default_compression) {
        level = requested_level;
        applied += 1;
    }
    return real(stream, level, method, window_bits, memory_level, strategy, version, stream_size);
}

#else

void deflate_level_begin(int level) { (void)level; }

int deflate_level_end(void) { return 0; }

#endif
