import Foundation

/// Runs the real `connect-recon` executable, as cron would.
public enum Executable {
    /// `connect-recon` next to the test bundle (both are products of the same build), else in the package's
    /// `.build/debug`.
    public static var url: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("connect-recon")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".build/debug/connect-recon")
    }

    /// Whether the executable is there to run (`swift build` builds it; `swift test` builds it too).
    public static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: url.path) }

    /// Starts the tool with `arguments` and `environment` (added to a minimal one), optionally through
    /// `/bin/sh` with `shellPrefix` (such as `umask 027;`) run first. Output goes to files in `logs`.
    public static func start(
        _ arguments: [String], environment: [String: String], logs: TemporaryFolder, shellPrefix: String? = nil
    ) throws -> RunningProgram {
        let (executable, argv) =
            shellPrefix.map { ("/bin/sh", ["-c", "\($0) exec \"$0\" \"$@\"", url.path] + arguments) }
            ?? (url.path, arguments)
        let name = UUID().uuidString
        let outputPath = logs.path("stdout-\(name).txt")
        let errorPath = logs.path("stderr-\(name).txt")
        let child = try ChildProcess(
            executable, argv, environment: ["PATH": "/usr/bin:/bin"].merging(environment) { $1 },
            output: .file(outputPath), error: .file(errorPath))
        return RunningProgram(child: child, outputPath: outputPath, errorPath: errorPath)
    }

    /// Runs the tool to the end.
    public static func run(
        _ arguments: [String], environment: [String: String], logs: TemporaryFolder, shellPrefix: String? = nil
    ) async throws -> ProgramResult {
        try await start(arguments, environment: environment, logs: logs, shellPrefix: shellPrefix).finish()
    }
}

/// A started program whose standard output and error go to files.
public final class RunningProgram: Sendable {
    let child: ChildProcess
    let outputPath: String
    let errorPath: String

    init(child: ChildProcess, outputPath: String, errorPath: String) {
        self.child = child
        self.outputPath = outputPath
        self.errorPath = errorPath
    }

    public var pid: Int32 { child.pid }

    public var isRunning: Bool { child.isRunning }

    /// Waits for the end (on a thread of its own, not the cooperative pool) and returns status and output.
    public func finish() async -> ProgramResult {
        let child = self.child
        let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            DispatchQueue.global().async { continuation.resume(returning: child.waitForExit()) }
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        return ProgramResult(status: status, output: output, error: error)
    }
}
