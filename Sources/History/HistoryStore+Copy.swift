import ReconCore

/// Moving a history: every row of every table into an empty history, of either database (docs/POSTGRESQL.md's "copied
/// into PostgreSQL once, runs, objects and findings intact").
extension HistoryStore {
    /// Copies this history, as one snapshot, into `target`, in one transaction there: all of it or, when anything
    /// fails, nothing (so the copy can simply be run again). Refuses a target that holds anything, rather than
    /// mixing two histories. Both must be at this version's schema (opening them migrated them).
    ///
    /// The caller holds both histories' locks, so no run writes either meanwhile.
    ///
    /// Then the target's new rows are settled (``HistoryDatabase/settleBulkLoad()``): on PostgreSQL, without it, the
    /// first reconciles read a freshly copied history half as fast (docs/BENCHMARKS.md), until autovacuum has been by.
    public func copy(into target: HistoryStore) throws(HistoryError) -> HistoryCopySummary {
        guard target.location != location else { throw .sameHistory(path: path) }
        let summary = try copyRows(into: target)
        do {
            try target.access.database.settleBulkLoad()
        } catch {
            throw target.access.database.historyError(error)
        }
        return summary
    }

    private func copyRows(into target: HistoryStore) throws(HistoryError) -> HistoryCopySummary {
        let (sourcePath, targetPath) = (path, target.path)
        return try read { source in
            try target.write { destination in
                let tables = try destination.values(String.self, destination.dialect.tablesQuery)
                var held: [String] = []
                for table in tables
                where try destination.value(Bool.self, "SELECT EXISTS (SELECT 1 FROM \(table))") == true {
                    held.append(table)
                }
                guard held.isEmpty else { throw HistoryError.targetNotEmpty(path: targetPath, tables: held) }
                let sourceTables = try source.values(String.self, source.dialect.tablesQuery)
                guard Set(sourceTables) == Set(tables) else {
                    throw HistoryError.storage(
                        path: sourcePath, reason: "its tables are not those of \(targetPath): the two schemas differ")
                }
                // Runs first: the other tables refer to them.
                var summary = HistoryCopySummary(tables: [])
                for table in ["runs"] + tables.filter({ $0 != "runs" }) {
                    let rows = try Self.copyTable(table, from: source, to: destination, shown: targetPath)
                    summary.tables.append(CopiedTable(name: table, rows: rows))
                }
                for statement in destination.dialect.afterCopy { try destination.execute(statement) }
                return summary
            }
        }
    }

    /// Copies every row of `table`, in batches of many rows per statement; returns how many, checked against a
    /// count of the target's rows.
    private static func copyTable(
        _ table: String, from source: SQLSession, to destination: SQLSession, shown targetPath: String
    ) throws -> Int {
        let columns = try destination.all(destination.dialect.columnsQuery, [.text(table)]) { row in
            (
                name: try row.decode(String.self, atIndex: 0),
                kind: SQLColumnKind(declaredType: try row.decode(atIndex: 1))
            )
        }
        let sourceColumns = try source.values(String.self, source.dialect.columnsQuery, [.text(table)])
        guard Set(sourceColumns) == Set(columns.map(\.name)) else {
            throw HistoryError.storage(
                path: targetPath, reason: "table \(table) has other columns in the two histories")
        }
        let names = columns.map(\.name).joined(separator: ", ")
        let rowMarks = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let batchRows = max(1, min(500, 30_000 / max(columns.count, 1)))
        func insert(_ values: [SQLValue], rows: Int) throws {
            let marks = Array(repeating: rowMarks, count: rows).joined(separator: ", ")
            try destination.execute(
                "INSERT INTO \(table) (\(names)) VALUES \(marks)", values, prepared: rows == batchRows)
        }
        var batch: [SQLValue] = []
        batch.reserveCapacity(batchRows * columns.count)
        var copied = 0
        try source.forEachRow("SELECT \(names) FROM \(table)") { row in
            for (index, column) in columns.enumerated() { batch.append(try column.kind.value(row, index)) }
            copied += 1
            if batch.count == batchRows * columns.count {
                try insert(batch, rows: batchRows)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try insert(batch, rows: batch.count / columns.count) }
        let counted = try destination.value(Int.self, "SELECT COUNT(*) FROM \(table)") ?? 0
        guard counted == copied else {
            throw HistoryError.storage(path: targetPath, reason: "\(table): \(copied) rows read but \(counted) written")
        }
        return copied
    }
}
