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
        let session = SQLSession(postgreSQL: connection)
        let deadline = clock.now.advanced(by: wait)
        do {
            let name = String("\(applicationPrefix)pid \(getpid()), \(holder)".utf8.prefix(63)) ?? "connect-recon"
            try session.execute("SELECT set_config('application_name', ?, false)", [.text(name)])
            while true {
                let taken = try session.value(
                    Bool.self, "SELECT pg_try_advisory_lock(CAST(? AS BIGINT))", [.integer(key)])
                if taken == true { return HistoryLock(postgreSQL: connection) }
                guard clock.now < deadline else {
                    throw HistoryError.busy(path: address.description, holder: try holderDescription(session))
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
    private static func holderDescription(_ session: SQLSession) throws -> String {
        let holders = try session.all(
            """
            SELECT a.application_name, COALESCE(host(a.client_addr), 'local socket'),
                   to_char(a.backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
            FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = CAST(? AS BIGINT)
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            LIMIT 1
            """, [.integer(key)]
        ) { row in
            (
                name: try row.decode(String?.self, atIndex: 0), from: try row.decode(String?.self, atIndex: 1),
                since: try row.decode(String?.self, atIndex: 2)
            )
        }
        guard let holder = holders.first else { return "holder unknown; it may just have finished" }
        var name = holder.name.flatMap { $0.isEmpty ? nil : $0 } ?? "a client without a name"
        if name.hasPrefix(applicationPrefix) { name.removeFirst(applicationPrefix.count) }
        return "\(name), connected from \(holder.from ?? "?") since \(holder.since ?? "?")"
    }
}
