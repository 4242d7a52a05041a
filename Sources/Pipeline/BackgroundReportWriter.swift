import Foundation
import ReconCore
import Reports
import Synchronization
import WorkerThreads

/// A ``ReportStream`` on a thread of its own: the rules hand it `platform_fees` rows and go on with the next part
/// while they are formatted and written (the two cores of a small machine both work).
///
/// At most ``maxQueued`` batches wait; a full queue blocks ``append(_:)``, so memory stays bounded when the disk is
/// slower than the rules. A write that fails stops the writer; the next ``append(_:)`` or
/// ``finish(_:metadata:)`` throws its error. ``abandon()`` (or a failure) removes the unfinished report folder
/// before it returns, so a failed run leaves the previous report as it was.
final class BackgroundReportWriter: Sendable {
    static let maxQueued = 4

    /// What the writer's thread is asked to do, in order.
    private enum Message {
        case rows([PlatformFeeRow])
        case finish(ReconciliationReport, ReportMetadata)
    }

    /// How the writer's thread ended: the finished report, nothing (abandoned), or the write's failure.
    private typealias Ending = Result<(files: ReportFiles, timings: ReportStream.Timings)?, ReportError>

    private let messages = BlockingQueue<Message>(capacity: BackgroundReportWriter.maxQueued)
    /// Set by the writer's thread just before it ends.
    private let ending = Mutex<Ending?>(nil)
    /// Left when the writer's thread has ended.
    private let ended = DispatchGroup()
    private let outputPath: String

    /// Starts the report of `range` (its hidden folder is created here, so a bad output folder fails at once) and
    /// the thread that writes it.
    init(range: ReportingRange, to outputDirectory: URL, options: WriteOptions) throws(ReportError) {
        let stream = Handover(try ReportStream(range: range, to: outputDirectory, options: options))
        outputPath = outputDirectory.path
        ended.enter()
        OwnThread.start(name: "connect-recon.report-writer") { [self] in
            let result = Self.work(stream.take(), messages: messages)
            ending.withLock { $0 = result }
            // Nothing more is accepted: a blocked or later append throws the failure set above.
            messages.close()
            ended.leave()
        }
    }

    /// Queues `rows` for writing; blocks while the queue is full. Throws the writer's failure, if any.
    func append(_ rows: [PlatformFeeRow]) throws(ReportError) {
        do {
            try messages.push(.rows(rows))
        } catch {
            throw failure(ending.withLock { $0 })
        }
    }

    /// Writes what is queued, then the rest of the report, and swaps the folder into place.
    func finish(_ report: ReconciliationReport, metadata: ReportMetadata) async throws(ReportError)
        -> (files: ReportFiles, timings: ReportStream.Timings)
    {
        // Queuing the last message may wait for room, and the writer's end is waited for: both on a thread of their own.
        let result: Ending? =
            (try? await OwnThread.run(name: "connect-recon.report-finish") { [self] () -> Ending? in
                try? messages.push(.finish(report, metadata))
                ended.wait()
                return ending.withLock { $0 }
            }) ?? nil
        guard case .success(let outcome?)? = result else { throw failure(result) }
        return outcome
    }

    /// Drops the report: the writer stops and its hidden folder is removed before this returns.
    func abandon() async {
        messages.close()
        await withCheckedContinuation { continuation in
            ended.notify(queue: .global()) { continuation.resume() }
        }
    }

    /// The error to throw when the writer stopped before doing what was asked.
    private func failure(_ ending: Ending?) -> ReportError {
        if case .failure(let error)? = ending { return error }
        return .fileSystem(operation: "write the report", path: outputPath, reason: "the report writer stopped early")
    }

    // MARK: The writer's thread

    /// Writes messages until the report is finished, a write fails or the queue is closed. The unfinished folder is
    /// removed whatever ended the work (a no-op after a finish).
    private static func work(_ stream: ReportStream, messages: BlockingQueue<Message>) -> Ending {
        defer { stream.abandon() }
        do {
            // The queue is only ever closed, never finished with an error.
            while let message = (try? messages.pop()) ?? nil {
                switch message {
                case .rows(let rows):
                    try stream.append(platformFees: rows)
                case .finish(let report, let metadata):
                    let files = try stream.finish(report, metadata: metadata)
                    return .success((files, stream.timings))
                }
            }
            return .success(nil)
        } catch {
            return .failure(error)
        }
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
