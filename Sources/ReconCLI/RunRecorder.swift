import Foundation
import History
import Logging
import ReconCore

#if canImport(Glibc)
    import Glibc
#endif

/// Opens the history for a command that writes it, records the run, and records how it ended: completed
/// with its details, or failed with the error's message. The lock is held for the recorder's lifetime.
final class RunRecorder {
    let store: HistoryStore
    let runID: Int64
    let resumedFrom: Int64?
    private let lock: HistoryLock
    private let context: CommandContext
    private let clock = ContinuousClock()
    let began: ContinuousClock.Instant

    private init(
        store: HistoryStore, runID: Int64, resumedFrom: Int64?, lock: HistoryLock, context: CommandContext
    ) {
        self.store = store
        self.runID = runID
        self.resumedFrom = resumedFrom
        self.lock = lock
        self.context = context
        self.began = clock.now
    }

    /// Takes the database's lock (waiting `output.lock_wait_seconds`), opens it, checks the mode and records
    /// the run as started.
    static func begin(
        command: String, range: ReportingRange, mode: String, configuration: Configuration, context: CommandContext,
        resume: Bool
    ) async throws -> RunRecorder {
        let lock = try await HistoryLock.acquire(
            databasePath: configuration.databasePath, wait: .seconds(configuration.lockWait),
            holder: "\(command) \(range.folderName)")
        let store = try HistoryStore.open(path: configuration.databasePath)
        try store.claimMode(mode)
        let start = RunStart(
            command: command, range: range, mode: mode, toolVersion: VersionInfo.tool,
            stripeVersion: configuration.stripeVersion, apiBase: configuration.apiBaseURL.absoluteString,
            startedAt: Int64(context.now().timeIntervalSince1970), pid: getpid())
        let (runID, resumed) = try store.beginRun(start, resume: resume)
        return RunRecorder(store: store, runID: runID, resumedFrom: resumed, lock: lock, context: context)
    }

    /// Seconds since the run began.
    var elapsed: Double { Self.seconds(clock.now - began) }

    /// Records the run as completed with `details` (JSON object).
    func complete(details: [String: any Sendable]) throws {
        var all = details
        all["seconds"] = (elapsed * 1000).rounded() / 1000
        try store.finishRun(
            runID, status: .completed, finishedAt: Int64(context.now().timeIntervalSince1970), message: nil,
            details: Self.json(all))
    }

    /// Records the run as failed with the error's message; never throws (the original error matters more).
    func fail(_ error: any Error) {
        let message = (error as? any ActionableError)?.message ?? "\(error)"
        try? store.finishRun(
            runID, status: .failed, finishedAt: Int64(context.now().timeIntervalSince1970), message: message,
            details: nil)
    }

    /// Runs `body`, recording failure if it throws.
    func recordingFailure<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            fail(error)
            throw error
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func json(_ object: [String: any Sendable]) -> String {
        guard JSONSerialization.isValidJSONObject(object),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
