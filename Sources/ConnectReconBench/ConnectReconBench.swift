import Foundation
import History

/// `connect-recon-bench`: the performance figures (extraction, storage, reconcile, XLSX), measured side by side in
/// one run, and the checks at scale that take too long for the test suite (the sandbox with a million charges,
/// a sheet at Excel's row limit).
///
/// ```sh
/// swift run -c release connect-recon-bench            # everything (first run also populates .build-bench/)
/// swift run -c release connect-recon-bench --only reconcile --reconcile-charges 250000
/// swift run -c release connect-recon-bench --only sandbox-scale,large-sheet
/// ```
///
/// It starts its own sandboxes and builds its own data; the 1M-charge history is cached under `.build-bench/`.
/// Progress goes to standard error, the table (Markdown) to standard output. It exits 1 when a check fails
/// (verdict FAILED); a missed performance target only reads MISSED.
@main
struct ConnectReconBench {
    struct Options {
        var extractionCharges = 40_000
        var extractionDays = 60
        /// `--transfer-group-share`: the share of the extraction world's charges that are separately transferred.
        var transferGroupShare = 0.0
        /// 1,250,000 platform charges are about 1,000,000 destination charges (the world's mix is 80 %).
        var reconcileCharges = 1_250_000
        var reconcileDays = 30
        /// `--reconcile-rounds`: the reconcile and the floor measured this many times, one after the other.
        var reconcileRounds = 3
        var xlsxRows = 1_000_000
        var scaleCharges = 1_000_000
        /// The payout benchmark's world: charges over 10 days, dense enough that a day's usd payout sweeps 5,000+.
        var payoutCharges = 60_000
        var only: Set<String> = []
        /// A PostgreSQL server (`--db postgresql://…`) whose user may create databases: extraction, storage and
        /// reconcile are then measured with the history there too, beside SQLite.
        var postgreSQL: PostgreSQLAddress?
        var folder = URL(fileURLWithPath: ".build-bench", isDirectory: true)
        /// (h): a server already serving the recording (`extraction-cpu.recording` of an earlier run, the same week)
        /// to extract the recorded bytes from, instead of the benchmark's own recorded-bytes server.
        var recordedBytesServer: URL?

        static let measurements: Set<String> = [
            "extraction", "storage", "reconcile", "xlsx", "sandbox-scale", "large-sheet", "payout", "extraction-cpu",
            "expansions",
        ]

        init(_ arguments: [String]) throws {
            var rest = arguments[...]
            func number(_ flag: String) throws -> Int {
                guard let text = rest.popFirst(), let value = Int(text.replacingOccurrences(of: "_", with: "")),
                    value > 0
                else { throw BenchError("\(flag) needs a positive number") }
                return value
            }
            while let flag = rest.popFirst() {
                switch flag {
                case "--extraction-charges": extractionCharges = try number(flag)
                case "--reconcile-charges": reconcileCharges = try number(flag)
                case "--reconcile-rounds": reconcileRounds = try number(flag)
                case "--xlsx-rows": xlsxRows = try number(flag)
                case "--scale-charges": scaleCharges = try number(flag)
                case "--payout-charges": payoutCharges = try number(flag)
                case "--transfer-group-share":
                    guard let text = rest.popFirst(), let share = Double(text), (0...1).contains(share) else {
                        throw BenchError("--transfer-group-share needs a number from 0 to 1, such as 0.2")
                    }
                    transferGroupShare = share
                case "--db":
                    guard case .postgreSQL(let address) = try HistoryLocation(rest.popFirst() ?? "") else {
                        throw BenchError("--db takes a postgresql:// URL (SQLite is always measured)")
                    }
                    postgreSQL = address
                case "--recorded-bytes-server":
                    guard let text = rest.popFirst(), let url = URL(string: text), url.port != nil else {
                        throw BenchError(
                            "--recorded-bytes-server takes a URL with a port, such as http://127.0.0.1:8765")
                    }
                    recordedBytesServer = url
                case "--cache": folder = URL(fileURLWithPath: rest.popFirst() ?? ".build-bench", isDirectory: true)
                case "--only":
                    only = Set((rest.popFirst() ?? "").split(separator: ",").map(String.init))
                    guard only.isSubset(of: Self.measurements) else {
                        throw BenchError("--only takes a comma-separated list of \(Self.measurements.sorted())")
                    }
                case "--help", "-h":
                    throw BenchError(
                        """
                        usage: connect-recon-bench [--only extraction,storage,reconcile,xlsx,sandbox-scale,large-sheet,payout,
                                                          extraction-cpu,expansions]
                                                   [--extraction-charges N] [--reconcile-charges N]
                                                   [--reconcile-rounds N] [--xlsx-rows N]
                                                   [--scale-charges N] [--cache DIR] [--db postgresql://…]
                                                   [--transfer-group-share 0…1] [--payout-charges N]
                                                   [--recorded-bytes-server URL]
                        """)
                default: throw BenchError("unknown option '\(flag)' (try --help)")
                }
            }
        }

