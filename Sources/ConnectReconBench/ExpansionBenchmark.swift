import CurlTransport
import Extract
import Foundation
import History
import Logging
import Pipeline
import ReconCore
import Reports
import Sandbox
import StripeAPI

/// (i) What each `expand[]` of the range's lists costs and saves (issue 29, part 3): the week of (a) extracted at
/// Stripe's limits with every expansion, then once per expansion left out (with the paths under it: Stripe expands
/// a path's parents with it), then with none, then with every one again (the noise, and a check that two equal
/// runs store the same). Each run is measured by its requests, its response bytes (as sent, and deflated as Stripe
/// gzips them) and its wall time, and checked against the first: the same objects with the same JSON in the
/// history, and the same CSV reports reconciled from it.
///
/// Whether an expansion pays is judged on a simple model (``CostModel``): each request it saves is worth a slot of
/// the account's rate budget, the bytes it adds cost their transfer time.
struct ExpansionBenchmark {
    var charges: Int
    var days: Int
    var hours = 4
    var folder: URL

    /// One extraction of the week: the expansions it leaves out, by kind of range list.
    struct Variant {
        var name: String
        var dropped: [ObjectKind: Set<String>] = [:]
    }

    /// What one extraction cost, and where its history is.
    struct Measurement {
        var requests: Int
        var busiestEndpoint: (name: String, requests: Int)
        var followUps: Int
        var followUpRounds: Int
        var listed: Int
        var bytes: Int
        var deflatedBytes: Int?
        var expandedObjects: Int
        var seconds: Double
        var history: String
        /// The SHA-256 of each CSV report reconciled from the history, by name.
        var reports: [String: String] = [:]
        /// Where they were written.
        var reportFolder: URL?

        var bytesPerListedObject: Int { bytes / max(listed, 1) }
    }

    /// The week of (a) inside its world: `[from, to)` and the world's end (its "now").
    struct Week {
        var from: Int64
        var to: Int64
        var now: Int64
    }

    /// Every variant measured: with every expansion, each expansion left out (with the paths under it), none,
    /// every one again.
    static var variants: [Variant] {
        let shipped = Variant(name: "every expansion")
        var variants = [shipped]
        var all: [ObjectKind: Set<String>] = [:]
        for kind in ObjectKind.allCases where !kind.entry.rangeExpansions.isEmpty {
            let expansions = kind.entry.rangeExpansions
            all[kind] = Set(expansions)
            for path in expansions {
                let under = expansions.filter { $0.hasPrefix(path + ".") }
                let name =
                    "\(kind.entry.table) − `\(path)`"
                    + (under.isEmpty ? "" : " (with " + under.map { "`\($0)`" }.joined(separator: ", ") + ")")
                variants.append(Variant(name: name, dropped: [kind: [path]]))
            }
        }
        variants.append(Variant(name: "no expansion", dropped: all))
        variants.append(Variant(name: "every expansion, again"))
        return variants
    }

