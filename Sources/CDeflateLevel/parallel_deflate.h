// The workbook's zip on every core: see parallel_deflate.c.
#ifndef CONNECT_RECON_PARALLEL_DEFLATE_H
#define CONNECT_RECON_PARALLEL_DEFLATE_H

#include "zlib_abi.h"

/// Takes over the deflating of `stream`, which zlib's own `deflateInit2_` has just set up with these parameters, on
/// the calling thread: from now on this file's `deflate` compresses what it is given in pieces on worker threads.
/// Returns 1 when it did, 0 when the stream stays zlib's alone (one core, a stream that is not raw deflate, a
/// `z_stream` of another size, or no memory).
int parallel_deflate_adopt(zlib_stream *stream, int level, int window_bits, int memory_level, int strategy,
                           const char *version, int stream_size);

/// Stops the worker threads the calling thread's adopted streams started (at the end of the bracket).
void parallel_deflate_stop_workers(void);

/// zlib's own function named `name`, the one this executable's definition hides (`dlsym(RTLD_NEXT, …)`).
void *zlib_function(const char *name);

/// ``zlib_function``, looked up once into `cache`, for one of this executable's definitions (`self`) to pass calls
/// on to; NULL when no zlib comes after this executable (then nobody could have called `self` through it either).
void *zlib_function_once(void *_Atomic *cache, const char *name, const void *self);

#endif
