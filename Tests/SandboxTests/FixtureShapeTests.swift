import Foundation
import Sandbox
import Testing

/// Every object the sandbox renders has the fields of Stripe's example object for its kind (the fixtures in
/// Tests/StripeAPITests/Fixtures, taken from Stripe's OpenAPI description), nested objects included.
@Suite struct FixtureShapeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("StripeAPITests/Fixtures")

    /// Key paths of a JSON value (`outcome.type`, `fee_details[].type`), down to `depth` levels, and the paths
    /// whose value is an object.
    static func paths(_ value: Any, prefix: String = "", depth: Int = 3) -> (keys: Set<String>, objects: Set<String>) {
        var keys: Set<String> = []
        var objects: Set<String> = []
        if let object = value as? [String: Any], depth > 0 {
            objects.insert(prefix)
            for (key, child) in object {
                let path = prefix.isEmpty ? key : prefix + "." + key
                keys.insert(path)
                let nested = paths(child, prefix: path, depth: depth - 1)
                keys.formUnion(nested.keys)
                objects.formUnion(nested.objects)
            }
        } else if let array = value as? [Any], let first = array.first {
            let nested = paths(first, prefix: prefix + "[]", depth: depth)
            keys.formUnion(nested.keys)
            objects.formUnion(nested.objects)
        }
        return (keys, objects)
    }

    /// Fixture fields that the sandbox leaves out on purpose, per fixture.
    static let omitted: [String: Set<String>] = [
        // `refunds` only when expanded (since API version 2022-11-15); the legacy `source` is null for
        // PaymentIntent charges, so its fields are not compared (only where both sides are objects).
        "charge": ["refunds", "refunds.data", "refunds.has_more", "refunds.object", "refunds.url"]
    ]

    @Test(arguments: [
        ("charge", "ch_"), ("payment_intent", "pi_"), ("transfer", "tr_"), ("transfer_reversal", "trr_"),
        ("application_fee", "fee_"), ("fee_refund", "fr_"), ("refund", "re_"), ("dispute", "dp_"),
        ("balance_transaction", "txn_"),
    ])
    func renderedObjectsHaveTheFixturesFields(name: String, prefix: String) async throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("\(name).json"))
        let fixture = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let fixtureKeys = Set(fixture.keys).subtracting(Self.omitted[name] ?? [])

        // Given objects of that kind from a world with every situation
        let server = try await startServer(charges: 150, seed: 2)
        let connection = try WireConnection(port: server.port)
        let many = try #require(server.world.ids(for: .manyReversals).first)
        let charge = try connection.request("/v1/charges/\(many)").json()
        let list: String =
            switch name {
            case "transfer_reversal": "/v1/transfers/\(charge.string("transfer") ?? "")/reversals?limit=5"
            case "fee_refund": "/v1/application_fees/\(charge.string("application_fee") ?? "")/refunds?limit=5"
            case "balance_transaction": "/v1/balance_transactions?limit=100"
            default: "/v1/\(name)s?limit=100"
            }
        let objects = try connection.request(list).json().list("data") ?? []
        #expect(!objects.isEmpty)
        for object in objects {
            // Then each has every top-level field of the fixture (the charge's `transfer` only when it has one)
            let keys = Set(object.keys)
            var missing = fixtureKeys.subtracting(keys)
            if name == "charge" { missing.remove("source") }
            #expect(missing.isEmpty, "\(object.string("id") ?? "") lacks \(missing.sorted())")
            #expect(object.string("id")?.hasPrefix(prefix) == true)
            #expect(object.string("object") == fixture["object"] as? String)
        }
        // And nested objects have the fixture's fields where both are objects
        let nestedFixture = Self.paths(fixture).keys.filter { $0.contains(".") }
        var renderedKeys: Set<String> = []
        var renderedObjects: Set<String> = []
        for object in objects {
            let found = Self.paths(object)
            renderedKeys.formUnion(found.keys)
            renderedObjects.formUnion(found.objects)
        }
        let nestedMissing = nestedFixture.filter { path in
            guard !(Self.omitted[name] ?? []).contains(path) else { return false }
            let parent = String(path[..<(path.lastIndex(of: ".") ?? path.endIndex)])
            return renderedObjects.contains(parent) && !renderedKeys.contains(path)
        }
        #expect(nestedMissing.isEmpty, "\(name) lacks nested fields \(nestedMissing.sorted())")
        try await server.shutdown()
    }

    @Test func theCardDetailsTheSandboxRendersFromAreStripesExampleVerbatim() throws {
        // Given Stripe's example charge, and the copy of its card details the sandbox keeps and renders cards from
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("charge.json"))
        let charge = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let example = try #require(charge["payment_method_details"] as? NSDictionary)
        let stored = try JSONSerialization.jsonObject(with: Data(CardPaymentDetails.fixture.utf8))
        // Then the copy is the same JSON
        #expect(try #require(stored as? NSDictionary) == example)
    }
}
