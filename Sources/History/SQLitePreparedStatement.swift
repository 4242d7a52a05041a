import GRDB
import GRDBSQLite

/// One of GRDB's cached statements run through SQLite's C API: the values bound straight from ``SQLValue``s, the
/// statement stepped and its integer columns read, with none of GRDB's per-execution argument arrays.
///
/// For the upserts' loop only (``SQLiteUpsert``), which runs three statements per stored object — tens of thousands
/// a run — inside GRDB's write transaction; everything else goes through GRDB. Errors are GRDB's `DatabaseError`s,
/// so the history reports them as it reports any other.
struct SQLitePreparedStatement {
    private let statement: Statement
    private let connection: SQLiteConnection?

    init(_ statement: Statement, connection: SQLiteConnection?) {
        self.statement = statement
        self.connection = connection
    }

    /// SQLite copies a bound text before the call returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Binds `arguments`, runs the statement to its end and returns the number of rows it changed.
    func execute(_ arguments: [SQLValue]) throws -> Int {
        try run(arguments) { _ in }
        return Int(sqlite3_changes(connection))
    }

    /// Binds `arguments`, runs the statement and returns the first `count` integer columns of its first row (`nil`
    /// when it returned none).
    func firstRowIntegers(_ arguments: [SQLValue], count: Int) throws -> [Int64]? {
        var first: [Int64]?
        try run(arguments) { handle in
            if first == nil { first = (0..<count).map { sqlite3_column_int64(handle, Int32($0)) } }
        }
        return first
    }

    private func run(_ arguments: [SQLValue], _ row: (SQLiteStatement) -> Void) throws {
        let handle = statement.sqliteStatement
        guard arguments.count == Int(sqlite3_bind_parameter_count(handle)) else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "\(arguments.count) values for \(sqlite3_bind_parameter_count(handle)) parameters",
                sql: statement.sql)
        }
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        try bind(arguments, from: 0, to: handle) {
            while true {
                let code = sqlite3_step(handle)
                switch code {
                case SQLITE_ROW: row(handle)
                case SQLITE_DONE: return
                default: throw failure(code)
                }
            }
        }
    }

    /// Binds `arguments[first...]` and runs `body` while they are bound. A text is bound where it lies, without a
    /// copy (most of a stored object's bytes are its JSON), so `body` runs inside the scope of each text's bytes.
    private func bind(
        _ arguments: [SQLValue], from first: Int, to handle: SQLiteStatement, _ body: () throws -> Void
    ) throws {
        var index = first
        while index < arguments.count {
            let position = Int32(index + 1)
            let code: Int32
            switch arguments[index] {
            case .null: code = sqlite3_bind_null(handle, position)
            case .integer(let integer): code = sqlite3_bind_int64(handle, position, integer)
            case .real(let real): code = sqlite3_bind_double(handle, position, real)
            case .boolean(let flag): code = sqlite3_bind_int64(handle, position, flag ? 1 : 0)
            case .text(let text) where text.isEmpty: code = sqlite3_bind_text(handle, position, "", 0, Self.transient)
            case .text(var text):
                // Bound without a copy (`SQLITE_STATIC`, no destructor): the rest is bound, and the statement
                // run, while this text's bytes are in scope.
                return try text.withUTF8 { bytes in
                    let code = bytes.withMemoryRebound(to: CChar.self) {
                        sqlite3_bind_text(handle, position, $0.baseAddress, Int32($0.count), nil)
                    }
                    guard code == SQLITE_OK else { throw failure(code) }
                    try bind(arguments, from: index + 1, to: handle, body)
                }
            }
            guard code == SQLITE_OK else { throw failure(code) }
            index += 1
        }
        try body()
    }

    private func failure(_ code: Int32) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code), message: connection.map { String(cString: sqlite3_errmsg($0)) },
            sql: statement.sql)
    }
}
