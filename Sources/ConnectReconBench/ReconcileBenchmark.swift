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
import Synchronization

/// Measurement (b): offline reconcile and every report of a history holding about a million destination charges.
///
/// The history is populated once by extracting a sandbox world with no latency, no rate limits and an unlimited
/// budget (the real extraction path: wire JSON, decoding, the history's upserts), then cached under
/// `.build-bench/`. The reconcile itself runs in a child process, so its peak resident memory is its own and not
/// the sandbox's.
struct ReconcileBenchmark {
    /// Platform charges in the world; 80 % of them are destination charges.
    var charges: Int
    var days: Int
    var cacheFolder: URL
    /// A PostgreSQL server: the cached history is then copied into a database there and reconciled from it too
    /// (issue 19: at most twice SQLite's time, the same reports).
    var postgreSQL: PostgreSQLAddress?

    /// What population took, remembered next to the cached database.
    struct Population: Codable {
        var objects: Int
        var seconds: Double
        var from: Int64
        var to: Int64
    }

    var databasePath: String { cacheFolder.appendingPathComponent("history-seed42-\(charges)-\(days)d.sqlite").path }
    private var markerPath: String { databasePath + ".populated.json" }

    /// The cached history, populating it first when missing. `fresh` is true when this call populated it.
    func populatedHistory(log: @escaping @Sendable (String) -> Void) async throws -> (
        population: Population, fresh: Bool
    ) {
        if let data = FileManager.default.contents(atPath: markerPath),
            let population = try? JSONDecoder().decode(Population.self, from: data),
            FileManager.default.fileExists(atPath: databasePath)
        {
            log("reconcile: using the cached history \(databasePath)")
            return (population, false)
        }
        try FileManager.default.createDirectory(at: cacheFolder, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm", ".lock"] {
            try? FileManager.default.removeItem(atPath: databasePath + suffix)
        }
        var options = SandboxOptions()
        options.charges = charges
        options.days = days
        let generation = Stopwatch()
        let server = try await SandboxServer.start(options)
        log(
            "reconcile: populating \(databasePath) from a sandbox (\(server.summary)), generated in "
                + Format.seconds(generation.seconds)
        )
        let from = Int64(server.world.start.timeIntervalSince1970)
        let to = Int64(server.world.end.timeIntervalSince1970)
        let store = try HistoryStore.open(path: databasePath)
        let runID = try ExtractionBenchmark.beginRun(
            store, from: from, to: to, now: to + 30 * 86_400, apiBase: server.baseURL.absoluteString)
        let concurrency = 8
        let transport = try ExtractionBenchmark.transport(concurrency: concurrency)
        let client = try ExtractionBenchmark.client(server, transport: transport, global: 1e9, endpoint: 1e9)
        let extractor = Extractor(
            client: client, store: store,
            options: Extractor.Options(concurrency: concurrency, settleMargin: 300, windowSeconds: 86_400),
            logger: Logger(label: "bench.populate"), progress: PopulationProgress(log: log))
        let watch = Stopwatch()
        _ = try await extractor.extract(from: from, to: to, runID: runID, now: to + 30 * 86_400)
        let seconds = watch.seconds
        transport.shutdown()
        try await server.shutdown()
        try store.runs.finishRun(runID, status: .completed, finishedAt: to + 30 * 86_400, message: nil, details: nil)
        var objects = 0
        for kind in ObjectKind.allCases { objects += try store.objects.count(of: kind) }
        let population = Population(objects: objects, seconds: seconds, from: from, to: to)
        try JSONEncoder().encode(population).write(to: URL(fileURLWithPath: markerPath))
        return (population, true)
    }

    /// Issue 20's targets: 150,000 charges or fewer in 9 s and 400 MiB, a million in 60 s and 1 GiB.
    var targets: (seconds: Double, bytes: Double) {
        charges <= 150_000 ? (9, 400 * 1_048_576) : (60, 1_073_741_824)
    }

