import GRDB

/// A value bound to a statement's `?`, the same for both histories: SQLite binds it natively, PostgreSQL as text
/// that the server reads as the parameter's type.
enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case boolean(Bool)

    /// The value as GRDB binds it (a boolean is `1` or `0`, as SQLite stores one).
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .text(let value): value.databaseValue
        case .boolean(let value): value.databaseValue
        }
    }

    /// The value as PostgreSQL reads a parameter in text format; `nil` for NULL. A `Double`'s description is the
    /// shortest text that reads back as the same number.
    var postgreSQLText: String? {
        switch self {
        case .null: nil
        case .integer(let value): String(value)
        case .real(let value): value.description
        case .text(let value): value
        case .boolean(let value): value ? "t" : "f"
        }
    }

    /// The text, if the value is one.
    var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}
