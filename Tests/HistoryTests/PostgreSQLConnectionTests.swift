import Foundation
import TestSupport
import Testing

@testable import History

/// libpq against a real PostgreSQL 15 server: `.ci/run` starts a throwaway one and names it in
/// `CONNECT_RECON_TEST_POSTGRES_URL`. Outside CI, without a server, these tests report themselves skipped; in CI they
/// fail without one.
/// The throwaway server `.ci/run` starts.
private let testServerURL = ProcessInfo.processInfo.environment["CONNECT_RECON_TEST_POSTGRES_URL"]

@Suite(
    "PostgreSQL connection", .serialized, .postgreSQLServer)
struct PostgreSQLConnectionTests {
    /// The test server's URL with `change` applied to its parts.
    private func url(_ change: (inout URLComponents) -> Void = { _ in }) throws -> String {
        let server = try #require(testServerURL, "in CI, .ci/run starts a server and names it")
        var components = try #require(URLComponents(string: server))
        change(&components)
        return try #require(components.string)
    }

    @Test("connects with the URL's password and runs a query")
    func connects() throws {
        let connection = try PostgreSQLConnection(try PostgreSQLAddress(try url()))
        #expect(try connection.rows("SELECT 1, NULL::text, 'a''b'") == [["1", nil, "a'b"]])
        #expect(try connection.rows("SHOW server_version").first?.first??.hasPrefix("15") == true)
    }

    @Test("a password left out of the URL comes from PGPASSWORD, as libpq reads it")
    func passwordFromTheEnvironment() throws {
        let withPassword = try url()
        let password = try #require(URLComponents(string: withPassword)?.password)
        let address = try PostgreSQLAddress(try url { $0.password = nil })
        #expect(!address.hasPassword)
        setenv("PGPASSWORD", password, 1)
        defer { unsetenv("PGPASSWORD") }
        #expect(try PostgreSQLConnection(address).rows("SELECT current_user") == [["postgres"]])
    }

    @Test("a password left out of the URL comes from a password file (~/.pgpass, or PGPASSFILE), as libpq reads it")
    func passwordFromThePasswordFile() throws {
        let withPassword = try url()
        let components = try #require(URLComponents(string: withPassword))
        let password = try #require(components.password)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pgpass")
        let line = "\(components.host ?? "*"):\(components.port.map(String.init) ?? "*"):*:postgres:\(password)\n"
        try Data(line.utf8).write(to: file)
        // libpq ignores a password file others can read.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        setenv("PGPASSFILE", file.path, 1)
        defer { unsetenv("PGPASSFILE") }
        let address = try PostgreSQLAddress(try url { $0.password = nil })
        #expect(try PostgreSQLConnection(address).rows("SELECT current_user") == [["postgres"]])
    }

    @Test("a wrong password is the configuration's fault, and the message names server and database, not the password")
    func wrongPassword() throws {
        let address = try PostgreSQLAddress(try url { $0.password = "wrong-password-123" })
        #expect {
            _ = try PostgreSQLConnection(address)
        } throws: { error in
            guard case HistoryError.serverUnavailable(_, _, let isConfiguration)? = error as? HistoryError,
                let message = (error as? HistoryError)?.message
            else { return false }
            return isConfiguration && message.contains("password authentication failed")
                && message.contains("postgresql://postgres:***@127.0.0.1:") && message.contains("/postgres")
                && !message.contains("wrong-password-123") && (error as? HistoryError)?.isBadInput == true
        }
    }

    @Test("a database that does not exist is the configuration's fault, named")
    func missingDatabase() throws {
        let address = try PostgreSQLAddress(try url { $0.path = "/no_such_history" })
        #expect {
            _ = try PostgreSQLConnection(address)
        } throws: { error in
            guard case HistoryError.serverUnavailable(let location, let reason, true)? = error as? HistoryError
            else { return false }
            return location.hasSuffix("/no_such_history") && reason.contains("no_such_history")
        }
    }

    @Test("a server that refuses the connection is not the configuration's fault (exit 1), and is named")
    func refused() throws {
        // A port nothing listens on: bound and closed again
        let port = try Self.freePort()
        let address = try PostgreSQLAddress(try url { $0.port = port })
        #expect {
            _ = try PostgreSQLConnection(address)
        } throws: { error in
            guard let error = error as? HistoryError, case .serverUnavailable(_, _, false) = error else {
                return false
            }
            return error.message.contains("127.0.0.1:\(port)") && !error.isBadInput
        }
    }

    private static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(bound == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
