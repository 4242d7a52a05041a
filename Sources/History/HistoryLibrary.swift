import CPostgreSQL
import GRDB

/// Facts about the libraries the history runs on: the system's SQLite (through GRDB) and libpq.
public enum HistoryLibrary {
    /// SQLite's version, for example `3.40.1`.
    public static var sqliteVersion: String {
        let number = Int(Database.sqliteLibVersionNumber)  // 3040001 for 3.40.1
        return "\(number / 1_000_000).\(number / 1_000 % 1_000).\(number % 1_000)"
    }

    /// libpq's version, for example `15.20`.
    public static var libpqVersion: String {
        let number = Int(PQlibVersion())  // 150020 for 15.20
        return "\(number / 10_000).\(number % 10_000)"
    }
}
