#ifndef CONNECT_RECON_CXLSXWRITER_SHIM_H
#define CONNECT_RECON_CXLSXWRITER_SHIM_H

#include <xlsxwriter.h>

#endif
