import Foundation

/// A PostgreSQL history's one-writer lock: a session-level advisory lock (`pg_try_advisory_lock`) on a connection
/// kept open for the run. The server releases it when that connection ends, however the process ends, so there
/// is no lock file to clean up. The connection's `application_name` names the holder, and `pg_stat_activity` says
/// since when and from where, for the message of a second run.
enum PostgreSQLHistoryLock {
    /// How the holder's connection names itself to the server (`application_name`), before its pid and command.
    static let applicationPrefix = "connect-recon "

    /// The advisory lock's key (below 2³¹, so `pg_locks` shows it in `objid` with `classid` 0).
    static let key: Int64 = 0x436F_6E52

    static func acquire<C: Clock<Duration>>(
        _ address: PostgreSQLAddress, wait: Duration, holder: String, clock: C
    ) async throws(HistoryError) -> HistoryLock {
        let connection = try PostgreSQLConnection(address)
        let deadline = clock.now.advanced(by: wait)
        do {
            let name = String("\(applicationPrefix)pid \(getpid()), \(holder)".utf8.prefix(63)) ?? "connect-recon"
            _ = try connection.execute(
                "SELECT set_config('application_name', ?, false)", [.text(name)], prepared: false)
            while true {
                let result = try connection.execute(
                    "SELECT pg_try_advisory_lock(CAST(? AS BIGINT))", [.integer(key)], prepared: false)
                var taken = false
                if result.count > 0 { taken = try SQLRow(postgreSQL: result, row: 0).bool(0) }
                if taken { return HistoryLock(postgreSQL: connection) }
                guard clock.now < deadline else {
                    throw HistoryError.busy(path: address.description, holder: try holderDescription(connection))
                }
                do {
                    try await clock.sleep(for: .milliseconds(100))
                } catch {
                    throw HistoryError.cancelled(path: address.description)
                }
            }
        } catch let error as HistoryError {
            throw error
        } catch {
            throw PostgreSQLHistoryDatabase.map(error, address: address)
        }
    }

    /// Who holds the lock, as the server knows them: the holder's `application_name` (its pid and command), its
    /// address and since when it is connected.
    private static func holderDescription(_ connection: PostgreSQLConnection) throws -> String {
        let result = try connection.execute(
            """
            SELECT a.application_name, COALESCE(host(a.client_addr), 'local socket'),
                   to_char(a.backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
            FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = CAST(? AS BIGINT)
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            LIMIT 1
            """, [.integer(key)], prepared: false)
        guard result.count > 0 else { return "holder unknown; it may just have finished" }
        let row = SQLRow(postgreSQL: result, row: 0)
        var name = (try? row.text(0)).flatMap { $0.isEmpty ? nil : $0 } ?? "a client without a name"
        if name.hasPrefix(applicationPrefix) { name.removeFirst(applicationPrefix.count) }
        return "\(name), connected from \((try? row.text(1)) ?? "?") since \((try? row.text(2)) ?? "?")"
    }
}
