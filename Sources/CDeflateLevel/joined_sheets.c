// The sheets' rows joined to their XML where they lie, not copied. In constant-memory mode libxlsxwriter writes a
// sheet's rows to a temporary file of its own while the report runs; `workbook_close` then makes the sheet's XML in
// another temporary file: its header, then `<sheetData>`, a copy of every row (`_worksheet_write_optimized_sheet_data`:
// `fread` and `fwrite`, 4 KiB at a time), `</sheetData>` and its footer; and reads that file back to zip it. For the
// 180 MB sheet of 320,000 payout transactions the copy wrote 180 MB through the file system on the closing thread while
// the zip's workers waited for their first piece: with the 90 MB Platform fees sheet, about 0.4 s of a run's last
// seconds on one core (docs/BENCHMARKS.md, "The sheets' rows joined, not copied").
//
// What: inside the bracket `deflate_level_begin` opens around `workbook_close` (closing_streams.c), the sheet's XML
// becomes a stream of three parts: the header file as far as `<sheetData>`, the rows file whole, and what is written
// after (`</sheetData>` and the footer, appended to the header's file). Reading it back, as the zip does, reads each
// part from its own file; the bytes are the same as the copy's.
//
// How (Linux only), as for `lxw_tmpfile`: libxlsxwriter (Debian's build) exports `_worksheet_write_optimized_sheet_data`
// and calls it through its PLT, so the dynamic linker resolves the call to this executable's definition (the executable
// exports it: CI checks `nm -D connect-recon`). The definition hands the call to libxlsxwriter's own, found with
// `dlsym(RTLD_NEXT, …)`, outside the bracket and for a sheet without rows; inside, it replaces the sheet's stream
// (`worksheet->file`, which libxlsxwriter reads again for every write after the rows, then zips and closes) with a
// `fopencookie` stream over the two files. Should any step fail before the swap, the rows are copied as libxlsxwriter
// copies them.

#define _GNU_SOURCE
#include "closing_streams.h"
#include "parallel_deflate.h"

#if defined(__linux__)

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xlsxwriter/worksheet.h>

void _worksheet_write_optimized_sheet_data(lxw_worksheet *self);

typedef void (*write_sheet_data_function)(lxw_worksheet *self);

static void *_Atomic libxlsxwriter_write_sheet_data = NULL;
static _Thread_local int joined_count = 0;

/// A sheet's XML as three parts: `head`'s first `head_length` bytes, `rows`' `rows_length` bytes, then `head`'s bytes
/// from `head_length` on (`tail_length` of them, all written after the rows).
typedef struct joined_sheet {
    int head, rows;
    off_t head_length, rows_length, tail_length;
    off_t position;
} joined_sheet;

static off_t joined_length(const joined_sheet *sheet) {
    return sheet->head_length + sheet->rows_length + sheet->tail_length;
}

static ssize_t joined_read(void *cookie, char *buffer, size_t size) {
    joined_sheet *sheet = cookie;
    off_t position = sheet->position, rows_end = sheet->head_length + sheet->rows_length;
    int file = sheet->head;
    off_t at = position, available = sheet->head_length - position;
    if (position >= rows_end) {
        at = position - sheet->rows_length;
        available = joined_length(sheet) - position;
    } else if (position >= sheet->head_length) {
        file = sheet->rows;
        at = position - sheet->head_length;
        available = rows_end - position;
    }
    if (available <= 0) return 0;
    if ((off_t)size > available) size = (size_t)available;
    ssize_t read;
    do read = pread(file, buffer, size, at);
    while (read < 0 && errno == EINTR);
    if (read == 0) {
        // A part shorter than it was when joined: never a silent end.
        errno = EIO;
        return -1;
    }
    if (read > 0) sheet->position += read;
    return read;
}

