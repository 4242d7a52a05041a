/// What ``HistoryStore/copy(into:)`` copied: each table with its rows, in the order copied.
public struct HistoryCopySummary: Sendable, Equatable {
    public var tables: [CopiedTable]

    /// The rows of `table` (0 when it was not copied).
    public func rows(of table: String) -> Int { tables.first { $0.name == table }?.rows ?? 0 }

    /// Every row copied.
    public var totalRows: Int { tables.reduce(0) { $0 + $1.rows } }
}

/// One table of a copied history.
public struct CopiedTable: Sendable, Equatable {
    public var name: String
    public var rows: Int
}
