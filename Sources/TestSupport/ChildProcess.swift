import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A program started with `posix_spawn`, for the tests and the benchmark that run other programs (the tool itself,
/// `sqlite3`, `python3`, the benchmark's child servers).
///
/// Not Foundation's `Process`: on Linux, its `run()` copies each `/proc/self/fd` entry's whole 256-byte name out of
/// glibc's directory buffer, reading past the buffer's end when an entry sits at the end of a page. A test process
/// holding many descriptors (sandboxes, databases, sockets) crashes there now and then, taking every running test
/// with it (swift-corelibs-foundation pull request 5472, after Swift 6.3.1). Here the child closes every descriptor
/// above standard error itself (`posix_spawn_file_actions_addclosefrom_np`), as `Process` meant to.
public final class ChildProcess: Sendable {
    /// Where a child's standard output or error goes.
    public enum Output {
        /// A file, created or emptied.
        case file(String)
        /// The write end of a pipe the caller reads.
        case descriptor(Int32)
        /// This process's own.
        case inherited
        /// Where the child's standard output goes (for its standard error: both in one file, in the order written).
        case standardOutput
    }

    /// The child's process id.
    public let pid: pid_t
    /// The wait status once reaped.
    private let reaped = Mutex<Int32?>(nil)

    /// Starts `executable` with `arguments` (`argv[0]` is the executable's path) and `environment` (`nil`: this
    /// process's). Standard input is `input`, the read end of a pipe the caller writes, or else inherited.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]?, input: Int32? = nil,
        output: Output, error: Output
    ) throws {
        var actions = posix_spawn_file_actions_t()
        try Self.check(posix_spawn_file_actions_init(&actions), "posix_spawn_file_actions_init")
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input { try Self.check(posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO), "dup2") }
        for (target, output) in [(STDOUT_FILENO, output), (STDERR_FILENO, error)] {
            switch output {
            case .file(let path):
                try Self.check(
                    posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644),
                    "open \(path)")
            case .descriptor(let descriptor):
                try Self.check(posix_spawn_file_actions_adddup2(&actions, descriptor, target), "dup2")
            case .standardOutput:
                try Self.check(posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, target), "dup2")
            case .inherited:
                break
            }
        }
        guard let closeFrom = Self.closeFrom else {
            throw ProgramFailure(
                description: "posix_spawn_file_actions_addclosefrom_np is missing: glibc 2.34 or later")
        }
        try Self.check(closeFrom(&actions, STDERR_FILENO + 1), "closefrom")

        // A clean signal state: the spawning thread may be one of the pool's, which block signals.
        var attributes = posix_spawnattr_t()
        try Self.check(posix_spawnattr_init(&attributes), "posix_spawnattr_init")
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        try Self.check(posix_spawnattr_setsigmask(&attributes, &none), "setsigmask")
        try Self.check(posix_spawnattr_setsigdefault(&attributes, &all), "setsigdefault")
        try Self.check(
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)), "setflags")

        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } }
        defer {
            for string in argv + (envp ?? []) { free(string) }
        }
        var child: pid_t = 0
        let environmentList = envp.map { $0 + [nil] }
        let status = (argv + [nil]).withUnsafeBufferPointer { arguments in
            guard let arguments = arguments.baseAddress else { return EINVAL }
            guard let environmentList else {
                return posix_spawn(&child, executable, &actions, &attributes, arguments, environ)
            }
            return environmentList.withUnsafeBufferPointer { environment in
                posix_spawn(&child, executable, &actions, &attributes, arguments, environment.baseAddress)
            }
        }
        try Self.check(status, "posix_spawn \(executable)")
        pid = child
    }

    /// Starts `executable` with the child's ends of these pipes as its standard input, output and error (no input
    /// pipe: this process's input; no error pipe: this process's error), and closes those ends here, the child
    /// holding them: the caller keeps the other ends. Closes every end when the child cannot start.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String]?, input: PipeEnds? = nil,
        output: PipeEnds, error: PipeEnds? = nil
    ) throws -> ChildProcess {
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable, arguments, environment: environment, input: input?.read,
                output: .descriptor(output.write), error: error.map { .descriptor($0.write) } ?? .inherited)
        } catch let failure {
            for pipe in [input, output, error].compactMap(\.self) { pipe.closeBoth() }
            throw failure
        }
        for end in [input?.read, output.write, error?.write].compactMap(\.self) { close(end) }
        return child
    }

    /// Whether the child has not exited yet (it is not reaped here: ``waitForExit()`` does that).
    public var isRunning: Bool {
        if reaped.withLock({ $0 }) != nil { return false }
        var info = siginfo_t()
        let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        return result == 0 && info.si_signo == 0
    }

    /// Blocks until the child exits and returns its status: the exit code, or minus the signal that ended it. For one
    /// waiter at a time: a second thread waiting at once would find the child reaped by the first.
    public func waitForExit() -> Int32 { waitForExitWithUsage().status }

    /// ``waitForExit()``, with the resources the child used (`wait4`'s, the child's own: its peak resident memory in
    /// `ru_maxrss`, in KiB). Zero usage when an earlier wait reaped the child.
    public func waitForExitWithUsage() -> (status: Int32, usage: rusage) {
        if let status = reaped.withLock({ $0 }) { return (Self.decode(status), rusage()) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        reaped.withLock { $0 = status }
        return (Self.decode(status), usage)
    }

    /// `status & 0x7f` is the signal (0 for a normal exit), the next byte the exit code (`WIFEXITED`, `WEXITSTATUS`
    /// and `WTERMSIG`, which Swift does not import).
    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : -signal
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift does not import: it is
    /// declared for `_GNU_SOURCE` only.
    private static let closeFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: CloseFrom.self)
    }
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    private static func check(_ result: Int32, _ what: String) throws {
        guard result == 0 else {
            throw ProgramFailure(description: "\(what) failed: \(String(cString: strerror(result)))")
        }
    }
}
