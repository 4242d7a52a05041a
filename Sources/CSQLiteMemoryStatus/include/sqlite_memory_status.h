#ifndef CONNECT_RECON_SQLITE_MEMORY_STATUS_H
#define CONNECT_RECON_SQLITE_MEMORY_STATUS_H

/// Turns off SQLite's memory statistics (`SQLITE_CONFIG_MEMSTATUS`) for the whole process. With them on (SQLite's
/// default), every allocation and free inside SQLite takes one process-wide mutex to count the bytes in use; the
/// history never reads those counts. `sqlite3_config` is variadic, which Swift cannot call, hence this function.
///
/// It takes effect only before SQLite initialises (before the process's first connection opens): returns 0 when it
/// did, else SQLite's error code (`SQLITE_MISUSE`, 21: SQLite was already initialised, and the statistics stay on).
int sqlite_memory_status_disable(void);

#endif
