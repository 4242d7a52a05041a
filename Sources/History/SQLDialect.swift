/// What the history's SQL spells differently on SQLite and on PostgreSQL: the one place the store's queries
/// differ between the two (the schema's differences are in ``PostgreSQLMigrations``).
///
/// Everything else is written once in SQL both read: `?` parameters (numbered for PostgreSQL by
/// ``PostgreSQLPlaceholders``), `ON CONFLICT … DO NOTHING` / `DO UPDATE`, `RETURNING`, `IS DISTINCT FROM`, `TRUE`,
/// `CAST(? AS BIGINT)`.
enum SQLDialect: Sendable {
    case sqlite
    case postgreSQL

    /// The rows of a list of ids bound as one JSON-array parameter (``IDList/json(_:)``), as a table `alias` with
    /// one column `value`: SQLite's `json_each`, PostgreSQL's `json_array_elements_text`.
    func idList(as alias: String) -> String {
        switch self {
        case .sqlite: "json_each(?) AS \(alias)"
        case .postgreSQL: "json_array_elements_text(CAST(? AS json)) AS \(alias)(value)"
        }
    }

    /// `(SELECT value FROM …)` of the ids bound as one JSON-array parameter, for `x IN` ``idSet``.
    var idSet: String { "(SELECT j.value FROM \(idList(as: "j")))" }

    /// `column` is one of the ids bound as one JSON-array parameter, for a condition on an index's leading column
    /// (a payout's links by `payout_id`). SQLite: `IN` ``idSet``. PostgreSQL: `= ANY` of the ids made an array, which the
    /// planner takes for a short list and answers with one ordered index scan; `IN` the JSON list, which it estimates
    /// at 100 elements whatever their number, had it merge-join most of the index (a group of short payouts' links:
    /// 35 ms instead of 4.5 ms; docs/BENCHMARKS.md, "The parts' queries planned for memory").
    func isOneOf(_ column: String) -> String {
        switch self {
        case .sqlite: "\(column) IN \(idSet)"
        case .postgreSQL: "\(column) = ANY (ARRAY(SELECT json_array_elements_text(CAST(? AS json))))"
        }
    }

    /// The rows of `table` (as `t`) whose `column` is one of the ids bound as one JSON-array parameter: a `FROM` and a
    /// condition for its `WHERE`, the parameter bound first; every row is found by an index probe, and comes once
    /// however often the list names its value. SQLite: the matching rows' rowids are found in `column`'s index alone,
    /// then the rows are read in rowid order, the order they were stored in, so the pages a part reads are read one
    /// after the other rather than in the ids' order (`rowid IN` takes each once). PostgreSQL: the distinct ids
    /// joined to the table.
    func rows(of table: String, whose column: String) -> (from: String, condition: String) {
        switch self {
        case .sqlite:
            (
                "\(table) AS t",
                "t.rowid IN (SELECT b.rowid FROM \(idList(as: "j")) CROSS JOIN \(table) AS b ON b.\(column) = j.value)"
            )
        case .postgreSQL:
            (
                "(SELECT DISTINCT j.value FROM \(idList(as: "j"))) AS d JOIN \(table) AS t ON t.\(column) = d.value",
                "TRUE"
            )
        }
    }

    /// The elements of the JSON array of strings in `column` of the table `t`, as a table `j` with one column
    /// `value` (a dispute's `balance_transaction_ids`).
    func arrayElements(of column: String) -> String {
        switch self {
        case .sqlite: "json_each(t.\(column)) AS j"
        case .postgreSQL: "json_array_elements_text(CAST(t.\(column) AS json)) AS j(value)"
        }
    }

    /// What a reconcile's read of its parts sets for its own transaction, before its first query; `nil`: nothing.
    ///
    /// SQLite: a page cache of 8 MiB for each of the two readers (SQLite's default is 2 MB). SQLite sorts in memory up
    /// to its cache's size and spills the rest to a temporary file: each long payout's transactions, sorted by creation
    /// time (1.3 MB for a payout of 8,500 of them, 6 MB for one of 42,000), went through a temporary file, and the
    /// index probes of a charges' part read their pages again through `pread`. With 8 MiB the reconcile's system time
    /// at 150,000 charges went from 1.9–2.5 s to 1.7–2.1 s for about 10 MiB more at its peak; 16 and 32 MiB saved no
    /// more (docs/BENCHMARKS.md, "The close's copy, the parts' page cache, and rounds"). The setting stays with the
    /// connection, which the reconcile's process does not use again.
    ///
    /// PostgreSQL: `random_page_cost` 1.1 (its default, 4, models spinning disks; its documentation suggests about 1.1
    /// for solid-state storage and for data the server holds in memory, as it holds a history it has just been read
    /// from). With 4 the planner joined each long payout's links to the balance transactions by a sequential scan of
    /// all of them, once a payout: 1.3 s of the server's 4.7 s at 150,000 charges; with 1.1 it probes the index, 0.6 s
    /// (docs/BENCHMARKS.md, "The parts' queries planned for memory"). `SET LOCAL`: it ends with the read's transaction.
    var partsReadSettings: String? {
        switch self {
        case .sqlite: "PRAGMA cache_size = -\(Self.partsCacheKibibytes)"
        case .postgreSQL: "SET LOCAL random_page_cost = 1.1"
        }
    }

    /// The page cache of each of a reconcile's two SQLite readers, in kibibytes (``partsReadSettings``).
    static let partsCacheKibibytes = 8_192

    /// The temporary table `name` as a `DROP` names it.
    func temporaryTable(_ name: String) -> String {
        switch self {
        case .sqlite: "temp.\(name)"
        case .postgreSQL: "pg_temp.\(name)"
        }
    }

    // MARK: The catalogue, for copying a history

    /// The history's tables (not its views, not the migrations' bookkeeping), by name.
    var tablesQuery: String {
        switch self {
        case .sqlite:
            """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
              AND name <> 'grdb_migrations' ORDER BY name
            """
        case .postgreSQL:
            """
            SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'grdb_migrations'
            ORDER BY tablename
            """
        }
    }

    /// The columns of the table bound as the one parameter, in order: each one's name and declared type.
    var columnsQuery: String {
        switch self {
        case .sqlite: "SELECT name, type FROM pragma_table_info(?) ORDER BY cid"
        case .postgreSQL:
            """
            SELECT column_name, data_type FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position
            """
        }
    }

    /// Statements that make a copied history ready for new rows: PostgreSQL's `runs` identity continues after the
    /// copied ids (SQLite's `AUTOINCREMENT` follows the largest id inserted by itself).
    var afterCopy: [String] {
        switch self {
        case .sqlite: []
        case .postgreSQL:
            [
                """
                SELECT setval(pg_get_serial_sequence('runs', 'id'), COALESCE((SELECT MAX(id) FROM runs), 0) + 1, false)
                """
            ]
        }
    }
}
