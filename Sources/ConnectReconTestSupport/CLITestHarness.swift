import Foundation
import ReconCLI

/// Test support shared by the test targets that run the command line in-process (`ReconCLITests`,
/// `ReliabilityTests`): a console that records, a runner with a made-up environment and a fixed clock, and a
/// temporary folder. Not part of the product.

/// Captures what a command prints.
public final class RecordingConsole: Console, @unchecked Sendable {
    private let lock = NSLock()
    private var output = ""
    private var error = ""

    public init() {}

    public func writeOutput(_ text: String) { lock.withLock { output += text } }
    public func writeError(_ text: String) { lock.withLock { error += text } }
    public var isInteractive: Bool { false }

    public var standardOutput: String { lock.withLock { output } }
    public var standardError: String { lock.withLock { error } }
}

/// The outcome of one in-process `connect-recon` invocation.
public struct CLIResult: Sendable {
    public let status: Int32
    public let output: String
    public let error: String

    public init(status: Int32, output: String, error: String) {
        self.status = status
        self.output = output
        self.error = error
    }
}

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

/// A temporary folder removed when the test ends.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("connect-recon-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` with `permissions` and returns the path.
    @discardableResult
    public func write(_ name: String, _ text: String, permissions: Int = 0o600) throws -> String {
        let path = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
        return path
    }

    /// Every file below the folder, relative paths, sorted.
    public func contents() -> [String] {
        (FileManager.default.subpaths(atPath: url.path) ?? []).sorted()
    }
}
