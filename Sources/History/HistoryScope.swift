import Foundation
import ReconCore

/// The one definition of a range's scope (docs/EXTRACTION.md), shared by the follow-ups that complete it and by the
/// reconciliation that reads it, so the two can never disagree about which objects a range covers.
enum HistoryScope {
    /// The `SELECT` of the range's scope charges: the range's charges, and the charges the range's objects belong
    /// to by an edge to a charge (``ObjectGraph/rootChildren``: its refunds', disputes', transfers' funding charge,
    /// application fees' originating charge), each id that names a charge.
    static func charges(from: Int64, to: Int64) -> String {
        let inRange = "created >= \(from) AND created < \(to)"
        var selects = ["SELECT id FROM \(ObjectGraph.root.entry.table) WHERE \(inRange)"]
        for (kind, edge) in ObjectGraph.rootChildren {
            let prefix =
                edge.parentIDPrefix.map { " AND \(edge.column) LIKE '\(likePattern(prefix: $0))' ESCAPE '\\'" } ?? ""
            selects.append(
                "SELECT \(edge.column) FROM \(kind.entry.table) WHERE \(inRange) AND \(edge.column) IS NOT NULL\(prefix)"
            )
        }
        return selects.joined(separator: "\nUNION ")
    }

    /// A `LIKE` pattern matching the text starting with `prefix`, its `_` and `%` escaped with `\`.
    private static func likePattern(prefix: String) -> String {
        prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "_", with: "\\_")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "'", with: "''") + "%"
    }

    /// The balance transactions that the objects of each kind in `owners` name, as the catalogue says which columns
    /// name one (a charge's `balance_transaction_id`, a failed refund's `failure_balance_transaction_id`, a
    /// dispute's `balance_transaction_ids`): one `SELECT` per column, each owner's condition on its table as `t`,
    /// joined by `UNION ALL`. Each row is the balance transaction's id and the owner's `created`.
    static func balanceTransactionsNamed(
        by owners: [(kind: ObjectKind, condition: String)], dialect: SQLDialect
    ) -> String {
        var selects: [String] = []
        for (kind, condition) in owners {
            let entry = kind.entry
            for column in entry.balanceTransactionColumns {
                selects.append(
                    """
                    SELECT t.\(column), t.created FROM \(entry.table) AS t
                    WHERE t.\(column) IS NOT NULL AND (\(condition))
                    """)
            }
            for array in entry.arrays where array.kind == .balanceTransaction {
                guard let column = array.column else { continue }
                selects.append(
                    """
                    SELECT j.value, t.created FROM \(entry.table) AS t, \(dialect.arrayElements(of: column))
                    WHERE (\(condition))
                    """)
            }
        }
        return selects.joined(separator: "\nUNION ALL ")
    }
}
