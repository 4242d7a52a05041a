/// An error a person can act on: its `message` says what went wrong and what to do about it.
///
/// Every module's errors conform, so the command line can print one clear sentence and choose the exit
/// status without knowing each module's error types.
public protocol ActionableError: Error, Sendable, CustomStringConvertible {
    /// What went wrong and what to do, in words for the person running the tool. Never contains a secret.
    var message: String { get }
    /// `true` when the input (command line, configuration, key, dates) is at fault: exit status 2.
    /// `false` when the run failed for another reason (network, API, disk): exit status 1.
    var isBadInput: Bool { get }
}

extension ActionableError {
    public var description: String { message }
}
