import History

/// Reading an existing history without creating one.
enum HistoryInspection {
    /// The mode the database's first run recorded; `test` for a database that has none yet.
    static func storedMode(_ path: String) throws -> String {
        try HistoryStore.open(path: path).storedMode() ?? "test"
    }
}
