import Foundation
import ReconCLI

/// Captures what a command prints.
final class RecordingConsole: Console, @unchecked Sendable {
    private let lock = NSLock()
    private var output = ""
    private var error = ""

    func writeOutput(_ text: String) { lock.withLock { output += text } }
    func writeError(_ text: String) { lock.withLock { error += text } }
    var isInteractive: Bool { false }

    var standardOutput: String { lock.withLock { output } }
    var standardError: String { lock.withLock { error } }
}

/// The outcome of one in-process `connect-recon` invocation.
struct CLIResult {
    let status: Int32
    let output: String
    let error: String
}

/// Runs the command line in-process with a made-up environment and a fixed clock.
enum CLI {
    /// 2026-11-21T01:30:00Z, so the nightly range is 2026-11-20.
    static let now = Date(timeIntervalSince1970: 1_795_224_600)
    static let testKey = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"
    static let liveKey = "rk_live_51H8abcdefGHIJKLmnop"

    static func run(_ arguments: [String], environment: [String: String] = [:]) async -> CLIResult {
        let console = RecordingConsole()
        let context = CommandContext(environment: environment, console: console, now: { now })
        let status = await CommandContext.$current.withValue(context) {
            await CommandLineEntry.run(arguments)
        }
        return CLIResult(status: status, output: console.standardOutput, error: console.standardError)
    }
}

/// A temporary folder removed when the test ends.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("connect-recon-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` to `name` with `permissions` and returns the path.
    @discardableResult
    func write(_ name: String, _ text: String, permissions: Int = 0o600) throws -> String {
        let path = url.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
        return path
    }

    /// Every file below the folder, relative paths.
    func contents() -> [String] {
        (FileManager.default.subpaths(atPath: url.path) ?? []).sorted()
    }
}
