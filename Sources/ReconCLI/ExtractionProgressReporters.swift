import Extract
import Foundation
import Logging
import ReconCore
import Synchronization

/// Under cron or with output redirected: a plain log line every few thousand objects.
final class LogProgress: ExtractionProgress, Sendable {
    private let logger: Logger
    /// Objects stored so far, and the count at which the next line is logged.
    private let counts = Mutex((objects: 0, nextReport: 5_000))

    init(logger: Logger) { self.logger = logger }

    func pageStored(resource: String, objects count: Int, total: Int) async {
        let report: Int? = counts.withLock { counts in
            counts.objects += count
            guard counts.objects >= counts.nextReport else { return nil }
            counts.nextReport = counts.objects + 5_000
            return counts.objects
        }
        if let report { logger.info("extracting", metadata: ["objects": "\(report)", "last_resource": "\(resource)"]) }
    }

    func followUpsPlanned(round: Int, count: Int) async {}
}

/// On a terminal: one live line with objects per resource and the request rate, rewritten in place.
final class TerminalProgress: ExtractionProgress, Sendable {
    /// What the live line shows: objects per resource, when it was last drawn, the follow-up round.
    private struct Line {
        var totals: [String: Int] = [:]
        var lastDraw: ContinuousClock.Instant?
        var round = 0
    }

    private let console: any Console
    private let clock = ContinuousClock()
    private let began: ContinuousClock.Instant
    private let line = Mutex(Line())

    init(console: any Console) {
        self.console = console
        self.began = clock.now
    }

    func pageStored(resource: String, objects: Int, total: Int) async {
        let now = clock.now
        let text: String? = line.withLock { line in
            line.totals[resource] = total
            if let lastDraw = line.lastDraw, now - lastDraw < .milliseconds(200) { return nil }
            line.lastDraw = now
            let elapsed = (now - began).inSeconds
            let all = line.totals.values.reduce(0, +)
            let parts = line.totals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: " · ")
            let phase = line.round > 0 ? " · follow-ups round \(line.round)" : ""
            return "\r\u{1B}[2K\(parts) · \(all) objects in \(String(format: "%.0f", elapsed)) s\(phase)"
        }
        if let text { console.writeError(text) }
    }

    func followUpsPlanned(round: Int, count: Int) async {
        line.withLock { $0.round = round }
    }

    func finish() { console.writeError("\r\u{1B}[2K") }
}
