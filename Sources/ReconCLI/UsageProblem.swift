import ReconCore

/// A usage mistake found after the options were parsed: exit status 2 with the message.
struct UsageProblem: ActionableError {
    let message: String
    init(_ message: String) { self.message = message }
    var isBadInput: Bool { true }
}