    /// Runs the reconcile in a child process and turns what it reports into figures.
    func run(log: @escaping @Sendable (String) -> Void) async throws -> [Figure] {
        let (population, fresh) = try await populatedHistory(log: log)
        var figures: [Figure] = []
        if fresh {
            figures.append(
                Figure(
                    "history populated (loopback extraction, no latency, no limits)",
                    "\(Format.count(population.objects)) objects in \(Format.seconds(population.seconds))",
                    ratio: Format.rate(Double(population.objects) / population.seconds, unit: "objects")))
        } else {
            figures.append(
                Figure(
                    "history (cached; populated by loopback extraction)",
                    "\(Format.count(population.objects)) objects",
                    ratio: "first run: " + Format.rate(Double(population.objects) / population.seconds, unit: "objects")
                ))
        }
        let output = cacheFolder.appendingPathComponent("reports").path
        let child = try ChildReconcile.spawn(
            database: .sqliteFile(path: databasePath), output: output, from: population.from, to: population.to)
        log("reconcile: child finished in \(Format.seconds(child.total)), peak RSS \(Format.bytes(child.peakResident))")
        // The child's own high-water mark: the largest of all children (getrusage) would be the sandbox's when this
        // invocation populated the history from one (1.93 GiB at 1,250,000 charges, against the reconcile's 435 MiB).
        let peak = child.peakResident
        figures += [
            Figure("destination charges reconciled", Format.count(child.platformFeeRows)),
            Figure(
                "objects read from the history (\(Format.count(child.parts)) parts)",
                Format.count(child.objectsLoaded)),
            Figure("  read the parts from the history", Format.seconds(child.read)),
            Figure("  rules (ReconciliationSession)", Format.seconds(child.rules)),
            Figure("  record findings (\(Format.count(child.findings)))", Format.seconds(child.findingsSeconds)),
            Figure("  report writer, on its own thread: CSV", Format.seconds(child.csv)),
            Figure("  report writer, on its own thread: XLSX rows", Format.seconds(child.workbookRows)),
            Figure("  XLSX close (zip) and sync", Format.seconds(child.workbookClose)),
            Figure("  waiting for the writer after the rules", Format.seconds(child.finish)),
            Figure.atMost("reconcile + all reports, total", child.total, targets.seconds, format: Format.seconds),
            Figure.atMost(
                "peak resident memory", Double(peak), targets.bytes, format: { Format.bytes(UInt64($0)) }),
            Figure(
                "  peak resident during rules / findings / reports",
                ["rules", "findings", "reports"].map { Format.bytes(child.phasePeaks[$0] ?? 0) }
                    .joined(separator: " / ")),
        ]
        if let postgreSQL {
            figures += try postgreSQLFigures(
                postgreSQL, population: population, sqlite: child, sqliteReports: output, log: log)
        }
        return figures
    }

    /// The cached history copied into PostgreSQL (`copy-history`'s path) and reconciled from there.
    private func postgreSQLFigures(
        _ server: PostgreSQLAddress, population: Population, sqlite: ChildReconcile.Measurement,
        sqliteReports: String, log: @escaping @Sendable (String) -> Void
    ) throws -> [Figure] {
        let location = try BenchmarkDatabases.recreate("connect_recon_bench_reconcile", server: server)
        let copyWatch = Stopwatch()
        let summary = try HistoryStore.open(.sqliteFile(path: databasePath)).copy(into: try HistoryStore.open(location))
        let copySeconds = copyWatch.seconds
        log("reconcile: copied the history into PostgreSQL in \(Format.seconds(copySeconds))")
        // The SQLite child's reconcile run is in the copy: reconcile from the copy as the same (third) run.
        let output = cacheFolder.appendingPathComponent("reports-postgresql").path
        let child = try ChildReconcile.spawn(
            database: location, output: output, from: population.from, to: population.to)
        log(
            "reconcile: from PostgreSQL in \(Format.seconds(child.total)), peak RSS \(Format.bytes(child.peakResident))"
        )
        let identical = try Self.sameCSVFiles(sqliteReports, output)
        return [
            Figure(
                "history copied into PostgreSQL (copy-history)",
                "\(Format.count(summary.totalRows)) rows in \(Format.seconds(copySeconds))",
                ratio: Format.rate(Double(summary.totalRows) / copySeconds, unit: "rows")),
            Figure(
                "PostgreSQL: read the parts / total",
                "\(Format.seconds(child.read)) / \(Format.seconds(child.total)), peak \(Format.bytes(child.peakResident))"
            ),
            Figure.atMost(
                "PostgreSQL's reconcile time against SQLite's", child.total / sqlite.total, 2, format: Format.ratio,
                targetText: "≤ 2×"),
            Figure.check(
                "the same CSV files from both histories", passed: identical.isEmpty,
                detail: identical.isEmpty ? "byte-identical" : "differ: " + identical.joined(separator: ", ")),
        ]
    }

