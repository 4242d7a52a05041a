import CPostgreSQL

/// A libpq result, cleared when the last reference goes.
final class PostgreSQLResult {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { PQclear(handle) }

    /// The number of rows.
    var count: Int32 { PQntuples(handle) }

    /// The number of rows the command changed (`INSERT`, `UPDATE`, `DELETE`), 0 for others.
    var changedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }
}