        func runs(_ measurement: String) -> Bool { only.isEmpty || only.contains(measurement) }
    }

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            if arguments.first == ChildSandbox.flag {
                try await ChildSandbox.main(Array(arguments.dropFirst()))
                return
            }
            if arguments.first == RecordedBytesServer.flag {
                try await RecordedBytesServer.main(Array(arguments.dropFirst()))
                return
            }
            try await run(Options(arguments))
        } catch {
            FileHandle.standardError.write(Data("connect-recon-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("[bench] \(message)\n".utf8))
    }

    static func run(_ options: Options) async throws {
        let total = Stopwatch()
        let loadAtStart = Machine.loadAverage
        log("machine: \(Machine.description), \(Machine.loadAverage)")
        var sections: [(title: String, figures: [Figure])] = []
        let scratch = options.folder.appendingPathComponent("scratch", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)

        // (a) and (d): extraction at Stripe's limits, then the history's write throughput on its objects.
        if options.runs("extraction") || options.runs("storage") {
            log("extraction: \(Machine.loadAverage)")
            let extraction = try await ExtractionBenchmark(
                charges: options.extractionCharges, days: options.extractionDays, folder: scratch,
                postgreSQL: options.postgreSQL, transferGroupShare: options.transferGroupShare
            ).run(log: log)
            if options.runs("extraction") {
                sections.append(("(a) extraction against the sandbox at Stripe's limits", extraction.figures))
            }
            if options.runs("storage") {
                log("storage: writing the extracted objects into a fresh history")
                let storage = try await StorageBenchmark(
                    sourcePath: extraction.databasePath, folder: scratch, from: extraction.from, to: extraction.to,
                    postgreSQL: options.postgreSQL
                ).run()
                sections.append(("(d) the history's write throughput of extraction", storage))
            }
        }
        // (b): offline reconcile and reports of about a million destination charges.
        if options.runs("reconcile") {
            log("reconcile: \(Machine.loadAverage)")
            let figures = try await ReconcileBenchmark(
                charges: options.reconcileCharges, days: options.reconcileDays, cacheFolder: options.folder,
                postgreSQL: options.postgreSQL, rounds: options.reconcileRounds
            ).run(log: log)
            sections.append(("(b) offline reconcile + all reports", figures))
        }
        // (c): streaming one big sheet.
        if options.runs("xlsx") {
            log("xlsx: writing \(Format.count(options.xlsxRows)) rows")
            let figures = try XLSXBenchmark(
                rows: options.xlsxRows, folder: scratch.appendingPathComponent("xlsx", isDirectory: true)
            ).run()
            sections.append(("(c) XLSX streaming", figures))
        }
        // (e) and (f): the checks at scale.
        if options.runs("sandbox-scale") {
            log("sandbox-scale: starting a sandbox of \(Format.count(options.scaleCharges)) charges")
            let figures = try await SandboxScaleBenchmark(charges: options.scaleCharges).run(log: log)
            sections.append(("(e) the sandbox at scale", figures))
        }
        if options.runs("large-sheet") {
            log("large-sheet: writing \(Format.count(LargeSheetBenchmark.excelRowLimit)) ledger rows")
            let figures = try LargeSheetBenchmark(
                folder: scratch.appendingPathComponent("large-sheet", isDirectory: true)
            ).run(log: log)
            sections.append(("(f) a sheet at Excel's row limit", figures))
        }
        if options.runs("extraction-cpu") {
            log(
                "extraction-cpu: the week's extraction from a sandbox in a child process, then from its recorded bytes, "
                    + "against JSONSerialization")
            let figures = try await ExtractionCPUBenchmark(
                charges: options.extractionCharges, days: options.extractionDays,
                folder: scratch.appendingPathComponent("extraction-cpu", isDirectory: true),
                recordedBytesServer: options.recordedBytesServer
            ).run(log: log)
            sections.append(("(h) the extraction's CPU per object", figures))
        }
        // (i): an extraction of the week per range expansion (~11 min), so only when named.
        if options.only.contains("expansions") {
            log("expansions: the week of (a) at Stripe's limits, each range expansion left out in turn")
            let figures = try await ExpansionBenchmark(
                charges: options.extractionCharges, days: options.extractionDays,
                folder: scratch.appendingPathComponent("expansions", isDirectory: true)
            ).run(log: log)
            sections.append(("(i) what each expansion costs and saves", figures))
        }
        if options.runs("payout") {
            log("payout: a nightly run whose daily payout sweeps thousands of balance transactions")
            let figures = try await PayoutBenchmark(
                charges: options.payoutCharges, days: 10,
                folder: scratch.appendingPathComponent("payout", isDirectory: true)
            ).run(log: log)
            sections.append(("(g) a long payout listed in parallel", figures))
        }

        print("connect-recon-bench on \(Machine.description); \(loadAtStart) at the start")
        print("")
        print(ResultTable.render(sections))
        print("")
        print("benchmark wall time: \(Format.seconds(total.seconds)); \(Machine.loadAverage) at the end")
        let failed = sections.flatMap { section in
            section.figures.filter { $0.verdict == .failed }.map { "\(section.title): \($0.name)" }
        }
        guard failed.isEmpty else {
            throw BenchError("\(failed.count) check(s) failed: \(failed.joined(separator: "; "))")
        }
    }
}
