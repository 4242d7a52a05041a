import Foundation
import ReconCore
import Sandbox
import SandboxTruth
import Testing

/// The sandbox's answers and its ground truth, pinned byte for byte: a change to the world generator, the renderer,
/// the router or the ground truth that is meant to keep every byte (a refactoring) must keep these digests; a change
/// that is meant to alter the world updates them on purpose, and says so in its commit.
///
/// Each digest covers, for one world: every page of every list endpoint (plain, and with the expansions the
/// extraction asks for), every payout's `?payout=` list, a retrieve of every seventh object listed, and the ground
/// truth of the whole world, of a slice and of a slice reconciled inside the grace period.
@Suite("Golden digests of the sandbox's pages and ground truth", .serialized)
struct GoldenDigestTests {
    struct World: Sendable, CustomTestStringConvertible {
        var seed: UInt64
        var charges: Int
        var pages: String
        var truth: String
        var testDescription: String { "seed \(seed), \(charges) charges" }
    }

    /// The pinned digests (FNV-1a, 64 bits, hexadecimal). To change them on purpose, run this suite and copy the
    /// digests its failure message prints. (The truths were pinned again when the ground truth gained the platform's
    /// other money: its JSON holds an empty `stripeCosts` and each summary row's and statement's figures of it, 0 in
    /// these worlds, which hold none of it; their pages did not change.)
    static let worlds = [
        World(seed: 42, charges: 400, pages: "a9bccfd843ba5e31", truth: "6ae6a7514c267332"),
        World(seed: 7, charges: 600, pages: "4bf29471c7778d6e", truth: "100512cad1d40def"),
    ]

    /// The list endpoints and the expansions the extraction asked for on each (its range lists) when the digests were
    /// pinned. The application fees' originating charge, no longer asked for since issue 29 (EXTRACTION.md, "What
    /// each expansion costs and saves"), stays: the sandbox must still answer it as Stripe does.
    static let lists: [(path: String, expansions: [String])] = [
        (
            "/v1/charges",
            [
                "data.payment_intent", "data.transfer", "data.transfer.balance_transaction", "data.application_fee",
                "data.application_fee.balance_transaction", "data.refunds", "data.refunds.data.balance_transaction",
                "data.refunds.data.failure_balance_transaction",
            ]
        ),
        ("/v1/payment_intents", []),
        (
            "/v1/transfers",
            [
                "data.reversals.data.balance_transaction", "data.source_transaction",
                "data.source_transaction.payment_intent",
            ]
        ),
        (
            "/v1/application_fees",
            [
                "data.refunds.data.balance_transaction", "data.originating_transaction",
                "data.originating_transaction.payment_intent",
            ]
        ),
        ("/v1/balance_transactions", []),
        ("/v1/disputes", ["data.charge", "data.charge.payment_intent", "data.charge.transfer"]),
        (
            "/v1/refunds",
            ["data.charge", "data.charge.payment_intent", "data.charge.transfer", "data.failure_balance_transaction"]
        ),
        ("/v1/payouts", []),
    ]

    @Test(arguments: worlds)
    func theSandboxServesTheSameBytes(_ spec: World) async throws {
        // Given the world
        let server = try await startServer(charges: spec.charges, seed: spec.seed, days: 10) { $0.hours = 4 }
        defer { Task { try? await server.shutdown() } }
        let connection = try WireConnection(port: server.port)
        var digest = FNV1aDigest()
        var ids: [String] = []

        // When every page of every list is read, plain and expanded, then every payout's list and some objects
        for (path, expansions) in Self.lists {
            let listed = try Self.pages(path, connection, into: &digest)
            ids += listed
            if !expansions.isEmpty {
                let query = expansions.map { "expand[]=" + q($0) }.joined(separator: "&")
                _ = try Self.pages(path + "?" + query, connection, into: &digest)
            }
            if path == "/v1/payouts" {
                // Stripe itemises automatic payouts only (a manual one's list is a 400)
                let manual = Set(server.world.payouts().filter { !$0.automatic }.map(\.id))
                for payout in listed where !manual.contains(payout) {
                    _ = try Self.pages("/v1/balance_transactions?payout=" + payout, connection, into: &digest)
                }
            }
        }
        for (index, id) in ids.enumerated() where index % 7 == 0 {
            guard let resource = Self.resource(of: id) else { continue }
            let response = try connection.request("/v1/\(resource)/\(id)")
            #expect(response.status == 200, "\(id)")
            digest.add("/v1/\(resource)/\(id)", response.body)
        }

        // Then the bytes are those pinned
        #expect(
            digest.hex == spec.pages,
            "the sandbox's answers changed (\(ids.count) objects listed); if that is meant, pin pages: \"\(digest.hex)\""
        )
        try await server.shutdown()
    }

    @Test(arguments: worlds)
    func theGroundTruthIsTheSame(_ spec: World) throws {
        // Given the world
        let world = SandboxWorld(
            seed: spec.seed, charges: spec.charges, start: Date(timeIntervalSince1970: 1_793_491_200),
            end: Date(timeIntervalSince1970: 1_793_491_200 + 10 * 86_400 + 4 * 3_600))
        var digest = FNV1aDigest()
        // When its ground truth is computed for the whole world, a slice, and a slice inside the grace period
        let slice = world.start.addingTimeInterval(3 * 86_400)
        let ranges = [
            (world.start, world.end, world.end),
            (slice, slice.addingTimeInterval(2 * 86_400), world.end),
            (world.end.addingTimeInterval(-86_400), world.end, world.end.addingTimeInterval(600)),
        ]
        for (from, to, asOf) in ranges {
            let range = try ReportingRange(from: from, to: to, timeZone: .gmt)
            let truth = world.groundTruth(for: range, asOf: asOf, skippedTransferGrace: 3_600)
            digest.add("\(range)", try truth.jsonData())
        }
        // Then it is the one pinned
        #expect(
            digest.hex == spec.truth, "the ground truth changed; if that is meant, pin truth: \"\(digest.hex)\"")
    }

    // MARK: Support

    /// Reads every page of `path` into `digest`; returns the ids listed.
    private static func pages(_ path: String, _ connection: WireConnection, into digest: inout FNV1aDigest) throws
        -> [String]
    {
        var ids: [String] = []
        var after: String?
        while true {
            var url = path + (path.contains("?") ? "&" : "?") + "limit=100"
            if let after { url += "&starting_after=" + after }
            let response = try connection.request(url)
            guard response.status == 200 else { throw WireError("GET \(url): \(response.status)") }
            digest.add(url, response.body)
            let page = try response.json()
            let data = (page["data"] as? [[String: Any]]) ?? []
            ids += data.compactMap { $0["id"] as? String }
            guard (page["has_more"] as? Bool) == true, let last = data.last?["id"] as? String else { return ids }
            after = last
        }
    }

    /// The retrieve endpoint of an id, by its prefix.
    private static func resource(of id: String) -> String? {
        let prefixes = [
            ("ch_", "charges"), ("pi_", "payment_intents"), ("tr_", "transfers"), ("fee_", "application_fees"),
            ("txn_", "balance_transactions"), ("dp_", "disputes"), ("du_", "disputes"), ("re_", "refunds"),
            ("po_", "payouts"),
        ]
        return prefixes.first { id.hasPrefix($0.0) }?.1
    }
}
