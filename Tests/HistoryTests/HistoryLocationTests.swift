import Testing

@testable import History

/// `output.database` read once: a file path, or a PostgreSQL URL as libpq reads it, never shown with its password.
@Suite("History location")
struct HistoryLocationTests {
    @Test(
        "a path is a SQLite file, whatever it looks like",
        arguments: ["connect-recon.sqlite", "/var/lib/recon/h.db", "a:b/c", "./postgresql"])
    func pathsAreSQLiteFiles(path: String) throws {
        #expect(try HistoryLocation(path) == .sqliteFile(path: path))
        #expect(try HistoryLocation(path).description == path)
    }

    @Test("a PostgreSQL URL keeps its parts and parameters, and shows its password as ***")
    func postgreSQLURL() throws {
        let location = try HistoryLocation(
            "postgresql://recon:pa%3Ass@127.0.0.1:5432/recon?sslmode=require&connect_timeout=5")
        guard case .postgreSQL(let address) = location else {
            Issue.record("not PostgreSQL: \(location)")
            return
        }
        #expect(address.user == "recon")
        #expect(address.host == "127.0.0.1")
        #expect(address.port == "5432")
        #expect(address.database == "recon")
        #expect(address.hasPassword)
        #expect(address.parameters == ["sslmode": "require", "connect_timeout": "5"])
        #expect(location.description == "postgresql://recon:***@127.0.0.1:5432/recon?connect_timeout=5&sslmode=require")
        #expect(!location.description.contains("pa"))
    }

    @Test("postgres:// is the same, and a URL without a password leaves it to PGPASSWORD or ~/.pgpass")
    func postgresSchemeWithoutPassword() throws {
        let location = try HistoryLocation("postgres://recon@[::1]/recon")
        #expect(location.description == "postgresql://recon@[::1]/recon")
        guard case .postgreSQL(let address) = location else { return }
        #expect(!address.hasPassword)
        #expect(address.host == "::1")
    }

    @Test("a URL libpq cannot read is refused naming what is wrong, never the password")
    func malformedURL() {
        #expect(throws: HistoryLocationError.self) { try HistoryLocation("postgresql://u:topsecret@h/db?bogus=1") }
        do {
            _ = try HistoryLocation("postgresql://u:topsecret@h/db?bogus=1")
        } catch {
            guard case .malformedURL(let shown, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(shown == "postgresql://u:***@h/db?bogus=1")
            #expect(reason.contains("bogus"))
            #expect(!error.message.contains("topsecret"))
        }
    }

    @Test("another scheme is refused, not taken for a file name")
    func otherSchemes() {
        #expect(throws: HistoryLocationError.unsupportedScheme(shown: "mysql://u:***@h/db", scheme: "mysql")) {
            try HistoryLocation("mysql://u:secret@h/db")
        }
        #expect(throws: HistoryLocationError.unsupportedScheme(shown: "file:///tmp/h.sqlite", scheme: "file")) {
            try HistoryLocation("file:///tmp/h.sqlite")
        }
    }
}
