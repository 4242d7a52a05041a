import GRDB

/// Raw access to a history file, for tests that tamper with it.
enum GRDBTestAccess {
    /// Pretends a newer connect-recon applied a migration this version does not know.
    static func recordUnknownMigration(_ path: String, identifier: String) throws {
        let pool = try DatabasePool(path: path)
        try pool.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier])
        }
    }
}
