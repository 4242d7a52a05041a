import ReconCore

/// What can go wrong with the history database. Messages name the file and say what to do.
public enum HistoryError: ActionableError, Equatable {
    /// The file cannot be created or opened (permissions, missing folder, disk).
    case cannotOpen(path: String, reason: String)
    /// The file is not an SQLite database, or is damaged.
    case corrupt(path: String)
    /// A newer connect-recon wrote the file; this version does not know its schema.
    case newerSchema(path: String)
    /// The database holds the other mode's objects (test vs live).
    case modeMismatch(path: String, stored: String, requested: String)
    /// Another run holds the database.
    case busy(path: String, holder: String)
    /// The run was cancelled (interrupted) while it waited for another run to let go of the database.
    case cancelled(path: String)
    /// A read or write failed (disk full, I/O error).
    case storage(path: String, reason: String)
    /// A PostgreSQL history's server could not be reached or refused the connection: `location` as
    /// ``PostgreSQLAddress/description`` shows it (no password); the wrong password, user or database is the
    /// configuration's fault (exit 2), a server down or unreachable is not (exit 1).
    case serverUnavailable(location: String, reason: String, isConfiguration: Bool)
    /// A copy's target already holds a history (`tables` have rows): copying into it would mix two histories.
    case targetNotEmpty(path: String, tables: [String])
    /// A copy's source and target are the same history.
    case sameHistory(path: String)

    public var message: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "Cannot open the history database '\(path)': \(reason). Check --db (or output.database) and that its "
                + "folder exists and is writable."
        case .corrupt(let path):
            "'\(path)' is not a connect-recon history database, or it is damaged. Move it aside (keep it for "
                + "investigation) and re-run: the ranges you need are fetched from Stripe again."
        case .newerSchema(let path):
            "The history database '\(path)' was written by a newer connect-recon. Upgrade this installation, or "
                + "use another --db."
        case .modeMismatch(let path, let stored, let requested):
            "The history database '\(path)' holds \(stored)-mode objects, but this run uses a \(requested)-mode key. "
                + "Test and live data never share a database: use another --db for \(requested) mode."
        case .busy(let path, let holder):
            "The history database '\(path)' is in use by another run (\(holder)). Wait for it to finish, or, if it "
                + "hangs, stop it; this run changed nothing."
        case .cancelled(let path):
            "The run was cancelled while it waited for another run to finish with the history database '\(path)'; "
                + "this run changed nothing."
        case .storage(let path, let reason):
            "Writing the history database '\(path)' failed: \(reason). Check free disk space and permissions; what "
                + "was committed before is intact and the next run resumes from it."
        case .serverUnavailable(let location, let reason, let isConfiguration):
            "Cannot connect to the PostgreSQL history \(location): \(reason). "
                + (isConfiguration
                    ? "Check the user, the database and the password (in the URL, PGPASSWORD or ~/.pgpass) given "
                        + "with --db (or output.database)."
                    : "Check that the server runs and accepts connections from this machine; nothing was written.")
        case .targetNotEmpty(let path, let tables):
            "The history database '\(path)' is not empty (\(tables.prefix(4).joined(separator: ", "))"
                + (tables.count > 4 ? ", …" : "") + " hold rows): a history is copied only into an empty database, so "
                + "two histories never mix. Create an empty database (CREATE DATABASE …) and copy into it; nothing "
                + "was copied."
        case .sameHistory(let path):
            "'\(path)' is both the source and the target of the copy: name the history to copy and an empty database "
                + "to copy it into."
        }
    }

    public var isBadInput: Bool {
        switch self {
        case .corrupt, .newerSchema, .modeMismatch, .targetNotEmpty, .sameHistory: true
        case .serverUnavailable(_, _, let isConfiguration): isConfiguration
        case .cannotOpen, .busy, .cancelled, .storage: false
        }
    }
}
