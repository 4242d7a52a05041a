/// How a program (or an in-process command line) ended: its exit status and what it printed.
public struct ProgramResult: Sendable {
    /// The exit status; minus the signal's number when a signal ended it.
    public let status: Int32
    public let output: String
    public let error: String

    public init(status: Int32, output: String, error: String) {
        self.status = status
        self.output = output
        self.error = error
    }
}
