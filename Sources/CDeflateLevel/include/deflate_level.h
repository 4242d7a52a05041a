#ifndef CONNECT_RECON_DEFLATE_LEVEL_H
#define CONNECT_RECON_DEFLATE_LEVEL_H

/// The zlib compression level that a `deflateInit2_` call asking for zlib's default (-1, level 6) gets on the
/// calling thread, until `deflate_level_end`. libxlsxwriter zips the workbook on `workbook_close` with zlib's default
/// level and offers no option for it; the report writer brackets that call with these two functions. Inside the
/// bracket, every raw deflate stream the thread sets up is also compressed on `deflate_level_threads()` worker
/// threads, in pieces of `DEFLATE_LEVEL_PIECE_BYTES` (`parallel_deflate.c`: by ISA-L's igzip at level 1), minizip's
/// CRC-32 of what it zips is ISA-L's (`zip_checksum.c`), every temporary file libxlsxwriter
/// makes gets a buffer of `CLOSING_STREAM_BUFFER_BYTES`, and each sheet's rows are joined to its XML where they lie
/// rather than copied into it (`joined_sheets.c`). Every other deflate, on this thread outside the bracket or
/// on any other thread, is zlib's alone, at the level it asks for. Linux only: elsewhere both do nothing.
void deflate_level_begin(int level);

/// Ends `deflate_level_begin` on the calling thread and stops its worker threads; returns how many deflate streams
/// got the level since (0: the override was not active, and the workbook was zipped at zlib's default).
int deflate_level_end(void);

/// How many threads zip inside the bracket: the cores online, at most 8; 1 where the zip is zlib's own (one core,
/// or not Linux).
int deflate_level_threads(void);

/// Who compresses the workbook's sheets inside the bracket, at its level 1: "igzip" (ISA-L's, at igzip's level 1)
/// where the zip runs in pieces on worker threads, "zlib" where zlib zips alone (one core, or not Linux).
const char *deflate_level_compressor(void);

/// How many sheets' rows the last `deflate_level_begin` bracket on the calling thread joined to their XML where they
/// lay instead of copying them (`joined_sheets.c`); 0 where that is not done (not Linux).
int closing_streams_joined_sheets(void);

/// The input each worker compresses at a time: a piece, primed with the 32 KiB before it. Every piece but the last
/// ends with a sync flush (an empty stored block), so the workbook is a few bytes a piece larger than one stream.
#define DEFLATE_LEVEL_PIECE_BYTES (256 * 1024)

/// Inside the bracket, each temporary file libxlsxwriter makes on the calling thread (`lxw_tmpfile`: a sheet's XML,
/// copied from its rows, then read back to be zipped) gets a stream buffer of this size instead of stdio's 4 KiB,
/// freed by `deflate_level_end` (`closing_streams.c`). Linux only. The sheets' own streams, made before the close, get
/// the same size from the report writer (`Workbook.swift`).
#define CLOSING_STREAM_BUFFER_BYTES (1024 * 1024)

#endif
