// The workbook's parallel zip (Sources/CDeflateLevel/parallel_deflate.c) driven as minizip drives it, checked by
// inflating every stream back: streams of every size around the piece and window bounds, fed in small and large
// writes into small and large output buffers, on three bracket threads at once, then a stream outside the bracket.
// Each bracket also joins sheets' rows to their XML (Sources/CDeflateLevel/joined_sheets.c) and reads them back.
// .ci/run builds it with AddressSanitizer and again with ThreadSanitizer and fails on any report or mismatch.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <xlsxwriter/worksheet.h>

#include "deflate_level.h"

void _worksheet_write_optimized_sheet_data(lxw_worksheet *self);

static unsigned char *sheet_like(size_t length, unsigned seed) {
    unsigned char *data = malloc(length ? length : 1);
    const char *row = "<row r=\"1\"><c r=\"A1\" s=\"3\"><v>";
    srand(seed);
    for (size_t i = 0; i < length; i++) data[i] = rand() % 7 == 0 ? (unsigned char)rand() : row[i % strlen(row)];
    return data;
}

static void fail(const char *what, size_t length) {
    fprintf(stderr, "parallel_deflate_stress: %s (a stream of %zu bytes)\n", what, length);
    exit(1);
}

/// Deflates `length` bytes in writes of `write_size` into an output buffer of `buffer_size`, as minizip's
/// zipWriteInFileInZip and zipCloseFileInZipRaw64 do (flush the buffer when full; total_in reset at each flush),
/// then inflates the result and compares.
static void round_trip(size_t length, unsigned seed, size_t write_size, unsigned buffer_size) {
    unsigned char *data = sheet_like(length, seed);
    unsigned char *zipped = malloc(length + length / 2 + 4096);
    unsigned char *buffer = malloc(buffer_size);
    size_t zipped_length = 0;
    unsigned long consumed = 0;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        fail("deflateInit2", length);
    stream.next_out = buffer;
    stream.avail_out = buffer_size;
#define FLUSH_BUFFER()                                                                                                 \
    do {                                                                                                               \
        size_t full = buffer_size - stream.avail_out;                                                                  \
        memcpy(zipped + zipped_length, buffer, full);                                                                  \
        zipped_length += full;                                                                                         \
        consumed += stream.total_in;                                                                                   \
        stream.total_in = 0;                                                                                           \
        stream.next_out = buffer;                                                                                      \
        stream.avail_out = buffer_size;                                                                                \
    } while (0)
    for (size_t at = 0; at < length; at += write_size) {
        stream.next_in = data + at;
        stream.avail_in = (unsigned)(length - at < write_size ? length - at : write_size);
        while (stream.avail_in > 0) {
            if (stream.avail_out == 0) FLUSH_BUFFER();
            if (deflate(&stream, Z_NO_FLUSH) != Z_OK) fail("deflate", length);
        }
    }
    for (int result = Z_OK; result != Z_STREAM_END;) {
        if (stream.avail_out == 0) FLUSH_BUFFER();
        result = deflate(&stream, Z_FINISH);
        if (result != Z_OK && result != Z_STREAM_END) fail("deflate Z_FINISH", length);
    }
    FLUSH_BUFFER();
    if (consumed != length) fail("total_in does not add up to the input", length);
    if (deflateEnd(&stream) != Z_OK) fail("deflateEnd", length);

    unsigned char *back = malloc(length + 16);
    z_stream inflated;
    memset(&inflated, 0, sizeof inflated);
    if (inflateInit2(&inflated, -MAX_WBITS) != Z_OK) fail("inflateInit2", length);
    inflated.next_in = zipped;
    inflated.avail_in = (unsigned)zipped_length;
    inflated.next_out = back;
    inflated.avail_out = (unsigned)length + 16;
    if (inflate(&inflated, Z_FINISH) != Z_STREAM_END || inflated.total_out != length || memcmp(back, data, length))
        fail("the stream does not inflate back to its input", length);
    inflateEnd(&inflated);
    free(back);
    free(zipped);
    free(buffer);
    free(data);
}

