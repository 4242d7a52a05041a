import Foundation

/// What a command reads from its surroundings: the environment, the console and the clock.
///
/// Commands read ``current`` instead of `ProcessInfo`, `print` and `Date()`, so tests run them in-process
/// with a made-up environment, capture what they print and fix the time.
public struct CommandContext: Sendable {
    public var environment: [String: String]
    public var console: any Console
    public var now: @Sendable () -> Date

    public init(environment: [String: String], console: any Console, now: @escaping @Sendable () -> Date) {
        self.environment = environment
        self.console = console
        self.now = now
    }

    /// The real process: its environment, standard output and error, the system clock.
    public static let process = CommandContext(
        environment: ProcessInfo.processInfo.environment, console: StandardConsole(), now: { Date() })

    /// The context commands run in.
    @TaskLocal public static var current: CommandContext = .process
}

/// Where a command writes: standard output for results, standard error for logs and errors.
public protocol Console: Sendable {
    func writeOutput(_ text: String)
    func writeError(_ text: String)
    /// `true` when standard error is a terminal (live progress) rather than a file or cron's mail.
    var isInteractive: Bool { get }
}

/// The process's standard output and error.
public struct StandardConsole: Console {
    public init() {}

    public func writeOutput(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
    public func writeError(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
    public var isInteractive: Bool { isatty(STDERR_FILENO) == 1 }
}
