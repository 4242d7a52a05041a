import Foundation
import ReconCore
import Reports
import WorkerThreads

/// The last stage of the reconcile pipeline: a ``ReportStream`` written on a thread of its own from the messages
/// the rules send it, so the rules go on with the next part while rows are formatted and written (the two cores of
/// a small machine both work).
///
/// At most ``maxQueued`` messages wait; a full queue blocks ``append(platformFees:)`` and
/// ``append(payoutTransactions:)``, so memory stays bounded when the disk is slower than the rules. A write that fails
/// ends ``write(_:)`` with its error and closes the queue, so the next append throws. Closing the queue (``abandon()``) ends it too; whatever ends it, the unfinished report
/// folder is removed before ``write(_:)`` returns, so a failed run leaves the previous report as it was.
struct ReportWriterStage: Sendable {
    /// Two messages (its platform fees, its payout transactions) for each part the reader may read ahead
    /// (``ReconcilePipeline/partsQueued``): the payout parts' rows wait here while the writer is still on earlier ones.
    static let maxQueued = 2 * ReconcilePipeline.partsQueued

    /// What the writer is asked to do, in order.
    enum Message: Sendable {
        case platformFees([PlatformFeeRow])
        case payoutTransactions([PayoutTransactionRow])
        /// The rest of the report.
        case finish(ReconciliationReport, ReportMetadata)
    }

    /// The finished report's files and the writer's timings; `nil` when the queue was closed before a finish.
    typealias Written = (files: ReportFiles, timings: ReportStream.Timings)?

    private let messages = BlockingQueue<Message>(capacity: ReportWriterStage.maxQueued)

    /// Writes `stream` from the queue until the report is finished, a write fails or the queue is closed, on a
    /// thread of its own. Never throws: the outcome is the value.
    func write(_ stream: sending ReportStream) async -> Result<Written, ReportError> {
        let messages = messages
        return await OwnThread.run(name: "connect-recon.report-writer") {
            let result = Self.work(stream, messages: messages)
            // Nothing more is accepted: a blocked or later append throws.
            messages.close()
            return result
        }
    }

    /// Queues `rows`; blocks while the queue is full (call it from a thread of its own, as the rules run). Throws
    /// when the writer has stopped.
    func append(platformFees rows: [PlatformFeeRow]) throws {
        try messages.push(.platformFees(rows))
    }

    /// Queues `rows` (every platform fee is queued before them); blocks while the queue is full. Throws when the
    /// writer has stopped.
    func append(payoutTransactions rows: [PayoutTransactionRow]) throws {
        try messages.push(.payoutTransactions(rows))
    }

    /// Queues the end of the report: the other tables, the Run sheet and the Summary, then the swap into place.
    /// Queuing may wait for room, on a thread of its own. Throws when the writer has stopped.
    func finish(_ report: ReconciliationReport, metadata: ReportMetadata) async throws {
        let messages = messages
        try await OwnThread.run(name: "connect-recon.report-finish") {
            try messages.push(.finish(report, metadata))
        }
    }

    /// Stops the writer: ``write(_:)`` removes the hidden folder and returns.
    func abandon() {
        messages.close()
    }

    /// Writes messages until the report is finished, a write fails or the queue is closed. The unfinished folder is
    /// removed whatever ended the work (a no-op after a finish).
    private static func work(_ stream: ReportStream, messages: BlockingQueue<Message>) -> Result<Written, ReportError> {
        defer { stream.abandon() }
        do {
            // The queue is only ever closed, never finished with an error.
            while let message = (try? messages.pop()) ?? nil {
                switch message {
                case .platformFees(let rows):
                    try stream.append(platformFees: rows)
                case .payoutTransactions(let rows):
                    try stream.append(payoutTransactions: rows)
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