/// A sheet of `length` bytes of rows made as libxlsxwriter's close makes it (its head, the rows, its footer), read
/// back from the start as the zip reads it and compared with the bytes a copy makes: joined inside the bracket, copied
/// outside it (this program has no libxlsxwriter to hand the copy to).
static void joined_sheet(size_t length, unsigned seed) {
    unsigned char *rows = sheet_like(length, seed);
    lxw_worksheet sheet;
    memset(&sheet, 0, sizeof sheet);
    sheet.file = tmpfile();
    sheet.optimize_tmpfile = tmpfile();
    if (sheet.file == NULL || sheet.optimize_tmpfile == NULL) fail("no temporary file", length);
    const char *head = "<worksheet><dimension ref=\"A1\"/>", *footer = "<pageMargins/></worksheet>";
    fputs(head, sheet.file);
    if (fwrite(rows, 1, length, sheet.optimize_tmpfile) != length) fail("the rows were not written", length);
    _worksheet_write_optimized_sheet_data(&sheet);
    fputs(footer, sheet.file);
    size_t expected_length = strlen(head) + strlen("<sheetData>") + length + strlen("</sheetData>") + strlen(footer);
    unsigned char *expected = malloc(expected_length), *read = malloc(expected_length + 1);
    size_t at = 0;
    memcpy(expected + at, head, strlen(head)), at += strlen(head);
    memcpy(expected + at, "<sheetData>", 11), at += 11;
    memcpy(expected + at, rows, length), at += length;
    memcpy(expected + at, "</sheetData>", 12), at += 12;
    memcpy(expected + at, footer, strlen(footer));
    fflush(sheet.file);
    rewind(sheet.file);
    size_t got = 0, chunk;
    while ((chunk = fread(read + got, 1, 16384 < expected_length + 1 - got ? 16384 : expected_length + 1 - got,
                          sheet.file)) > 0)
        got += chunk;
    if (got != expected_length || memcmp(read, expected, expected_length) != 0) fail("a sheet read back wrong", length);
    fclose(sheet.file);
    free(expected);
    free(read);
    free(rows);
}

static void *bracket(void *argument) {
    unsigned seed = (unsigned)(size_t)argument;
    const size_t piece = DEFLATE_LEVEL_PIECE_BYTES, window = 32768;
    const size_t lengths[] = {0, 1, 100, window - 1, window, piece - 1, piece, piece + 1, 2 * piece, 3000001};
    const size_t writes[] = {1000, 16384, 1 << 20};
    int streams = 0;
    deflate_level_begin(1);
    for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++) {
        for (size_t w = 0; w < sizeof writes / sizeof *writes; w++, streams++) {
            round_trip(lengths[l], seed + (unsigned)l, writes[w], w == 1 ? 65536 : 4096);
        }
    }
    const size_t sheets[] = {1, 4095, 1 << 20, 3000001};
    for (size_t l = 0; l < sizeof sheets / sizeof *sheets; l++) joined_sheet(sheets[l], seed + (unsigned)l);
    if (deflate_level_end() != streams) fail("the level was not applied to every stream of the bracket", 0);
    if (closing_streams_joined_sheets() != sizeof sheets / sizeof *sheets) fail("a sheet was not joined", 0);
    joined_sheet(100000, seed);  // outside the bracket: copied
    round_trip(500000, seed, 16384, 65536);  // outside the bracket: zlib's own
    return NULL;
}

int main(void) {
    pthread_t threads[3];
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 3; i++) pthread_create(&threads[i], NULL, bracket, (void *)(size_t)(i * 100 + round));
        for (int i = 0; i < 3; i++) pthread_join(threads[i], NULL);
    }
    printf("parallel_deflate_stress: every stream inflates back, on %d threads a bracket\n", deflate_level_threads());
    return 0;
}
