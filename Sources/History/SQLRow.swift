import CPostgreSQL
import Foundation
import GRDB
import GRDBSQLite
import ReconCore

/// One row of a query's result, read by column index, from either history: the current row of a SQLite statement
/// (read through SQLite's C API), a GRDB row, or a row of a libpq result (text format).
///
/// Valid only inside the call that hands it over: a SQLite statement's row is its current row.
struct SQLRow {
    private enum Source {
        /// The current row of a statement being stepped: its columns are read with SQLite's own functions, as GRDB
        /// reads them, without a reference to count per column (a GRDB `Row` is an object: each column read through it
        /// retained and released it, a tenth of decoding a part's rows; docs/BENCHMARKS.md, "Fewer copies").
        case statement(OpaquePointer, TextInterner?)
        case sqlite(Row)
        case postgreSQL(PostgreSQLResult, Int32, TextInterner?)
    }

    private let source: Source

    /// The current row of `statement`, its texts interned by `interner` when there is one.
    init(sqliteStatement statement: OpaquePointer, interner: TextInterner? = nil) {
        source = .statement(statement, interner)
    }
    init(sqlite row: Row) { source = .sqlite(row) }
    /// Row `row` of `result`, its texts interned by `interner` when there is one.
    init(postgreSQL result: PostgreSQLResult, row: Int32, interner: TextInterner? = nil) {
        source = .postgreSQL(result, row, interner)
    }

    /// Reads column `index` as `T` (an optional type reads NULL as `nil`).
    func decode<T: SQLColumnValue>(_ type: T.Type = T.self, atIndex index: Int) throws -> T {
        try T(row: self, at: index)
    }

    /// Whether column `index` is NULL.
    func isNull(_ index: Int) -> Bool {
        switch source {
        case .statement(let statement, _): sqlite3_column_type(statement, Int32(index)) == SQLITE_NULL
        case .sqlite(let row): row.hasNull(atIndex: index)
        case .postgreSQL(let result, let row, _): PQgetisnull(result.handle, row, Int32(index)) == 1
        }
    }

    /// Column `index` as an integer; throws ``SQLIntegerOverflow`` for a number that does not fit 64 bits (a
    /// PostgreSQL `SUM` is a `numeric`).
    func int64(_ index: Int) throws -> Int64 {
        switch source {
        case .statement(let statement, _):
            return sqlite3_column_int64(try Self.notNull(statement, index), Int32(index))
        case .sqlite(let row):
            return try row.decode(Int64.self, atIndex: index)
        case .postgreSQL(let result, let row, _):
            let text = try value(result, row, index)
            guard let value = Self.parseInt64(text) else {
                // A digit string that does not fit: a sum too large; anything else: not a number.
                if text.pointee != 0, strspn(text, "-0123456789") == strlen(text) { throw SQLIntegerOverflow() }
                throw FactsColumnError(description: "'\(String(cString: text).prefix(20))' is not an integer")
            }
            return value
        }
    }

    /// Column `index` as text, interned when the row's source has an interner.
    func text(_ index: Int) throws -> String {
        switch source {
        case .sqlite(let row): return try row.decode(String.self, atIndex: index)
        case .statement(_, let interner), .postgreSQL(_, _, let interner):
            return try withTextBytes(index) { interner?.text($0) ?? String(decoding: $0, as: UTF8.self) }
        }
    }

    /// What `body` makes of column `index`'s text as UTF-8 bytes, valid only during `body`: no string is made of them
    /// (a SQLite statement's or a libpq result's own bytes).
    func withTextBytes<Result>(
        _ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) throws -> Result {
        switch source {
        case .statement(let statement, _):
            // The text first, then its length in bytes, as SQLite's documentation orders the two calls.
            guard let text = sqlite3_column_text(try Self.notNull(statement, index), Int32(index)) else {
                throw FactsColumnError(description: "column \(index) could not be read as text (out of memory)")
            }
            return try body(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, Int32(index)))))
        case .sqlite(let row):
            var text = try row.decode(String.self, atIndex: index)
            return try text.withUTF8(body)
        case .postgreSQL(let result, let row, _):
            let text = try value(result, row, index)
            let count = strlen(text)
            // The bytes and their NUL, as libpq holds them.
            return try text.withMemoryRebound(to: UInt8.self, capacity: count + 1) {
                try body(UnsafeBufferPointer(start: $0, count: count))
            }
        }
    }

    /// Column `index` as a boolean (SQLite stores `0` or `1`; PostgreSQL answers `t` or `f`).
    func bool(_ index: Int) throws -> Bool {
        switch source {
        case .statement(let statement, _):
            return sqlite3_column_int64(try Self.notNull(statement, index), Int32(index)) != 0
        case .sqlite(let row): return try row.decode(Bool.self, atIndex: index)
        case .postgreSQL(let result, let row, _):
            switch try value(result, row, index).pointee {
            case CChar(UInt8(ascii: "t")): return true
            case CChar(UInt8(ascii: "f")): return false
            default: throw FactsColumnError(description: "column \(index) is not a boolean")
            }
        }
    }

    /// Column `index` as a floating-point number.
    func double(_ index: Int) throws -> Double {
        switch source {
        case .statement(let statement, _):
            return sqlite3_column_double(try Self.notNull(statement, index), Int32(index))
        case .sqlite(let row): return try row.decode(Double.self, atIndex: index)
        case .postgreSQL(let result, let row, _):
            let text = try value(result, row, index)
            var end: UnsafeMutablePointer<CChar>?
            let number = strtod(text, &end)
            guard let end, end != text, end.pointee == 0 else {
                throw FactsColumnError(description: "'\(String(cString: text).prefix(20))' is not a number")
            }
            return number
        }
    }

    /// `statement`, whose column `index` is not NULL (GRDB's reads of a non-optional value fail on NULL too).
    private static func notNull(_ statement: OpaquePointer, _ index: Int) throws -> OpaquePointer {
        guard sqlite3_column_type(statement, Int32(index)) != SQLITE_NULL else {
            throw FactsColumnError(description: "column \(index) is NULL")
        }
        return statement
    }

    private func value(_ result: PostgreSQLResult, _ row: Int32, _ index: Int) throws -> UnsafeMutablePointer<CChar> {
        guard PQgetisnull(result.handle, row, Int32(index)) == 0,
            let text = PQgetvalue(result.handle, row, Int32(index))
        else { throw FactsColumnError(description: "column \(index) is NULL") }
        return text
    }

    /// A decimal integer, exactly (no white space, no `+`); `nil` when it is none or does not fit.
    private static func parseInt64(_ text: UnsafeMutablePointer<CChar>) -> Int64? {
        let count = strlen(text)
        return text.withMemoryRebound(to: UInt8.self, capacity: count) {
            Int64(decimalDigits: UnsafeBufferPointer(start: $0, count: count))
        }
    }
}

/// An integer the history computed (a sum) does not fit 64 bits.
struct SQLIntegerOverflow: Error {}
