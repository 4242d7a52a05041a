import Foundation
import Sandbox
// Re-exported so that every file of this target sees the shared raw client (`WireConnection`, `WireResponse`).
@_exported import TestSupport

let testKey = "sk_test_51SandboxTestKey0000000000000001"

extension WireConnection {
    /// A connection to the sandbox on `port` that sends ``testKey`` unless a request names another key.
    convenience init(port: Int) throws {
        try self.init(port: port, key: testKey, receiveTimeout: 20)
    }
}

/// One request on a fresh connection.
func get(
    _ server: SandboxServer, _ path: String, key: String? = testKey, method: String = "GET",
    headers: [(String, String)] = []
) throws -> WireResponse {
    try WireConnection(port: server.port).request(path, key: key, method: method, headers: headers)
}

func startServer(
    charges: Int = 120, seed: UInt64 = 7, days: Int = 30, _ configure: (inout SandboxOptions) -> Void = { _ in }
) async throws -> SandboxServer {
    var options = SandboxOptions()
    options.charges = charges
    options.seed = seed
    options.days = days
    configure(&options)
    return try await SandboxServer.start(options)
}

extension Dictionary where Key == String, Value == Any {
    func string(_ key: String) -> String? { self[key] as? String }
    func int(_ key: String) -> Int64? { (self[key] as? NSNumber)?.int64Value }
    func object(_ key: String) -> [String: Any]? { self[key] as? [String: Any] }
    func list(_ key: String) -> [[String: Any]]? { self[key] as? [[String: Any]] }
}

/// Every item of a list, paged by 100 with `starting_after`.
func listAll(_ connection: WireConnection, _ path: String) throws -> [[String: Any]] {
    try connection.list(path)
}

/// Percent-encodes a query value.
func q(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
}
