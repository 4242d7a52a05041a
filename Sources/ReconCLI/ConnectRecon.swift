import ArgumentParser

/// The root command: `connect-recon <subcommand>`.
public struct ConnectRecon: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "connect-recon",
        abstract: "Reconcile a Stripe Connect platform's money: platform fees, skipped transfers, unreversed disputes.",
        discussion: """
            connect-recon pages the platform's charges, application fees, transfers, balance transactions, \
            disputes and refunds for a date range, keeps them in a SQLite history, computes the Destination \
            Platform Fee of every destination charge, flags skipped transfers and unreversed disputes, and \
            writes CSV files and one XLSX workbook per range.

            The API key comes from STRIPE_API_KEY or a key file named in the configuration, never from the \
            command line. Exit status: 0 completed (findings are not failures), 1 failed (API, network, disk), \
            2 bad usage or configuration, 3 completed with new findings under --fail-on-findings.
            """,
        version: VersionInfo.text,
        subcommands: [
            RunCommand.self, ExtractCommand.self, ReconcileCommand.self, HistoryCommand.self, CopyHistoryCommand.self,
            DemoCommand.self,
            SandboxCommand.self,
        ]
    )

    public init() {}
}
