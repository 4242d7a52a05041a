import Foundation
import ReconCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one-writer-at-a-time rule, released when the holder exits, even after `kill -9`, so a crash never leaves a
/// stale lock:
/// - a SQLite history: an advisory `flock` on `<database>.lock`, which the kernel releases; the file holds a line
///   naming the holder (pid, start time, command) so a second run can say who has it;
/// - a PostgreSQL history: a session-level advisory lock (``PostgreSQLHistoryLock``) held by a connection of its
///   own, which the server releases when that connection closes.
public final class HistoryLock: Sendable {
    private enum Holding {
        case file(descriptor: Int32)
        case postgreSQL(PostgreSQLConnection)
    }

    private let holding: Holding
    /// The lock file's path, or the PostgreSQL history's location (without its password).
    public let path: String

    private init(descriptor: Int32, path: String) {
        self.holding = .file(descriptor: descriptor)
        self.path = path
    }

    init(postgreSQL connection: PostgreSQLConnection) {
        self.holding = .postgreSQL(connection)
        self.path = connection.address.description
    }

    deinit {
        // A PostgreSQL lock goes with its connection, closed when the last reference to it goes.
        if case .file(let descriptor) = holding {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    /// Takes the lock of the history at `location`, waiting up to `wait` for another holder to let go; throws
    /// ``HistoryError/busy(path:holder:)`` naming the other holder when it does not.
    public static func acquire(
        location: HistoryLocation, wait: Duration, holder: String
    ) async throws(HistoryError) -> HistoryLock {
        switch location {
        case .sqliteFile(let path):
            try await acquire(databasePath: path, wait: wait, holder: holder)
        case .postgreSQL(let address):
            try await PostgreSQLHistoryLock.acquire(address, wait: wait, holder: holder, clock: ContinuousClock())
        }
    }

    /// Takes the lock for `databasePath`, waiting up to `wait` for another holder to let go. A cancelled task stops
    /// waiting at once and throws ``HistoryError/cancelled(path:)``, without the lock.
    /// - Parameter holder: who takes it, for the other run's message (`run 2026-11-20_2026-11-21`).
    public static func acquire(
        databasePath: String, wait: Duration, holder: String
    ) async throws(HistoryError) -> HistoryLock {
        try await acquire(databasePath: databasePath, wait: wait, holder: holder, clock: ContinuousClock())
    }

    /// ``acquire(databasePath:wait:holder:)`` that measures the wait, and sleeps between tries, on `clock`.
    static func acquire<C: Clock<Duration>>(
        databasePath: String, wait: Duration, holder: String, clock: C
    ) async throws(HistoryError) -> HistoryLock {
        let path = databasePath + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        let deadline = clock.now.advanced(by: wait)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, clock.now < deadline else {
                let other = readHolder(descriptor)
                close(descriptor)
                throw .busy(path: databasePath, holder: other)
            }
            do {
                try await clock.sleep(for: .milliseconds(100))
            } catch {
                close(descriptor)
                throw .cancelled(path: databasePath)
            }
        }
        let line = "pid \(getpid()), started \(RFC3339.utcString(Date())), \(holder)\n"
        ftruncate(descriptor, 0)
        _ = line.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        fsync(descriptor)
        return HistoryLock(descriptor: descriptor, path: path)
    }

    private static func readHolder(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return "holder unknown" }
        return String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
