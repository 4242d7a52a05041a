import ArgumentParser

/// `connect-recon history`: the past runs recorded in the history database.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List past runs: range, status, counts and totals per currency.")

    @OptionGroup var common: CommonOptions

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() async throws {
        let context = CommandContext.current
        let configuration = try ConfigurationLoader(environment: context.environment, flags: common.settingFlags)
            .load(explicitFile: common.config)
        _ = configuration
        throw NotYetAvailable(command: "history", missing: "the run history is not built yet")
    }
}
