import GRDB

/// Facts about the SQLite the history database runs on (the system's, through GRDB).
public enum HistoryLibrary {
    /// SQLite's version, for example `3.40.1`.
    public static var sqliteVersion: String {
        let number = Int(Database.sqliteLibVersionNumber)  // 3040001 for 3.40.1
        return "\(number / 1_000_000).\(number / 1_000 % 1_000).\(number % 1_000)"
    }
}
