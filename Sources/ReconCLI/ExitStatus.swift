/// The process exit statuses (README.md).
public enum ExitStatus: Int32, Sendable {
    /// The run completed; findings are not failures.
    case completed = 0
    /// The run failed: API, network, disk.
    case failed = 1
    /// Bad usage or configuration, found before anything was fetched or written.
    case badInput = 2
    /// The run completed with new findings and --fail-on-findings was given.
    case newFindings = 3
}

/// Thrown by a command that completed but must exit with a status other than 0 (for --fail-on-findings).
struct CompletedWithStatus: Error {
    let status: ExitStatus
}
