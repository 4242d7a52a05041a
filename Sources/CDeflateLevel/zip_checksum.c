// The zip's checksum. minizip computes the CRC-32 of every byte it zips, on the thread that closes the workbook, with
// zlib's `crc32`: about 0.1 s of that thread for the 270 MB of sheets at 150,000 charges, while the workers wait for
// input. ISA-L's `crc32_gzip_refl` computes the same checksum (the gzip/zip CRC-32, reflected, with the same
// pre- and post-conditioning, so that calls chain as zlib's do) with the processor's carry-less multiply, several
// times as fast.
//
// How (Linux only), as for `deflateInit2_` (deflate_level.c): this executable defines `crc32`, which libminizip calls
// through its PLT, so the dynamic linker resolves the call to this definition (the executable exports it: `nm -D
// connect-recon` shows `T crc32`, and CI checks it). Inside the bracket `deflate_level_begin` opens, on its thread,
// the definition computes the checksum with ISA-L; any other call goes on to zlib's own, found with `dlsym(RTLD_NEXT,
// …)`. Both give the same value for the same bytes (`ZipChecksumTests`).

#define _GNU_SOURCE
#include "closing_streams.h"
#include "parallel_deflate.h"

#if defined(__linux__)

#include <isa-l/crc.h>
#include <stdatomic.h>
#include <stdint.h>

typedef unsigned long (*zlib_crc32_function)(unsigned long crc, const unsigned char *bytes, unsigned int length);

unsigned long crc32(unsigned long crc, const unsigned char *bytes, unsigned int length);

static void *_Atomic zlib_crc32 = NULL;

unsigned long crc32(unsigned long crc, const unsigned char *bytes, unsigned int length) {
    if (bytes && closing_streams_active()) return crc32_gzip_refl((uint32_t)crc, bytes, length);
    zlib_crc32_function real = (zlib_crc32_function)zlib_function_once(&zlib_crc32, "crc32", crc32);
    // Without zlib after this executable nobody but this target calls `crc32`; ISA-L's is the same function.
    if (real == NULL) return bytes ? crc32_gzip_refl((uint32_t)crc, bytes, length) : 0;
    return real(crc, bytes, length);
}

#endif
