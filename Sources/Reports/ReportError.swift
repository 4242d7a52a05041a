import ReconCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a report could not be written. Every case leaves the previous report of the range untouched (the
/// new one is built in a temporary folder and only swapped in when complete) and says what to do.
/// None is bad input: the command line exits 1.
public enum ReportError: ActionableError, Equatable {
    /// The output folder cannot be created or written: permissions, a read-only file system.
    case outputNotWritable(path: String, reason: String)
    /// The output path exists but is a file, not a folder, or one of its parents is a file.
    case outputNotAFolder(path: String)
    /// The disk (or the user's quota) filled up while writing.
    case diskFull(path: String)
    /// Another file-system operation failed.
    case fileSystem(operation: String, path: String, reason: String)
    /// libxlsxwriter could not build the workbook.
    case workbook(path: String, operation: String, reason: String)

    public var message: String {
        let untouched = "The previous report (if any) is untouched."
        switch self {
        case .outputNotWritable(let path, let reason):
            return "Cannot write reports to '\(path)': \(reason). Make the folder writable for this user, or choose "
                + "another with --out (or output.reports_dir in the config). \(untouched)"
        case .outputNotAFolder(let path):
            return "The output path '\(path)' is a file, not a folder (or lies below a file). Remove or rename the "
                + "file, or choose another folder with --out (or output.reports_dir in the config)."
        case .diskFull(let path):
            return "The disk is full: writing '\(path)' failed. Free some space (or raise the quota) and run again. "
                + untouched
        case .fileSystem(let operation, let path, let reason):
            return "Could not \(operation) '\(path)': \(reason). Check the output folder's disk and permissions, "
                + "then run again. \(untouched)"
        case .workbook(let path, let operation, let reason):
            return "Could not write the workbook '\(path)' (\(operation): \(reason)). Check free disk space in the "
                + "output folder, then run again; if it persists, report it with this message. \(untouched)"
        }
    }

    public var isBadInput: Bool { false }

    /// Maps an `errno` to the case a person can act on.
    static func from(errno code: Int32, operation: String, path: String) -> ReportError {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT: return .diskFull(path: path)
        case EACCES, EPERM, EROFS: return .outputNotWritable(path: path, reason: reason)
        default: return .fileSystem(operation: operation, path: path, reason: reason)
        }
    }
}