    func run(log: @escaping @Sendable (String) -> Void) async throws -> [Figure] {
        let options = ExtractionBenchmark.sandboxAtStripesLimits(charges: charges, days: days, hours: hours)
        let server = try await SandboxServer.start(options)
        do {
            let figures = try await run(server: server, log: log)
            try await server.shutdown()
            return figures
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    private func run(server: SandboxServer, log: @escaping @Sendable (String) -> Void) async throws -> [Figure] {
        let start = Int64(server.world.start.timeIntervalSince1970)
        let from = start + Int64(days / 2 - 4) * 86_400
        let week = Week(from: from, to: from + 7 * 86_400, now: Int64(server.world.end.timeIntervalSince1970))
        log("expansions: sandbox \(server.summary)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let deflate = Deflate()
        let model = CostModel()

        var figures = [
            Figure(
                "**(i) the week of (a), each range expansion left out in turn**",
                "\(Format.count(charges)) charges over \(days) days \(hours) h, "
                    + "\(Format.count(server.world.objectCount)) objects; a run with every expansion, one per "
                    + "expansion left out (with the paths under it), one with none, one with every one again",
                target: "latency 150 ms + 500 µs per expanded object, 100/s, 25/s per endpoint"),
            Figure(
                "cost model: requests saved against bytes added",
                "a request saved: \(Int(model.requestSeconds * 1000)) ms (its slot of the account's 100/s; its "
                    + "150–300 ms round trip not counted; \(model.noiseRequests) or fewer: none); a byte added: "
                    + "deflated, at \(Int(model.bandwidthBitsPerSecond / 1e6)) Mbit/s, never overlapped",
                target: "pays: requests' time > bytes' time", ratio: "bytes' / requests'"),
        ]
        var baseline: Measurement?
        var compared: [(variant: Variant, measured: Measurement, facts: String, same: Bool)] = []
        for (index, variant) in Self.variants.enumerated() {
            try await Task.sleep(for: .seconds(1.5))  // let the sandbox's rate windows empty
            let measured = try await measure(variant, index: index, server: server, week: week, deflate: deflate)
            log(
                "expansions [\(variant.name)]: \(measured.requests) requests (\(measured.followUps) follow-ups in "
                    + "\(measured.followUpRounds) rounds; busiest \(measured.busiestEndpoint.name) "
                    + "\(measured.busiestEndpoint.requests)), \(Format.count(measured.bytes)) bytes "
                    + "(deflated \(measured.deflatedBytes.map(Format.count) ?? "?")), \(measured.expandedObjects) "
                    + "expanded objects, \(Format.seconds(measured.seconds))")
            guard let base = baseline else {
                baseline = measured
                continue
            }
            let facts = try FactsComparison(history: measured.history, baseline: base.history)
            let sameReports = measured.reports == base.reports
            compared.append(
                (
                    variant, measured, facts.summary + (sameReports ? "" : ", REPORTS DIFFER"),
                    facts.isSame && sameReports
                ))
            // A run that stored what the first did is removed; one that did not is kept to be looked into.
            if facts.isSame && sameReports {
                Self.removeHistory(measured.history)
                if let reports = measured.reportFolder { try? FileManager.default.removeItem(at: reports) }
            } else {
                log("expansions [\(variant.name)]: \(facts.detail); reports \(sameReports ? "same" : "DIFFER"); kept")
            }
        }
        guard var base = baseline else { return figures }
        figures.append(Self.baselineFigure(Self.variants[0], base))
        // Wall times are compared with the faster run with every expansion: a busy machine only slows one down.
        base.seconds =
            ([base] + compared.filter(\.variant.dropped.isEmpty).map(\.measured)).map(\.seconds).min()
            ?? base.seconds
        for run in compared {
            guard !run.variant.dropped.isEmpty else {
                figures.append(
                    Figure.check(
                        "every expansion again: same facts, same reports", passed: run.same,
                        detail: "\(Self.measuredText(run.measured, against: base)); \(run.facts)"))
                continue
            }
            figures.append(model.figure(run.variant, run.measured, against: base, facts: run.facts))
        }
        return figures
    }

    /// The first run's figure: its figures in full.
    private static func baselineFigure(_ variant: Variant, _ measured: Measurement) -> Figure {
        Figure(
            variant.name,
            "\(Format.count(measured.requests)) requests (\(measured.followUps) follow-ups in "
                + "\(measured.followUpRounds) rounds), \(megabytes(measured.bytes)) "
                + "(deflated \(measured.deflatedBytes.map(megabytes) ?? "?")), "
                + "\(Format.count(measured.bytesPerListedObject)) bytes per listed object "
                + "(\(Format.count(measured.listed)) listed), \(Format.count(measured.expandedObjects)) expanded "
                + "objects, \(Format.seconds(measured.seconds))")
    }

    /// A run's figures against the first's: requests, bytes, bytes per listed object, wall time (against `base`'s,
    /// the faster run with every expansion).
    static func measuredText(_ measured: Measurement, against base: Measurement) -> String {
        "\(Format.count(measured.requests)) requests (\(signed(measured.requests - base.requests)); follow-ups in "
            + "\(measured.followUpRounds) rounds), "
            + "\(megabytes(measured.bytes)) (\(signedMegabytes(measured.bytes - base.bytes)); deflated "
            + "\(signedMegabytes((measured.deflatedBytes ?? 0) - (base.deflatedBytes ?? 0)))), "
            + "\(Format.count(measured.bytesPerListedObject)) B/listed object, \(Format.seconds(measured.seconds)) "
            + "(\(String(format: "%+.2f s", measured.seconds - base.seconds)))"
    }

    /// Extracts the week with `variant`'s expansions at Stripe's limits into a fresh history, then reconciles it.
    private func measure(
        _ variant: Variant, index: Int, server: SandboxServer, week: Week, deflate: Deflate
    ) async throws -> Measurement {
        let history = folder.appendingPathComponent("expansions-\(index).sqlite").path
        var measured = try await extract(variant, into: history, server: server, week: week, deflate: deflate)
        let reports = folder.appendingPathComponent("reports-\(index)", isDirectory: true)
        measured.reports = try await Self.reconcile(history: history, week: week, output: reports)
        measured.reportFolder = reports
        return measured
    }

    /// Extracts the week with `variant`'s expansions at Stripe's limits into a fresh history at `history`.
    private func extract(
        _ variant: Variant, into history: String, server: SandboxServer, week: Week, deflate: Deflate
    ) async throws -> Measurement {
        let curl = try ExtractionBenchmark.transport(concurrency: ExtractionBenchmark.concurrency)
        defer { curl.shutdown() }
        let recorder = ResponseRecorder(curl)
        let store = try HistoryStore.open(ExtractionBenchmark.freshSQLiteHistory(history))
        let runID = try ExtractionBenchmark.beginRun(
            store, from: week.from, to: week.to, now: week.now, apiBase: server.baseURL.absoluteString)
        let client = try ExtractionBenchmark.client(
            server, transport: recorder, global: ExtractionBenchmark.globalLimit,
            endpoint: ExtractionBenchmark.endpointLimit)
        var options = ExtractionBenchmark.options()
        options.droppedExpansions = variant.dropped
        let extractor = Extractor(
            client: client, store: store, options: options, logger: Logger(label: "bench.expansions"))
        let before = server.requestStats
        let watch = Stopwatch()
        let summary = try await extractor.extract(from: week.from, to: week.to, runID: runID, now: week.now)
        let seconds = watch.seconds
        let after = server.requestStats
        try store.runs.finishRun(runID, status: .completed, finishedAt: week.now, message: nil, details: nil)
        var busiest = (name: "none", requests: 0)
        for (endpoint, count) in after.byEndpoint {
            let made = count - (before.byEndpoint[endpoint] ?? 0)
            if made > busiest.requests { busiest = (endpoint.replacingOccurrences(of: "GET ", with: ""), made) }
        }
        let bodies = recorder.bodies
        let listedTables = Set(ObjectKind.allCases.filter(\.entry.listedOverRange).map(\.entry.table))
        return Measurement(
            requests: await client.stats.requests, busiestEndpoint: busiest, followUps: summary.followUps,
            followUpRounds: summary.followUpRounds,
            listed: summary.objectsByResource.filter { listedTables.contains($0.key) }.values.reduce(0, +),
            bytes: bodies.reduce(0) { $0 + $1.count }, deflatedBytes: deflate.size(of: bodies),
            expandedObjects: after.expandedObjects - before.expandedObjects, seconds: seconds, history: history)
    }

    /// Reconciles the week from `history` as `connect-recon reconcile` does, as of the world's end; returns each
    /// CSV report's SHA-256 by name.
    private static func reconcile(history: String, week: Week, output: URL) async throws -> [String: String] {
        try? FileManager.default.removeItem(at: output)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let store = try HistoryStore.open(.sqliteFile(path: history))
        let range = try ReportingRange(
            from: Date(timeIntervalSince1970: TimeInterval(week.from)),
            to: Date(timeIntervalSince1970: TimeInterval(week.to)), timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
        let runID = try store.runs.beginRun(
            RunStart(
                command: "reconcile", range: range, mode: .test, toolVersion: "bench",
                stripeVersion: ExtractionBenchmark.stripeVersion, apiBase: "offline", startedAt: week.now,
                pid: getpid()),
            resume: false
        ).runID
        let pipeline = ReconcilePipeline(
            store: store, range: range, asOf: week.now, skippedTransferGrace: ExtractionBenchmark.grace,
            outputDirectory: output)
        let outcome = try await pipeline.run(runID: runID) { _ in
            ReportMetadata(
                range: range, runID: runID, startedAt: week.now, finishedAt: week.now, command: "reconcile",
                toolVersion: "bench", stripeVersion: ExtractionBenchmark.stripeVersion, mode: .test,
                apiBase: "offline")
        }
        try store.runs.finishRun(runID, status: .completed, finishedAt: week.now, message: nil, details: nil)
        return Dictionary(outcome.files.csvFiles.map { ($0.name, $0.sha256) }) { first, _ in first }
    }

    private static func removeHistory(_ path: String) {
        for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }

    static func signedMegabytes(_ bytes: Int) -> String { String(format: "%+.2f MB", Double(bytes) / 1e6) }

    static func signed(_ value: Int) -> String { value > 0 ? "+\(Format.count(value))" : Format.count(value) }
}

/// Whether an expansion pays (issue 29): each request it saves is priced at its slot of the account's rate budget
/// (1/100 s: Stripe's 100/s is shared with the platform's own traffic), its round trip (150–300 ms, which follow-up
/// rounds add one after another) not counted; the bytes it adds are priced at their transfer time, deflated as
/// Stripe gzips them, at a platform's bandwidth, as if no transfer overlapped another. Requests are thus priced
/// low and bytes high: an expansion that pays on this model pays. The measured wall time (the sandbox's latency,
/// its 500 µs per expanded object and Stripe's limits, but no bandwidth limit) is shown beside it.
struct CostModel {
    /// What a request saved is worth: a slot of the account's budget.
    var requestSeconds = 1 / ExtractionBenchmark.globalLimit
    /// The platform's bandwidth from Stripe.
    var bandwidthBitsPerSecond = 50e6
    /// Two runs with the same expansions differ by up to this many requests (windows are split by the timing of
    /// their pages): fewer requests saved are none.
    var noiseRequests = 5

    /// The transfer time of a run's deflated bytes (its bytes as sent when they could not be deflated).
    func byteSeconds(_ run: ExpansionBenchmark.Measurement) -> Double {
        Double(run.deflatedBytes ?? run.bytes) * 8 / bandwidthBitsPerSecond
    }

    /// The figure of a run without some expansions (`measured`) against the run with all (`base`): what the
    /// expansions saved and cost, and whether they pay.
    func figure(
        _ variant: ExpansionBenchmark.Variant, _ measured: ExpansionBenchmark.Measurement,
        against base: ExpansionBenchmark.Measurement, facts: String
    ) -> Figure {
        let requests = measured.requests - base.requests
        let saved = requests > noiseRequests ? Double(requests) * requestSeconds : 0
        let cost = byteSeconds(base) - byteSeconds(measured)
        let ratio =
            cost <= 0 ? (saved > 0 ? "0× (fewer bytes)" : "–") : saved > 0 ? Format.ratio(cost / saved) : "∞"
        return Figure(
            variant.name,
            "\(ExpansionBenchmark.measuredText(measured, against: base)); \(facts)",
            target: String(format: "saves %.2f s of requests, costs %.3f s of bytes", saved, cost), ratio: ratio,
            verdict: saved > 0 && saved > cost ? .met : .missed)
    }
}

/// Two histories of the same week compared object by object: per table, the objects only the first run stored
/// (lost), only this one stored (extra), and stored by both with other JSON; and the payouts' listed transactions
/// and the objects recorded missing (404).
struct FactsComparison {
    /// `table lost extra changed` per table with a difference.
    var differences: [(table: String, lost: Int, extra: Int, changed: Int)] = []
    /// A few ids per difference, for the log.
    var examples: [String] = []

    var isSame: Bool { differences.isEmpty }

    /// `same facts`, or what differs (`charges: 12 lost, 3 changed; …`).
    var summary: String {
        guard !isSame else { return "same facts" }
        return differences.map { difference in
            "\(difference.table): "
                + [(difference.lost, "lost"), (difference.extra, "extra"), (difference.changed, "changed")]
                .filter { $0.0 > 0 }.map { "\(Format.count($0.0)) \($0.1)" }.joined(separator: ", ")
        }.joined(separator: "; ")
    }

    var detail: String { summary + (examples.isEmpty ? "" : " (e.g. " + examples.joined(separator: ", ") + ")") }

    init(history: String, baseline: String) throws {
        let tables = ObjectKind.allCases.map(\.entry.table)
        var selects = tables.map { table in
            """
            SELECT '\(table)',
              (SELECT COUNT(*) FROM base.\(table)_raw x WHERE x.id NOT IN (SELECT id FROM main.\(table)_raw)),
              (SELECT COUNT(*) FROM main.\(table)_raw y WHERE y.id NOT IN (SELECT id FROM base.\(table)_raw)),
              (SELECT COUNT(*) FROM base.\(table)_raw x JOIN main.\(table)_raw y ON y.id = x.id WHERE x.raw <> y.raw)
            """
        }
        for (table, columns) in [
            ("payout_transactions", "payout_id, balance_transaction_id"), ("missing_objects", "kind, object_id"),
        ] {
            selects.append(
                """
                SELECT '\(table)',
                  (SELECT COUNT(*) FROM (SELECT \(columns) FROM base.\(table) EXCEPT SELECT \(columns) FROM main.\(table))),
                  (SELECT COUNT(*) FROM (SELECT \(columns) FROM main.\(table) EXCEPT SELECT \(columns) FROM base.\(table))),
                  0
                """)
        }
        let rows = try SQLiteCommand.rows(
            history, "ATTACH '\(baseline)' AS base; " + selects.joined(separator: " UNION ALL ") + ";")
        for row in rows where row.count == 4 {
            let counts = row.dropFirst().map { Int($0) ?? 0 }
            guard counts.contains(where: { $0 > 0 }) else { continue }
            differences.append((row[0], counts[0], counts[1], counts[2]))
            if tables.contains(row[0]) {
                examples += try SQLiteCommand.rows(
                    history,
                    """
                    ATTACH '\(baseline)' AS base;
                    SELECT 'lost ' || id FROM base.\(row[0])_raw WHERE id NOT IN (SELECT id FROM main.\(row[0])_raw)
                    LIMIT 3;
                    """
                ).compactMap(\.first)
            }
        }
    }
}

/// zlib's `compress2`, found at run time (the benchmark links no zlib module): the size of a response deflated,
/// about what Stripe sends gzipped (a gzip header is 12 bytes more).
struct Deflate {
    private typealias Compress =
        @convention(c) (
            UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?, UnsafePointer<UInt8>?, UInt, Int32
        ) -> Int32
    private typealias Bound = @convention(c) (UInt) -> UInt
    private let compress: Compress?
    private let bound: Bound?

    init() {
        let library = dlopen("libz.so.1", RTLD_NOW)
        compress = dlsym(library, "compress2").map { unsafeBitCast($0, to: Compress.self) }
        bound = dlsym(library, "compressBound").map { unsafeBitCast($0, to: Bound.self) }
    }

    /// The bodies' total size, each deflated at zlib's default level (gzip's); `nil` without zlib.
    func size(of bodies: [Data]) -> Int? {
        guard let compress, let bound else { return nil }
        var total = 0
        for body in bodies {
            var output = [UInt8](repeating: 0, count: Int(bound(UInt(body.count))))
            var length = UInt(output.count)
            let status = body.withUnsafeBytes { input in
                compress(
                    &output, &length, input.bindMemory(to: UInt8.self).baseAddress, UInt(body.count), -1)
            }
            guard status == 0 else { return nil }
            total += Int(length)
        }
        return total
    }
}
