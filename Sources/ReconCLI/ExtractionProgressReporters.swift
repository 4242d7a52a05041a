import Extract
import Foundation
import Logging
import ReconCore

/// Under cron or with output redirected: a plain log line every few thousand objects.
final class LogProgress: ExtractionProgress, @unchecked Sendable {
    private let logger: Logger
    private let lock = NSLock()
    private var objects = 0
    private var nextReport = 5_000

    init(logger: Logger) { self.logger = logger }

    func pageStored(resource: String, objects count: Int, total: Int) async {
        let report: Int? = lock.withLock {
            objects += count
            guard objects >= nextReport else { return nil }
            nextReport = objects + 5_000
            return objects
        }
        if let report { logger.info("extracting", metadata: ["objects": "\(report)", "last_resource": "\(resource)"]) }
    }

    func followUpsPlanned(round: Int, count: Int) async {}
}

/// On a terminal: one live line with objects per resource and the request rate, rewritten in place.
final class TerminalProgress: ExtractionProgress, @unchecked Sendable {
    private let console: any Console
    private let clock = ContinuousClock()
    private let began: ContinuousClock.Instant
    private let lock = NSLock()
    private var totals: [String: Int] = [:]
    private var lastDraw: ContinuousClock.Instant?
    private var round = 0

    init(console: any Console) {
        self.console = console
        self.began = clock.now
    }

    func pageStored(resource: String, objects: Int, total: Int) async {
        let line: String? = lock.withLock {
            totals[resource] = total
            let now = clock.now
            if let lastDraw, now - lastDraw < .milliseconds(200) { return nil }
            lastDraw = now
            let elapsed = (now - began).inSeconds
            let all = totals.values.reduce(0, +)
            let parts = totals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: " · ")
            let phase = round > 0 ? " · follow-ups round \(round)" : ""
            return "\r\u{1B}[2K\(parts) · \(all) objects in \(String(format: "%.0f", elapsed)) s\(phase)"
        }
        if let line { console.writeError(line) }
    }

    func followUpsPlanned(round: Int, count: Int) async {
        lock.withLock { self.round = round }
    }

    func finish() { console.writeError("\r\u{1B}[2K") }
}
