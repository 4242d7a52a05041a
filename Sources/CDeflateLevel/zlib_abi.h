// zlib's stream and constants as its ABI fixes them (zlib.h, 1.2 and later), so that building needs no zlib headers:
// the package's apt line installs libxlsxwriter, whose zip is the one this target changes, not zlib's headers.
#ifndef CONNECT_RECON_ZLIB_ABI_H
#define CONNECT_RECON_ZLIB_ABI_H

/// zlib's `z_stream`, field for field.
typedef struct zlib_stream {
    const unsigned char *next_in;
    unsigned int avail_in;
    unsigned long total_in;
    unsigned char *next_out;
    unsigned int avail_out;
    unsigned long total_out;
    const char *msg;
    void *state;
    void *zalloc;
    void *zfree;
    void *opaque;
    int data_type;
    unsigned long adler;
    unsigned long reserved;
} zlib_stream;

enum {
    zlib_ok = 0,
    zlib_stream_end = 1,
    zlib_stream_error = -2,
    zlib_mem_error = -4,
    zlib_version_error = -6,
    zlib_no_flush = 0,
    zlib_sync_flush = 2,
    zlib_finish = 4,
    zlib_default_compression = -1,
    zlib_best_speed = 1,
    zlib_deflated = 8,
    zlib_default_strategy = 0,
    /// `window_bits` of a raw deflate stream (no zlib header) with the largest window, as minizip sets it up.
    zlib_raw_window_bits = -15,
    /// The window of a deflate stream: what a back-reference may reach, and so what primes the next piece.
    zlib_window_bytes = 32768,
};

typedef int (*zlib_deflate_init2_function)(zlib_stream *stream, int level, int method, int window_bits,
                                           int memory_level, int strategy, const char *version, int stream_size);
typedef int (*zlib_deflate_function)(zlib_stream *stream, int flush);
typedef int (*zlib_deflate_end_function)(zlib_stream *stream);

#endif
