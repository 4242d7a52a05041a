/// How a column's values are read for copying, from its declared type (SQLite's or PostgreSQL's name for it).
enum SQLColumnKind {
    case integer
    case real
    case boolean
    case text

    init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("BOOL") {
            self = .boolean
        } else if type.contains("INT") {
            self = .integer
        } else if type.contains("DOUB") || type.contains("REAL") || type.contains("FLOAT") || type.contains("NUMERIC") {
            self = .real
        } else {
            self = .text
        }
    }

    /// Column `index` of `row` as a value of this kind.
    func value(_ row: SQLRow, _ index: Int) throws -> SQLValue {
        guard !row.isNull(index) else { return .null }
        switch self {
        case .integer: return .integer(try row.int64(index))
        case .real: return .real(try row.double(index))
        case .boolean: return .boolean(try row.bool(index))
        case .text: return .text(try row.text(index))
        }
    }
}
