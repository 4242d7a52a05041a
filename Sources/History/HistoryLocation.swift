/// Where the history lives (docs/POSTGRESQL.md): a SQLite file, or a PostgreSQL database named by a URL.
///
/// `output.database` (`--db`) is read here once: a `postgresql://` or `postgres://` URL names a PostgreSQL
/// database; another `scheme://` is refused rather than taken for a file name; anything else is a SQLite file's
/// path. Its ``description`` is what logs, errors, reports and run records may show: a URL's password never.
public enum HistoryLocation: Sendable, Equatable, CustomStringConvertible {
    case sqliteFile(path: String)
    case postgreSQL(PostgreSQLAddress)

    /// Reads `setting`; throws when it is a URL that names no history this tool can keep.
    public init(_ setting: String) throws(HistoryLocationError) {
        guard let scheme = URLText.scheme(of: setting) else {
            self = .sqliteFile(path: setting)
            return
        }
        guard PostgreSQLAddress.schemes.contains(scheme.lowercased()) else {
            throw .unsupportedScheme(shown: URLText.redacted(setting), scheme: scheme)
        }
        self = .postgreSQL(try PostgreSQLAddress(setting))
    }

    /// The setting as given (a URL with its password): for handing the location to another process of this
    /// package, never for showing.
    package var setting: String {
        switch self {
        case .sqliteFile(let path): path
        case .postgreSQL(let address): address.url
        }
    }

    /// The file's path, or the URL with its password as `***`.
    public var description: String {
        switch self {
        case .sqliteFile(let path): path
        case .postgreSQL(let address): address.description
        }
    }
}

/// What is wrong with a history location, without its password.
public enum HistoryLocationError: Error, Equatable, Sendable {
    /// A URL whose scheme is neither `postgresql` nor `postgres`.
    case unsupportedScheme(shown: String, scheme: String)
    /// A `postgresql://` URL libpq cannot read; `reason` is libpq's, with the URL and password taken out.
    case malformedURL(shown: String, reason: String)

    /// What to tell a person: the location (password hidden), what is wrong, and what to do.
    public var message: String {
        switch self {
        case .unsupportedScheme(let shown, let scheme):
            "'\(shown)' is a \(scheme):// URL, and the history lives either in a SQLite file (give its path) or in "
                + "PostgreSQL (give a postgresql://user@host:port/database URL)."
        case .malformedURL(let shown, let reason):
            "'\(shown)' is not a PostgreSQL URL libpq can read: \(reason). The form is "
                + "postgresql://user[:password]@host[:port]/database[?sslmode=…]; the password may also come from "
                + "PGPASSWORD or ~/.pgpass."
        }
    }
}