/// Writes only at the end (libxlsxwriter appends until it reads the sheet back): after the rows, into `head`.
static ssize_t joined_write(void *cookie, const char *buffer, size_t size) {
    joined_sheet *sheet = cookie;
    if (sheet->position != joined_length(sheet)) {
        errno = ESPIPE;
        return 0;
    }
    ssize_t written;
    do written = pwrite(sheet->head, buffer, size, sheet->head_length + sheet->tail_length);
    while (written < 0 && errno == EINTR);
    if (written <= 0) return 0;
    sheet->tail_length += written;
    sheet->position += written;
    return written;
}

static int joined_seek(void *cookie, off64_t *offset, int whence) {
    joined_sheet *sheet = cookie;
    off_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? sheet->position : joined_length(sheet);
    off_t target = base + *offset;
    if (target < 0 || target > joined_length(sheet)) {
        errno = EINVAL;
        return -1;
    }
    sheet->position = target;
    *offset = target;
    return 0;
}

static int joined_close(void *cookie) {
    joined_sheet *sheet = cookie;
    int failed = close(sheet->head) != 0;
    failed |= close(sheet->rows) != 0;
    free(sheet);
    return failed ? -1 : 0;
}

/// A stream over `head` as written so far, then `rows`, positioned at its end; NULL when one cannot be made (then
/// nothing has changed but both streams flushed).
static FILE *joined(FILE *head, FILE *rows) {
    if (fflush(head) != 0 || fflush(rows) != 0) return NULL;
    off_t head_length = ftello(head);
    struct stat rows_status;
    if (head_length < 0 || fstat(fileno(rows), &rows_status) != 0) return NULL;
    joined_sheet *sheet = calloc(1, sizeof *sheet);
    if (sheet == NULL) return NULL;
    sheet->head = dup(fileno(head));
    sheet->rows = dup(fileno(rows));
    sheet->head_length = head_length;
    sheet->rows_length = rows_status.st_size;
    sheet->position = joined_length(sheet);
    cookie_io_functions_t functions = {joined_read, joined_write, joined_seek, joined_close};
    FILE *file = sheet->head >= 0 && sheet->rows >= 0 ? fopencookie(sheet, "w+", functions) : NULL;
    if (file == NULL) {
        if (sheet->head >= 0) close(sheet->head);
        if (sheet->rows >= 0) close(sheet->rows);
        free(sheet);
        return NULL;
    }
    closing_streams_buffer(file);
    return file;
}

/// The rows copied after `<sheetData>` as libxlsxwriter copies them, the rows' file closed, and `</sheetData>`.
static void copied(lxw_worksheet *self) {
    char buffer[4096];
    rewind(self->optimize_tmpfile);
    size_t read;
    while ((read = fread(buffer, 1, sizeof buffer, self->optimize_tmpfile)) > 0) {
        (void)fwrite(buffer, 1, read, self->file);
    }
    fclose(self->optimize_tmpfile);
    fputs("</sheetData>", self->file);
}

void _worksheet_write_optimized_sheet_data(lxw_worksheet *self) {
    write_sheet_data_function own = (write_sheet_data_function)zlib_function_once(
        &libxlsxwriter_write_sheet_data, "_worksheet_write_optimized_sheet_data", _worksheet_write_optimized_sheet_data);
    if (!closing_streams_active() || self->dim_rowmin == LXW_ROW_MAX || self->optimize_tmpfile == NULL) {
        if (own != NULL) {
            own(self);
        } else if (self->dim_rowmin == LXW_ROW_MAX) {
            fputs("<sheetData/>", self->file);
        } else {
            fputs("<sheetData>", self->file);
            copied(self);
        }
        return;
    }
    fputs("<sheetData>", self->file);
    FILE *file = joined(self->file, self->optimize_tmpfile);
    if (file == NULL) {
        copied(self);
        return;
    }
    fclose(self->file);
    fclose(self->optimize_tmpfile);
    self->file = file;
    fputs("</sheetData>", self->file);
    joined_count += 1;
}

void joined_sheets_reset(void) { joined_count = 0; }

int closing_streams_joined_sheets(void) { return joined_count; }

#else

int closing_streams_joined_sheets(void) { return 0; }

#endif
