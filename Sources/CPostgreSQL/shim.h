#ifndef CONNECT_RECON_CPOSTGRESQL_SHIM_H
#define CONNECT_RECON_CPOSTGRESQL_SHIM_H

#include <libpq-fe.h>

#endif
