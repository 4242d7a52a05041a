import History
import ReconCore

/// Reading an existing history without creating one.
enum HistoryInspection {
    /// The mode the database's first run recorded; `test` for a database that has none yet (it holds no objects
    /// of either mode, so its report is empty).
    static func storedMode(_ location: HistoryLocation) throws -> StripeMode {
        try HistoryStore.open(location).runs.storedMode() ?? .test
    }
}
