import GRDBSQLite

/// SQLite's write lock on a history file, held on a connection of its own for a moment, so that no connection of any
/// process commits while it is held: two read transactions begun under it see one snapshot (this SQLite is built
/// without `SQLITE_ENABLE_SNAPSHOT`, which would let a second reader open the first one's snapshot).
///
/// Taking it waits as a writer waits (10 s), and gives up, `nil`, when the file cannot be written (read-only, or
/// another writer holds it longer): the reader then reads in one transaction, as before the two readers.
final class SQLiteCommitBarrier {
    private var handle: OpaquePointer?

    init?(path: String) {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            sqlite3_close_v2(handle)
            return nil
        }
        sqlite3_busy_timeout(handle, 10_000)
        guard sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK else {
            sqlite3_close_v2(handle)
            return nil
        }
        self.handle = handle
    }

    /// Lets writers commit again. Called once both reads have begun; again (doing nothing) when it goes.
    func lift() {
        guard let handle else { return }
        sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    deinit { lift() }
}
