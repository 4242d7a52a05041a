import Foundation
import ReconCore
import Reports

/// A ``ReportStream`` on a thread of its own: the reconcile hands it `platform_fees` rows and goes on with the
/// next part while they are formatted and written (the two cores of a small machine both work).
///
/// At most ``maxQueued`` batches wait; a full queue blocks ``append(_:)``, so memory stays bounded when the
/// disk is slower than the rules. A write that fails stops the writer; the next ``append(_:)`` or
/// ``finish(_:metadata:)`` throws its error. ``abandon()`` (or a failure) removes the unfinished report folder
/// before it returns, so a failed run leaves the previous report as it was.
final class BackgroundReportWriter: @unchecked Sendable {
    static let maxQueued = 4

    /// Guards everything below it.
    private let condition = NSCondition()
    private var batches: [[PlatformFeeRow]] = []
    private var finishRequest: (report: ReconciliationReport, metadata: ReportMetadata)?
    private var abandoned = false
    private var failure: ReportError?
    private var outcome: (files: ReportFiles, timings: ReportStream.Timings)?
    private var stopped = false

    /// Starts the report of `range` (its hidden folder is created here, so a bad output folder fails at once)
    /// and the thread that writes it.
    init(range: ReportingRange, to outputDirectory: URL, options: WriteOptions) throws(ReportError) {
        let stream = Handover(try ReportStream(range: range, to: outputDirectory, options: options))
        let thread = Thread { [self] in self.work(stream.take()) }
        thread.name = "connect-recon.report-writer"
        thread.start()
    }

    /// Queues `rows` for writing; blocks while the queue is full. Throws the writer's failure, if any.
    func append(_ rows: [PlatformFeeRow]) throws(ReportError) {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= Self.maxQueued, failure == nil, !stopped { condition.wait() }
        if let failure { throw failure }
        precondition(!stopped, "append after the writer stopped")
        batches.append(rows)
        condition.broadcast()
    }

    /// Writes what is queued, then the rest of the report, and swaps the folder into place.
    func finish(_ report: ReconciliationReport, metadata: ReportMetadata) throws(ReportError)
        -> (files: ReportFiles, timings: ReportStream.Timings)
    {
        condition.lock()
        defer { condition.unlock() }
        finishRequest = (report, metadata)
        condition.broadcast()
        while outcome == nil, failure == nil, !stopped { condition.wait() }
        if let failure { throw failure }
        guard let outcome else { preconditionFailure("the report writer stopped without a result") }
        return outcome
    }

    /// Drops the report: the writer stops and its hidden folder is removed before this returns.
    func abandon() {
        condition.lock()
        defer { condition.unlock() }
        abandoned = true
        condition.broadcast()
        while !stopped { condition.wait() }
    }

    // MARK: The writer's thread

    private enum Job {
        case rows([PlatformFeeRow])
        case finish(ReconciliationReport, ReportMetadata)
        case stop
    }

    private func work(_ stream: ReportStream) {
        defer {
            // Whatever ended the work, nothing unfinished stays on disk (a no-op after a finish).
            stream.abandon()
            condition.lock()
            stopped = true
            condition.broadcast()
            condition.unlock()
        }
        while true {
            switch nextJob() {
            case .rows(let rows):
                do {
                    try stream.append(platformFees: rows)
                } catch {
                    fail(error)
                    return
                }
            case .finish(let report, let metadata):
                do {
                    let files = try stream.finish(report, metadata: metadata)
                    condition.lock()
                    outcome = (files, stream.timings)
                    condition.unlock()
                } catch {
                    fail(error)
                }
                return
            case .stop:
                return
            }
        }
    }

    private func nextJob() -> Job {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty, finishRequest == nil, !abandoned { condition.wait() }
        if abandoned { return .stop }
        if !batches.isEmpty {
            let rows = batches.removeFirst()
            condition.broadcast()
            return .rows(rows)
        }
        guard let request = finishRequest else { return .stop }
        return .finish(request.report, request.metadata)
    }

    private func fail(_ error: ReportError) {
        condition.lock()
        failure = error
        condition.broadcast()
        condition.unlock()
    }
}

/// Moves a non-`Sendable` value to the one thread that will use it from then on.
private final class Handover<Value>: @unchecked Sendable {
    private var value: Value?

    init(_ value: Value) { self.value = value }

    func take() -> Value {
        guard let value else { preconditionFailure("handed over twice") }
        self.value = nil
        return value
    }
}
