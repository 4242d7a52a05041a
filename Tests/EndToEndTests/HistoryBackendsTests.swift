import ConnectReconTestSupport
import Foundation
import ReconCore
import Sandbox
import TestSupport
import Testing

@testable import History

/// docs/POSTGRESQL.md: the same reports byte for byte, whichever database holds the history.
@Suite(
    "One world, two histories", .serialized,
    .postgreSQLServer)
struct HistoryBackendsTests {
    static let from = "2026-11-03"
    static let to = "2026-11-10"

    /// Each entry of the workbook at `path` with the SHA-256 of its bytes, less the Run sheet (the run's own
    /// timings) and the file properties (the time it was written).
    static func workbookEntries(_ path: String) throws -> [String: String] {
        let script = """
            import hashlib, re, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            book = z.read('xl/workbook.xml').decode()
            names = re.findall(r'<sheet name="([^"]+)" sheetId="(\\d+)"', book)
            run = [i for (n, i) in names if n == 'Run']
            for name in z.namelist():
                if name == 'docProps/core.xml' or (run and name == 'xl/worksheets/sheet%s.xml' % run[0]):
                    continue
                print(name, hashlib.sha256(z.read(name)).hexdigest())
            """
        let output = try ExternalProgram.output(of: URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, path])
        var entries: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { entries[String(parts[0])] = String(parts[1]) }
        }
        return entries
    }

    @Test("a range run into SQLite and into PostgreSQL writes byte-identical CSV files and workbook sheets")
    func reportsAreByteIdentical() async throws {
        // Given one world, with history before and after the range (refunds and disputes of older charges in it,
        // its own charges refunded and disputed after it), and the platform's other money (Stripe's costs)
        var options = SandboxOptions()
        options.otherMoney = true
        let sandbox = try await SandboxCommandLine.start(charges: 600, days: 19, options)
        let (folder, config) = (sandbox.folder, sandbox.config)

        // When the same range is run into each history, twice (the second run marks findings open)
        var reports: [TestHistoryBackend: URL] = [:]
        var databases: [TestHistoryBackend: String] = [:]
        for backend in TestHistoryBackend.allCases {
            let database = try backend.newHistory(in: folder)
            databases[backend] = database
            let out = folder.url.appendingPathComponent("reports-\(backend)")
            let arguments = sandbox.arguments(
                ["run"], from: Self.from, to: Self.to, out: "reports-\(backend)", database: database)
            let password = URLComponents(string: database)?.password
            for _ in 0..<2 {
                let result = await sandbox.run(arguments + ["--log-level", "debug"])
                #expect(result.status == 0, "\(backend): \(result.error)")
                if let password {
                    #expect(!result.output.contains(password) && !result.error.contains(password), "never logged")
                }
            }
            reports[backend] = out.appendingPathComponent("\(Self.from)_\(Self.to)")
            if let password {
                // Nor written: not in a report file, not in the run records.
                for (name, data) in try TemporaryFolder.snapshot(try #require(reports[backend])) {
                    #expect(data.range(of: Data(password.utf8)) == nil, "\(name) holds no password")
                }
                let records = try TestHistoryBackend.query(database, "SELECT * FROM runs")
                #expect(!records.isEmpty && !records.contains(password), "the run records hold no password")
                let listed = await CLI.run(["history", "--config", config, "--db", database, "--json"])
                #expect(listed.status == 0 && !listed.output.contains(password) && !listed.error.contains(password))
            }
        }
        try await sandbox.server.shutdown()

        // Then every CSV file is the same, byte for byte, and so is every sheet of the workbook but Run
        let sqlite = try #require(reports[.sqlite])
        let postgreSQL = try #require(reports[.postgreSQL])
        let names = try FileManager.default.contentsOfDirectory(atPath: sqlite.path).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: postgreSQL.path).sorted() == names)
        #expect(names.filter { $0.hasSuffix(".csv") }.count == 12)
        for name in names where name.hasSuffix(".csv") {
            let expected = try Data(contentsOf: sqlite.appendingPathComponent(name))
            #expect(try Data(contentsOf: postgreSQL.appendingPathComponent(name)) == expected, "\(name)")
            #expect(expected.count > 100, "\(name) holds rows")
        }
        let workbook = "reconciliation_\(Self.from)_\(Self.to).xlsx"
        let sqliteSheets = try Self.workbookEntries(sqlite.appendingPathComponent(workbook).path)
        #expect(sqliteSheets.keys.filter { $0.hasPrefix("xl/worksheets/sheet") }.count >= 9)
        try Self.expectViewsMatch(
            try #require(databases[.sqlite]), try #require(databases[.postgreSQL]), report: sqlite)
        let postgreSQLSheets = try Self.workbookEntries(postgreSQL.appendingPathComponent(workbook).path)
        for (entry, digest) in sqliteSheets where postgreSQLSheets[entry] != digest {
            Issue.record("\(workbook): \(entry) differs")
        }
        #expect(Set(postgreSQLSheets.keys) == Set(sqliteSheets.keys))
    }

    @Test("a SQLite history copied into PostgreSQL reconciles to the same reports; a second copy is refused")
    func copiedHistoryReconcilesTheSame() async throws {
        // Given a SQLite history of two runs of a range in a longer world
        let sandbox = try await SandboxCommandLine.start(charges: 400, days: 19)
        let (folder, config) = (sandbox.folder, sandbox.config)
        let sqlite = folder.path("history.sqlite")
        let range = ["--from", Self.from, "--to", Self.to]
        for _ in 0..<2 {
            let run = await sandbox.run(
                sandbox.arguments(["run"], from: Self.from, to: Self.to, out: "run", database: sqlite))
            #expect(run.status == 0, "\(run.error)")
        }
        try await sandbox.server.shutdown()

        // When it is copied into an empty PostgreSQL database
        let postgreSQL = try TestHistoryBackend.newDatabase()
        let copy = await CLI.run(["copy-history", "--config", config, "--db", sqlite, "--to", postgreSQL])
        #expect(copy.status == 0, "\(copy.error)")
        let password = try #require(URLComponents(string: postgreSQL)?.password)
        #expect(copy.output.contains("Copied the history \(sqlite) into postgresql://postgres:***@127.0.0.1:"))
        #expect(copy.output.contains("2 runs, ") && !copy.output.contains(password) && !copy.error.contains(password))

        // Then it holds the same runs, objects (raw JSON byte for byte) and findings
        let source = try HistoryStore.open(try HistoryLocation(sqlite))
        let target = try HistoryStore.open(try HistoryLocation(postgreSQL))
        #expect(try target.runs.list() == source.runs.list())
        for run in try source.runs.list() {
            let (daily, copied) = (
                try source.runs.dailyPlatformFees(run: run.id), try target.runs.dailyPlatformFees(run: run.id)
            )
            #expect(!daily.isEmpty && copied == daily, "run \(run.id)'s daily platform fees")
        }
        for kind in ObjectKind.allCases {
            #expect(try target.objects.rawObjects(of: kind) == source.objects.rawObjects(of: kind), "\(kind)")
        }
        #expect(try target.objects.count(of: .charge) > 100)
        // and its rows were settled for reading: every page of its charges visible to all (VACUUM), its statistics
        // taken (ANALYZE), before the first reconcile reads it
        let settled = try await target.access.database.read { db in
            try db.value(
                Bool.self, "SELECT relallvisible > 0 AND reltuples > 0 FROM pg_class WHERE relname = 'charges'")
        }
        #expect(settled == true)

        // And a second copy into it is refused, changing nothing
        let again = await CLI.run(["copy-history", "--config", config, "--db", sqlite, "--to", postgreSQL])
        #expect(again.status == 2)
        #expect(again.error.contains("is not empty") && again.error.contains("nothing was copied"), "\(again.error)")
        #expect(try target.runs.list().count == 2)

        // And reconciling the range from either writes the same reports, byte for byte, as run 3 of each
        var reports: [String: URL] = [:]
        for (name, database) in [("sqlite", sqlite), ("postgresql", postgreSQL)] {
            let out = folder.url.appendingPathComponent("reconciled-\(name)")
            let result = await CLI.run(["reconcile", "--config", config, "--db", database, "--out", out.path] + range)
            #expect(result.status == 0, "\(name): \(result.error)")
            reports[name] = out.appendingPathComponent("\(Self.from)_\(Self.to)")
        }
        let fromSQLite = try #require(reports["sqlite"])
        let fromPostgreSQL = try #require(reports["postgresql"])
        for name in try FileManager.default.contentsOfDirectory(atPath: fromSQLite.path) where name.hasSuffix(".csv") {
            #expect(
                try Data(contentsOf: fromPostgreSQL.appendingPathComponent(name))
                    == Data(contentsOf: fromSQLite.appendingPathComponent(name)), "\(name)")
        }
        #expect(try target.runs.list().map(\.id) == source.runs.list().map(\.id), "new runs continue the copied ids")
    }

    /// What people query (README, "Queries") says what the reports say, on both histories: the latest run's
    /// `daily_platform_fees` are the report's daily series (cross-currency fees included, as the report converts
    /// them) adding up to the Summary's DPF, the findings are the findings files' rows, and the ledger adds up to
    /// `ledger.csv`'s transactions.
    static func expectViewsMatch(_ sqlite: String, _ postgreSQL: String, report: URL) throws {
        let fees = try ReportPlatformFees(report: report)
        #expect(fees.crossCurrencyCharges > 0 && fees.crossCurrencyFee != 0, "the world has cross-currency fees")
        let days = (3...9).map { "2026-11-0\($0)" }  // the range's days, UTC
        var views: [String] = []
        for database in [sqlite, postgreSQL] {
            let rows = try TestHistoryBackend.query(
                database,
                """
                SELECT day, currency, destination_charges, destination_platform_fee FROM daily_platform_fees
                WHERE run_id = (SELECT MAX(id) FROM runs WHERE status = 'completed') ORDER BY currency, day
                """)
            fees.expectMatches(rows, days: days, database.contains("://") ? "postgresql" : "sqlite")
            views.append(rows)
            let open = try TestHistoryBackend.query(
                database, "SELECT COUNT(*) FROM findings_status WHERE status = 'open' AND reported_run IS NOT NULL")
            #expect(Int(open) ?? 0 > 0, "the findings were reported")
            let ledger = try TestHistoryBackend.query(
                database,
                "SELECT SUM(transactions) FROM ledger_daily WHERE day >= '2026-11-03' AND day < '2026-11-10'")
            let ledgerCSV = try String(contentsOf: report.appendingPathComponent("ledger.csv"), encoding: .utf8)
            let counted = ledgerCSV.split(separator: "\n").dropFirst().compactMap {
                Int($0.split(separator: ",", omittingEmptySubsequences: false)[3])
            }
            #expect(Int(ledger) == counted.reduce(0, +), "the ledger view counts the ledger's transactions")
            #expect(counted.reduce(0, +) > 0)
        }
        #expect(views[0] == views[1], "both histories say the same")
    }
}
