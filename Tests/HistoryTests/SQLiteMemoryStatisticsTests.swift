import CSQLiteMemoryStatus
import GRDBSQLite
import TestSupport
import Testing

@testable import History

/// SQLite's memory statistics take a process-wide mutex on every allocation inside SQLite; the history turns them off
/// before SQLite initialises, which is the only time SQLite accepts it.
struct SQLiteMemoryStatisticsTests {
    @Test("once a history opened, SQLite counts no memory, unless SQLite had started before it")
    func statisticsOffOnceAHistoryOpened() throws {
        let database = try TemporaryDatabase(.sqlite)
        _ = try database.open()
        // SQLite has initialised: the setting can no longer change.
        #expect(sqlite_memory_status_disable() == SQLITE_MISUSE)
        var current: Int64 = 0
        var highest: Int64 = 0
        #expect(sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &current, &highest, 0) == SQLITE_OK)
        if SQLiteHistoryDatabase.memoryStatisticsOff {
            #expect(current == 0 && highest == 0)
        } else {
            // Another test of this process opened SQLite first (GRDB directly): the statistics count, as SQLite's
            // default is.
            #expect(current > 0)
        }
    }
}
