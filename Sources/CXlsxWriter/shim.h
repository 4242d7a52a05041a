#ifndef CONNECT_RECON_CXLSXWRITER_SHIM_H
#define CONNECT_RECON_CXLSXWRITER_SHIM_H

#include <stdio.h>
#include <xlsxwriter.h>

/* A number as libxlsxwriter 1.1 writes a number cell's value (`%.16G`), for the rows the report writer puts in a
   sheet's stream itself (`SheetRowXML.swift`): Swift cannot call the variadic `snprintf`. Returns what snprintf
   returns. */
static inline int connect_recon_format_cell_double(char *buffer, size_t size, double value) {
    return snprintf(buffer, size, "%.16G", value);
}

#endif
