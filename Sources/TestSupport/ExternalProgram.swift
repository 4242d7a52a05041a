import Foundation
import Synchronization

/// Runs programs installed on the machine (`sqlite3`, `python3`, `sha256sum`, `mount`) and collects what they
/// print.
public enum ExternalProgram {
    /// The executable `name` in the first folder of `PATH` (then `/usr/bin`, `/bin`) that holds one, or `nil`.
    public static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        for folder in folders where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments` to its end and returns its status and output. Both pipes are read
    /// while it runs, so a large output cannot fill one and stall the program. `environment` replaces the
    /// inherited one when given.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> ProgramResult {
        let outputPipe = try PipeEnds()
        let errorPipe: PipeEnds
        do {
            errorPipe = try PipeEnds()
        } catch let failure {
            outputPipe.closeBoth()
            throw failure
        }
        let child = try ChildProcess.start(
            executable.path, arguments, environment: environment, output: outputPipe, error: errorPipe)
        // Both pipes are drained at once, or a program that fills one while the other is read would never end.
        let errorData = Mutex<Data?>(nil)
        let errorRead = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let bytes = FileHandle(fileDescriptor: errorPipe.read, closeOnDealloc: true).readDataToEndOfFile()
            errorData.withLock { $0 = bytes }
            errorRead.signal()
        }
        let outputData = FileHandle(fileDescriptor: outputPipe.read, closeOnDealloc: true).readDataToEndOfFile()
        errorRead.wait()
        return ProgramResult(
            status: child.waitForExit(), output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData.withLock { $0 } ?? Data(), as: UTF8.self))
    }

    /// Runs `executable` like ``run(_:_:environment:)`` and returns its standard output; throws, with what it
    /// wrote to standard error, when it exits with another status than 0.
    public static func output(of executable: URL, _ arguments: [String]) throws -> String {
        let result = try run(executable, arguments)
        guard result.status == 0 else {
            throw ProgramFailure(
                description: "\(executable.path) \(arguments.joined(separator: " ")) exited with \(result.status): "
                    + result.error)
        }
        return result.output
    }
}

/// A program that ended with a non-zero status, with what it wrote to standard error.
public struct ProgramFailure: Error, CustomStringConvertible {
    public var description: String
}