    /// The CSV files that differ between two report trees (each holds one range folder).
    static func sameCSVFiles(_ one: String, _ other: String) throws -> [String] {
        let manager = FileManager.default
        var differing: [String] = []
        for path in manager.subpaths(atPath: one) ?? [] where path.hasSuffix(".csv") {
            if manager.contents(atPath: one + "/" + path) != manager.contents(atPath: other + "/" + path) {
                differing.append(path)
            }
        }
        return differing
    }
}

/// Logs population progress every 250,000 objects.
final class PopulationProgress: ExtractionProgress {
    let log: @Sendable (String) -> Void
    private let next = Mutex<[String: Int]>([:])

    init(log: @escaping @Sendable (String) -> Void) { self.log = log }

    func pageStored(resource: String, objects: Int, total: Int) async {
        let due = next.withLock { marks -> Bool in
            let mark = marks[resource, default: 250_000]
            guard total >= mark else { return false }
            marks[resource] = mark + 250_000
            return true
        }
        if due { log("  populating: \(resource) \(Format.count(total))") }
    }

    func followUpsPlanned(round: Int, count: Int) async {
        log("  populating: follow-up round \(round), \(count) requests")
    }
}

/// The reconcile step in a child process: the same steps as `connect-recon reconcile`, timed one by one.
enum ChildReconcile {
    static let flag = "--child-reconcile"
    /// The environment variable that hands the child its history's location.
    static let databaseVariable = "CONNECT_RECON_BENCH_HISTORY"

    /// What the child measured.
    struct Measurement: Codable {
        var read: Double
        var rules: Double
        var findingsSeconds: Double
        var csv: Double
        var workbookRows: Double
        var workbookClose: Double
        var finish: Double
        var total: Double
        var peakResident: UInt64
        /// The highest resident set size sampled in each phase (`rules`, `findings`, `reports`).
        var phasePeaks: [String: UInt64]
        var platformFeeRows: Int
        var objectsLoaded: Int
        var parts: Int
        var findings: Int
    }

    /// Starts this executable again with ``flag`` and reads its measurement from standard output.
    static func spawn(database: HistoryLocation, output: String, from: Int64, to: Int64) throws -> Measurement {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [flag, "-", output, String(from), String(to)]
        // The location travels in the environment, so a URL's password is never in a process list.
        var environment = ProcessInfo.processInfo.environment
        environment[databaseVariable] = database.setting
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last,
            let measurement = try? JSONDecoder().decode(Measurement.self, from: Data(line.utf8))
        else {
            throw BenchError("the reconcile child process failed (status \(process.terminationStatus))")
        }
        return measurement
    }

