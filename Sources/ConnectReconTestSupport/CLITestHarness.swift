import Foundation
import ReconCLI
import Synchronization
// Re-exported: a test that runs the command line also uses temporary folders, the built executable and
// `CLIResult`'s members, which `TestSupport` declares.
@_exported import TestSupport

/// Test support shared by the test targets that run the command line in-process (`ReconCLITests`,
/// `ReliabilityTests`): a console that records and a runner with a made-up environment and a fixed clock.
/// Not part of the product. What needs no command line (temporary folders, the built executable, stub
/// servers) is in `TestSupport`.

/// Captures what a command prints.
public final class RecordingConsole: Console, Sendable {
    /// What was written to standard output and standard error.
    private let written = Mutex((output: "", error: ""))

    public init() {}

    public func writeOutput(_ text: String) { written.withLock { $0.output += text } }
    public func writeError(_ text: String) { written.withLock { $0.error += text } }
    public var isInteractive: Bool { false }

    public var standardOutput: String { written.withLock { $0.output } }
    public var standardError: String { written.withLock { $0.error } }
}

/// The outcome of one in-process `connect-recon` invocation: its exit status and what it printed, as for the
/// real executable.
public typealias CLIResult = ProgramResult

/// Runs the command line in-process with a made-up environment and a fixed clock.
public enum CLI {
    /// 2026-11-21T01:30:00Z, so the nightly range is 2026-11-20.
    public static let now = Date(timeIntervalSince1970: 1_795_224_600)
    public static let testKey = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"
    public static let liveKey = "rk_live_51H8abcdefGHIJKLmnop"

    public static func run(_ arguments: [String], environment: [String: String] = [:]) async -> CLIResult {
        let console = RecordingConsole()
        let context = CommandContext(environment: environment, console: console, now: { now })
        let status = await CommandContext.$current.withValue(context) {
            await CommandLineEntry.run(arguments)
        }
        return CLIResult(status: status, output: console.standardOutput, error: console.standardError)
    }
}
