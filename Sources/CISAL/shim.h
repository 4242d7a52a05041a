#ifndef CONNECT_RECON_CISAL_SHIM_H
#define CONNECT_RECON_CISAL_SHIM_H

/* Intel's ISA-L (Debian: libisal-dev): igzip's deflate, which compresses the workbook's sheets in pieces
   (Sources/CDeflateLevel/parallel_deflate.c), and its CRC-32, which minizip's checksum of them uses
   (zip_checksum.c). Tests model the pieces with the same calls. */
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>

/* igzip's suggested working memory for level 1, which Swift cannot import as a macro expression. */
static const unsigned connect_recon_igzip_level_1_buffer_bytes = ISAL_DEF_LVL1_DEFAULT;

#endif