    /// The child's body: reconciles `[from, to)` of `database` exactly as `connect-recon reconcile` does
    /// (``ReconcilePipeline``), writes the reports under `output`, prints JSON.
    static func main(_ arguments: [String]) async throws {
        guard arguments.count == 4, let from = Int64(arguments[2]), let to = Int64(arguments[3]) else {
            throw BenchError("usage: \(flag) DATABASE OUTPUT FROM TO")
        }
        guard let database = ProcessInfo.processInfo.environment[databaseVariable] else {
            throw BenchError("\(databaseVariable) names no history")
        }
        let output = URL(fileURLWithPath: arguments[1], isDirectory: true)
        let asOf = to + 30 * 86_400
        let store = try HistoryStore.open(try HistoryLocation(database))
        let range = try ReportingRange(
            from: Date(timeIntervalSince1970: TimeInterval(from)), to: Date(timeIntervalSince1970: TimeInterval(to)),
            timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
        let runID = try store.runs.beginRun(
            RunStart(
                command: "reconcile", range: range, mode: .test, toolVersion: "bench",
                stripeVersion: ExtractionBenchmark.stripeVersion, apiBase: "offline", startedAt: asOf, pid: getpid()),
            resume: false
        ).runID
        let pipeline = ReconcilePipeline(
            store: store, range: range, asOf: asOf, skippedTransferGrace: 3600, outputDirectory: output)
        let (outcome, phasePeaks) = try await PhasePeaks.sampling { peaks in
            try await pipeline.run(
                runID: runID,
                metadata: { findings in
                    ReportMetadata(
                        range: range, runID: runID, startedAt: asOf, finishedAt: asOf, command: "reconcile",
                        toolVersion: "bench", stripeVersion: ExtractionBenchmark.stripeVersion, mode: .test,
                        apiBase: "offline", counts: ["objects read for the reconcile": findings.objectsRead])
                }, phase: { peaks.enter($0) })
        }
        try store.runs.finishRun(runID, status: .completed, finishedAt: asOf, message: nil, details: nil)
        let timings = outcome.timings
        let findings = outcome.findings
        let measurement = Measurement(
            read: timings.read, rules: timings.rules, findingsSeconds: timings.findings, csv: timings.writer.csv,
            workbookRows: timings.writer.workbookRows, workbookClose: timings.writer.workbookClose,
            finish: timings.finish, total: timings.total, peakResident: Machine.peakResidentBytes() ?? 0,
            phasePeaks: phasePeaks, platformFeeRows: findings.platformFeeRows, objectsLoaded: findings.objectsRead,
            parts: findings.parts, findings: findings.newFindings + findings.openFindings)
        let data = try JSONEncoder().encode(measurement)
        print(String(decoding: data, as: UTF8.self))
    }
}

/// Samples the resident set size every 20 ms and keeps the highest value per phase, so the peak can be pinned on
/// load, rules or reports.
final class PhasePeaks: Sendable {
    private let state = Mutex<(phase: String, peaks: [String: UInt64], running: Bool)>(("start", [:], true))

    private init() {}

    /// Runs `body` while a child task samples every 20 ms (the reconcile's blocking work runs on threads of its
    /// own, so the sampler's turns are not delayed by it); returns what `body` returned and the peak of each phase.
    static func sampling<Value: Sendable>(
        _ body: (PhasePeaks) async throws -> Value
    ) async throws -> (Value, [String: UInt64]) {
        let peaks = PhasePeaks()
        return try await withThrowingTaskGroup { group in
            group.addTask {
                while peaks.sample(), !Task.isCancelled { try? await Task.sleep(for: .milliseconds(20)) }
            }
            let value = try await body(peaks)
            let phases = peaks.stop()
            group.cancelAll()
            return (value, phases)
        }
    }

    /// Records one sample; false once stopped.
    private func sample() -> Bool {
        let resident = Machine.residentBytes() ?? 0
        return state.withLock { state in
            state.peaks[state.phase] = max(state.peaks[state.phase] ?? 0, resident)
            return state.running
        }
    }

    /// Starts attributing samples to `phase`.
    func enter(_ phase: String) {
        _ = sample()
        state.withLock { $0.phase = phase }
    }

    /// Stops sampling; returns the peak of each phase.
    private func stop() -> [String: UInt64] {
        _ = sample()
        return state.withLock { state in
            state.running = false
            return state.peaks
        }
    }
}

/// A benchmark that cannot go on.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
