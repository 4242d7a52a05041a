#include "sqlite_memory_status.h"

#include <sqlite3.h>

int sqlite_memory_status_disable(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
