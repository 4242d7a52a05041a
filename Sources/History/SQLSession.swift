import GRDB

/// One history connection inside one transaction, whichever database holds the history: the store's queries run
/// through it, written once with `?` parameters, in SQL both databases read or as ``dialect`` spells it.
struct SQLSession {
    private enum Connection {
        case sqlite(Database)
        case postgreSQL(PostgreSQLConnection)
    }

    private let connection: Connection
    /// How this database spells what the two do not share.
    let dialect: SQLDialect
    /// Where the rows' texts are interned (``interning()``); `nil`: each text is a string of its own.
    private(set) var interner: TextInterner?

    init(sqlite db: Database) {
        connection = .sqlite(db)
        dialect = .sqlite
    }

    init(postgreSQL connection: PostgreSQLConnection) {
        self.connection = .postgreSQL(connection)
        dialect = .postgreSQL
    }

    /// Runs `sql` with `arguments` bound in order and returns the number of rows it changed. Without arguments and
    /// not `prepared`, `sql` may hold several statements. A `prepared` statement is parsed once per connection.
    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue] = [], prepared: Bool = false) throws -> Int {
        switch connection {
        case .sqlite(let db):
            if prepared {
                try db.cachedStatement(sql: sql).execute(arguments: Self.sqliteArguments(arguments))
            } else {
                try db.execute(sql: sql, arguments: Self.sqliteArguments(arguments))
            }
            return db.changesCount
        case .postgreSQL(let connection):
            return try connection.execute(sql, arguments, prepared: prepared).changedRows
        }
    }

    /// `sql` prepared once on the SQLite history's connection, to run many times through SQLite's C API (the
    /// upserts' loop, ``SQLitePreparedStatement``). Only the SQLite history asks for one.
    func sqliteStatement(_ sql: String) throws -> SQLitePreparedStatement {
        guard case .sqlite(let db) = connection else {
            preconditionFailure("a SQLite statement was asked of the PostgreSQL history")
        }
        return SQLitePreparedStatement(try db.cachedStatement(sql: sql), connection: db.sqliteConnection)
    }

    /// This session, its rows' texts interned from now on by an interner of its own (``TextInterner``): for a
    /// reader of many rows naming the same ids, on one thread.
    func interning() -> SQLSession {
        var session = self
        session.interner = TextInterner()
        return session
    }

    /// Runs the query `sql` and calls `body` with each row, in the query's order.
    func forEachRow(_ sql: String, _ arguments: [SQLValue] = [], _ body: (SQLRow) throws -> Void) throws {
        switch connection {
        case .sqlite(let db):
            let statement = try db.makeStatement(sql: sql)
            let cursor = try Row.fetchCursor(statement, arguments: Self.sqliteArguments(arguments))
            let row = SQLRow(sqliteStatement: statement.sqliteStatement, interner: interner)
            while try cursor.next() != nil { try body(row) }
        case .postgreSQL(let connection):
            // Row by row (libpq's single-row mode), as SQLite's cursor: memory bounded by what `body` keeps.
            try connection.forEachRow(sql, arguments) { try body(SQLRow(postgreSQL: $0, row: 0, interner: interner)) }
        }
    }

    /// Runs the statement `sql` once per element of `rows` (its arguments), in order, and calls `body` with each
    /// one's index and first row (`nil` when it returned none). SQLite runs one prepared statement after the other;
    /// PostgreSQL sends them all before reading the answers (``PostgreSQLConnection/pipelined(_:_:_:)``).
    func executeEach(_ sql: String, _ rows: [[SQLValue]], _ body: (Int, SQLRow?) throws -> Void) throws {
        switch connection {
        case .sqlite(let db):
            let statement = try db.cachedStatement(sql: sql)
            for (index, arguments) in rows.enumerated() {
                let row = try Row.fetchOne(statement, arguments: Self.sqliteArguments(arguments))
                try body(index, row.map { SQLRow(sqlite: $0) })
            }
        case .postgreSQL(let connection):
            try connection.pipelined(sql, rows) { index, result in
                try body(index, result.count > 0 ? SQLRow(postgreSQL: result, row: 0) : nil)
            }
        }
    }

    /// Every row of `sql`, each made into a `T` by `transform`.
    func all<T>(_ sql: String, _ arguments: [SQLValue] = [], _ transform: (SQLRow) throws -> T) throws -> [T] {
        var values: [T] = []
        try forEachRow(sql, arguments) { values.append(try transform($0)) }
        return values
    }

    /// The first column of every row of `sql`.
    func values<T: SQLColumnValue>(_ type: T.Type, _ sql: String, _ arguments: [SQLValue] = []) throws -> [T] {
        try all(sql, arguments) { try T(row: $0, at: 0) }
    }

    /// The first column of the first row of `sql`; `nil` when there is no row (or its value is NULL).
    func value<T: SQLColumnValue>(_ type: T.Type, _ sql: String, _ arguments: [SQLValue] = []) throws -> T? {
        var value: T?
        var first = true
        try forEachRow(sql, arguments) { row in
            guard first else { return }
            first = false
            value = try T?(row: row, at: 0)
        }
        return value
    }

    private static func sqliteArguments(_ arguments: [SQLValue]) -> StatementArguments {
        arguments.isEmpty ? StatementArguments() : StatementArguments(arguments.map(\.databaseValue))
    }
}
