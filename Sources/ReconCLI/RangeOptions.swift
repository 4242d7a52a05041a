import ArgumentParser

/// The options every range command shares: which dates, which configuration, where to write.
public struct RangeOptions: ParsableArguments, Sendable {
    @Option(
        help: ArgumentHelp(
            "First day (or instant) of the range, inclusive.",
            discussion: "YYYY-MM-DD means midnight in the configured time zone (range.time_zone, default UTC); "
                + "an RFC 3339 timestamp such as 2026-11-20T13:45:07Z means that instant.",
            valueName: "date"))
    var from: String?

    @Option(
        help: ArgumentHelp(
            "End of the range, exclusive: --from 2026-11-20 --to 2026-11-21 is the whole of 20 November.",
            discussion: "Without --from and --to the range is the previous whole day in the configured time zone.",
            valueName: "date"))
    var to: String?

    @OptionGroup var common: CommonOptions

    @Option(help: ArgumentHelp("Folder for the reports (default Reports).", valueName: "dir"))
    var out: String?

    @Option(
        name: .customLong("api-base"),
        help: ArgumentHelp(
            "Stripe's API base URL, or a Stripe-compatible server such as the sandbox (default https://api.stripe.com; "
                + "also STRIPE_API_BASE).", valueName: "url"))
    var apiBase: String?

    public init() {}

    /// The flags as configuration layers (they win over environment and file).
    var settingFlags: [String: RawSetting] {
        var flags = common.settingFlags
        if let out { flags["output.reports_dir"] = RawSetting(value: .text(out), source: .flag("--out")) }
        if let apiBase { flags["api.base_url"] = RawSetting(value: .text(apiBase), source: .flag("--api-base")) }
        return flags
    }
}

/// Options every command that reads a configuration shares.
public struct CommonOptions: ParsableArguments, Sendable {
    @Option(
        help: ArgumentHelp(
            "Configuration file (YAML). Default: CONNECT_RECON_CONFIG, else config/connect-recon.yaml if present.",
            valueName: "file"))
    var config: String?

    @Option(
        help: ArgumentHelp(
            "History: a SQLite file (default connect-recon.sqlite) or a postgresql:// URL.", valueName: "file-or-url"))
    var db: String?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp("trace, debug, info, notice, warning or error (default info).", valueName: "level"))
    var logLevel: String?

    public init() {}

    var settingFlags: [String: RawSetting] {
        var flags: [String: RawSetting] = [:]
        if let db { flags["output.database"] = RawSetting(value: .text(db), source: .flag("--db")) }
        if let logLevel { flags["log.level"] = RawSetting(value: .text(logLevel), source: .flag("--log-level")) }
        return flags
    }
}
