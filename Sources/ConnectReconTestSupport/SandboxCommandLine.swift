import Foundation
import Sandbox
import TestSupport

/// What a command-line test against the sandbox starts from: a served world, a temporary folder, and an empty
/// configuration in that folder.
public struct SandboxCommandLine: Sendable {
    public let server: SandboxServer
    public let folder: TemporaryFolder
    /// The path of the folder's empty `config.yaml`.
    public let config: String

    /// Serves a world of `charges` charges over `days` days, the rest of `options` as given.
    public static func start(
        charges: Int, days: Int, _ options: SandboxOptions = SandboxOptions()
    ) async throws -> SandboxCommandLine {
        var options = options
        options.charges = charges
        options.days = days
        let server = try await SandboxServer.start(options)
        let folder = try TemporaryFolder()
        return SandboxCommandLine(server: server, folder: folder, config: try folder.write("config.yaml", ""))
    }

    /// `command` (its name and flags) pointed at the configuration, `[from, to)`, the output folder `out` inside
    /// the folder and the history `database`: what `reconcile` needs, and `run` with ``run(_:)``.
    public func arguments(
        _ command: [String], from: String, to: String, out: String = "reports", database: String
    ) -> [String] {
        command + ["--config", config, "--from", from, "--to", to, "--out", folder.path(out), "--db", database]
    }

    /// Runs `arguments` in-process against the sandbox (`--api-base`), with the test key in the environment.
    public func run(_ arguments: [String]) async -> CLIResult {
        await CLI.run(
            arguments + ["--api-base", server.baseURL.absoluteString],
            environment: ["STRIPE_API_KEY": CLI.testKey])
    }
}
