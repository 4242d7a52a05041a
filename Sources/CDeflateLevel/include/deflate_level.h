#ifndef CONNECT_RECON_DEFLATE_LEVEL_H
#define CONNECT_RECON_DEFLATE_LEVEL_H

/// The zlib compression level that a `deflateInit2_` call asking for zlib's default (-1, level 6) gets on the
/// calling thread, until `deflate_level_end`. libxlsxwriter zips the workbook on `workbook_close` with zlib's default
/// level and offers no option for it; the report writer brackets that call with these two functions. Every other
/// deflate, on this thread or any other, keeps the level it asks for. Linux only: elsewhere both do nothing.
void deflate_level_begin(int level);

/// Ends `deflate_level_begin` on the calling thread; returns how many deflate streams got the level since (0: the
/// override was not active, and the workbook was zipped at zlib's default).
int deflate_level_end(void);

#endif
