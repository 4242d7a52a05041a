import Foundation
import Testing

@testable import TestSupport

/// The programs the tests start (the tool itself, `sqlite3`, `python3`) run through ``ChildProcess``, not
/// Foundation's `Process`, whose `run()` crashes now and then on Linux (see ``ChildProcess``).
@Suite("Child processes the tests start")
struct ChildProcessTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    @Test("a child's exit code comes back, and minus the signal that ended it")
    func statuses() throws {
        #expect(try ExternalProgram.run(Self.shell, ["-c", "echo out; echo err >&2; exit 3"]).status == 3)
        let result = try ExternalProgram.run(Self.shell, ["-c", "echo out; echo err >&2"])
        #expect(result.status == 0 && result.output == "out\n" && result.error == "err\n")
        #expect(try ExternalProgram.run(Self.shell, ["-c", "kill -9 $$"]).status == -9)
    }

    @Test("a child's error can go into its output's file, in the order written, and its own peak memory comes back")
    func errorIntoOutputAndUsage() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("child.log")
        // A child that holds about 64 MiB for a moment (a shell variable filled from a pipe)
        let child = try ChildProcess(
            Self.shell.path,
            ["-c", "echo out; echo err >&2; echo more; big=$(head -c 67108864 /dev/zero | tr '\\0' x); echo ${#big}"],
            environment: ["PATH": "/usr/bin:/bin"], output: .file(log), error: .standardOutput)
        let (status, usage) = child.waitForExitWithUsage()
        #expect(status == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "out\nerr\nmore\n67108864\n")
        #expect(usage.ru_maxrss >= 64 * 1_024, "peak \(usage.ru_maxrss) KiB")
        #expect(child.waitForExitWithUsage().status == 0, "a second wait finds the status kept")
    }

    @Test("a child gets the environment it is given, and only that")
    func environment() throws {
        let result = try ExternalProgram.run(
            Self.shell, ["-c", "echo \"$ONLY:${HOME:-unset}\""], environment: ["ONLY": "this"])
        #expect(result.output == "this:unset\n")
    }

    @Test("a child inherits no descriptor of the tests' but its standard ones")
    func descriptors() throws {
        // Given a descriptor open in this process without close-on-exec, at a number no child opens by itself
        let folder = try TemporaryFolder()
        let opened = open(folder.path("held"), O_WRONLY | O_CREAT, 0o644)
        let held = fcntl(opened, F_DUPFD, 200)
        close(opened)
        #expect(held >= 200)
        defer { close(held) }
        // When a child lists its own open descriptors (a shell builtin loop; the listing holds one, 3, open)
        let result = try ExternalProgram.run(Self.shell, ["-c", "for f in /proc/$$/fd/*; do echo ${f##*/}; done"])
        // Then it holds standard input, output and error, and nothing of this process's
        let descriptors = Set(result.output.split(separator: "\n").compactMap { Int32($0) })
        #expect(descriptors.isSuperset(of: [0, 1, 2]) && descriptors.isSubset(of: [0, 1, 2, 3]), "\(result.output)")
    }

    @Test("a running child is running until it ends, and is not reaped by asking")
    func running() async throws {
        let folder = try TemporaryFolder()
        let child = try ChildProcess(
            "/bin/sleep", ["30"], environment: nil, output: .file(folder.path("out")), error: .file(folder.path("err")))
        #expect(child.isRunning)
        #expect(child.isRunning)
        kill(child.pid, SIGKILL)
        #expect(child.waitForExit() == -SIGKILL)
        #expect(!child.isRunning)
        #expect(child.waitForExit() == -SIGKILL)
    }
}
