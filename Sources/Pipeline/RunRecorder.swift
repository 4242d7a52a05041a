import Foundation
import History
import ReconCore
import WorkerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// Opens the history for a run that writes it, records the run, and records how it ended: completed with its
/// details, or failed with the error's message. The history's lock is held for the recorder's lifetime, so two
/// runs never write the history at once.
public final class RunRecorder {
    public let store: HistoryStore
    public let runID: Int64
    /// The interrupted run this one resumes, if any.
    public let resumedFrom: Int64?
    private let lock: HistoryLock
    private let now: @Sendable () -> Date
    private let clock = ContinuousClock()
    private let began: ContinuousClock.Instant
    /// The report's per-day platform fees, recorded with the run when it completes.
    private var dailyPlatformFees: [DailyPlatformFeeRow] = []

    private init(
        store: HistoryStore, runID: Int64, resumedFrom: Int64?, lock: HistoryLock, now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.runID = runID
        self.resumedFrom = resumedFrom
        self.lock = lock
        self.now = now
        self.began = clock.now
    }

    /// Takes the history's lock (waiting up to `settings.lockWait`), opens it, checks that it holds objects of
    /// `mode` only and records the run as started. `resume` picks up an interrupted run of the same range.
    public static func begin(
        command: String, range: ReportingRange, mode: StripeMode, settings: RunSettings,
        now: @escaping @Sendable () -> Date, resume: Bool
    ) async throws -> RunRecorder {
        let lock = try await HistoryLock.acquire(
            location: settings.history, wait: settings.lockWait, holder: "\(command) \(range.folderName)")
        let start = RunStart(
            command: command, range: range, mode: mode, toolVersion: settings.toolVersion,
            stripeVersion: settings.stripeVersion, apiBase: settings.apiBaseURL.absoluteString,
            startedAt: Int64(now().timeIntervalSince1970), pid: getpid())
        // Opening (and migrating) the history and recording the run block on SQLite: off the cooperative pool.
        let location = settings.history
        let (store, runID, resumed) = try await OwnThread.run(name: "connect-recon.history-open") {
            () throws(HistoryError) -> (HistoryStore, Int64, Int64?) in
            let store = try HistoryStore.open(location)
            try store.runs.claimMode(mode)
            let (runID, resumed) = try store.runs.beginRun(start, resume: resume)
            return (store, runID, resumed)
        }
        return RunRecorder(store: store, runID: runID, resumedFrom: resumed, lock: lock, now: now)
    }

    /// Seconds since the run began.
    public var elapsed: Double { (clock.now - began).inSeconds }

    /// The run's "now" in Unix seconds.
    public var unixNow: Int64 { Int64(now().timeIntervalSince1970) }

    /// Keeps the report's per-day platform fees (``ReconciliationReport/dailyPlatformFees``) for the history's
    /// `daily_platform_fees`: ``complete(details:)`` records them in the transaction that records the run
    /// completed, so a run that fails records none.
    public func recordOnCompletion(dailyPlatformFees rows: [DailyPlatformFeeRow]) {
        dailyPlatformFees = rows
    }

    /// Records the run as completed with `details` (a JSON object), and the daily platform fees kept for it.
    public func complete(details: [String: any Sendable]) async throws {
        var all = details
        all["seconds"] = elapsed.roundedToMilliseconds
        let (store, runID, finishedAt, json, rows) = (store, runID, unixNow, Self.json(all), dailyPlatformFees)
        try await OwnThread.run(name: "connect-recon.history-finish") { () throws(HistoryError) in
            try store.runs.completeRun(runID, finishedAt: finishedAt, details: json, dailyPlatformFees: rows)
        }
    }

    /// Records the run as failed with the error's message; never throws (the original error matters more).
    public func fail(_ error: any Error) async {
        let message = (error as? any ActionableError)?.message ?? "\(error)"
        let (store, runID, finishedAt) = (store, runID, unixNow)
        await OwnThread.run(name: "connect-recon.history-finish") {
            try? store.runs.finishRun(runID, status: .failed, finishedAt: finishedAt, message: message, details: nil)
        }
    }

    /// Runs `body`, recording the run as failed if it throws.
    public func recordingFailure<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            await fail(error)
            throw error
        }
    }

    static func json(_ object: [String: any Sendable]) -> String {
        guard JSONSerialization.isValidJSONObject(object),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension Double {
    /// Seconds rounded to the millisecond, for the run's details and the log.
    var roundedToMilliseconds: Double { (self * 1000).rounded() / 1000 }
}
