import ArgumentParser
import Foundation
import History
import ReconCore

/// `connect-recon copy-history --to URL`: the history (`--db`) copied into an empty database, so a team moving
/// its history to PostgreSQL (docs/POSTGRESQL.md) keeps its past: runs, objects with their raw JSON, findings.
struct CopyHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy-history",
        abstract: "Copy the history (--db) into an empty database, such as a PostgreSQL one.",
        discussion: """
            Copies every run, object (with Stripe's raw JSON), finding and checkpoint of the history named by --db \
            (or output.database) into the empty history named by --to, in one transaction: all of it, or nothing. \
            A target that holds anything is refused, so two histories never mix; running the command again after \
            a failure is safe. Both histories are locked while it copies. Then point output.database at the target.
            """)

    @OptionGroup var common: CommonOptions

    @Option(
        help: ArgumentHelp(
            "The empty history to copy into: postgresql://user@host:port/database (or a new SQLite file).",
            valueName: "url"))
    var to: String

    func run() async throws {
        let context = CommandContext.current
        let configuration = try ConfigurationLoader(environment: context.environment, flags: common.settingFlags)
            .load(explicitFile: common.config)
        let target: HistoryLocation
        do {
            target = try HistoryLocation(to)
        } catch {
            throw UsageProblem("--to cannot be used: " + error.message)
        }
        let source = configuration.history
        guard try HistoryStore.exists(source) else {
            throw UsageProblem(
                "There is no history database at '\(source)' to copy. Point --db (or output.database) at it.")
        }
        let wait = Duration.seconds(configuration.lockWait)
        let sourceLock = try await HistoryLock.acquire(location: source, wait: wait, holder: "copy-history")
        let targetLock = try await HistoryLock.acquire(location: target, wait: wait, holder: "copy-history")
        let started = ContinuousClock.now
        let summary = try HistoryStore.open(source).copy(into: try HistoryStore.open(target))
        withExtendedLifetime((sourceLock, targetLock)) {}
        let seconds = (ContinuousClock.now - started).inSeconds
        context.console.writeOutput(Self.report(summary, from: source, to: target, seconds: seconds))
    }

    /// What was copied, for a person.
    static func report(
        _ summary: HistoryCopySummary, from source: HistoryLocation, to target: HistoryLocation, seconds: Double
    ) -> String {
        let objects = ObjectKind.allCases.reduce(0) { $0 + summary.rows(of: $1.entry.table) }
        let counts = [
            "\(summary.rows(of: "runs")) runs", "\(objects) objects with their raw JSON",
            "\(summary.rows(of: "findings")) findings", "\(summary.rows(of: "changes")) recorded changes",
        ]
        return """
            Copied the history \(source) into \(target) in \(String(format: "%.1f", seconds)) s: \
            \(counts.joined(separator: ", ")) (\(summary.totalRows) rows in \(summary.tables.count) tables).
            To use it, set output.database (or --db) to \(target), with the password in PGPASSWORD or ~/.pgpass \
            rather than in the configuration file.

            """
    }
}
