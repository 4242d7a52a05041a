import ExtractionTestSupport
import Foundation
import ReconCore
import Sandbox
import StripeAPI
import Synchronization
import Testing

@testable import Extract
@testable import History

/// The transfers of a range's transfer groups (docs/RULES.md, "Separately transferred charges"), made after the range,
/// are extracted; a platform without separately transferred charges pays no request for them.
@Suite("Extraction of transfer groups", .serialized)
struct TransferGroupExtractionTests {
    typealias H = ExtractionHarness

    @Test("destination charges' group_pi_… labels cost no request: no group is listed")
    func destinationChargesListNoGroup() async throws {
        // Days 7 and 8 of the 10-day world: the guaranteed separately transferred charges are in its first half, and
        // no other charge is one (`transferGroupShare` 0), so the range and its refunds' and disputes' charges hold
        // destination charges only.
        let harness = try await H()
        let store = try harness.store()
        let recorder = RecordingTransport(try H.curl())
        let from = H.start + 7 * H.day
        let to = H.start + 9 * H.day
        let (runID, summary) = try await harness.extract(
            store: store, client: try harness.client(transport: recorder), from: from, to: to)

        // The world's destination charges carry Stripe's own group_pi_… labels, on the charge and its PaymentIntent
        let labelled = try store.objects.facts(ChargeFacts.self, createdFrom: from, to: to)
            .filter { $0.transferGroup?.hasPrefix("group_pi_") == true && $0.destinationAccountID != nil }
        #expect(!labelled.isEmpty)
        let separate = try store.objects.facts(ChargeFacts.self, createdFrom: from, to: to)
            .filter { $0.isSucceededAndCaptured && $0.destinationAccountID == nil && $0.transferID == nil }
        #expect(
            try await Self.groupCharges(store, separate).isEmpty, "no separately transferred charge with a group")
        // Then no group is listed, and nothing is left to fetch
        #expect(recorder.queries(containing: "transfer_group=").isEmpty)
        #expect(try await store.gaps.inRange(from: from, to: to, chain: [runID]).isEmpty)
        print(
            "transfer groups: world without separate charges: \(recorder.count) requests,",
            "\(summary.followUps) follow-ups")
        try await harness.close()
    }

    @Test("a group's transfer made after the range is listed by its group, with its balance transaction")
    func laterTransferListedByGroup() async throws {
        // The worked example's charge: 60.00 to one account minutes later, 25.00 to another the day after
        let harness = try await H()
        let store = try harness.store()
        let recorder = RecordingTransport(try H.curl())
        let (chargeID, range) = try Self.splitCharge(harness)
        let (runID, summary) = try await harness.extract(
            store: store, client: try harness.client(transport: recorder), from: range.lowerBound,
            to: range.upperBound)

        let charge = try #require(
            try store.objects.facts(ChargeFacts.self, createdFrom: range.lowerBound, to: range.upperBound)
                .first { $0.id == chargeID })
        let group = try #require(charge.transferGroup)
        let expected = try await Self.worldTransfers(harness).filter {
            $0.transferGroup == group || $0.sourceTransaction?.id == chargeID
        }
        #expect(expected.contains { $0.created >= range.upperBound }, "a transfer made after the range")
        try Self.expectStored(expected, store)
        // One list for the group, none for a destination charge's label, and nothing left to fetch
        #expect(recorder.queries(containing: "transfer_group=\(group)").count == 1)
        #expect(recorder.queries(containing: "transfer_group=group_pi_").isEmpty)
        #expect(try await store.gaps.inRange(from: range.lowerBound, to: range.upperBound, chain: [runID]).isEmpty)
        print(
            "transfer groups: by group: \(recorder.count) requests,",
            "\(recorder.queries(containing: "transfer_group=").count) group lists, \(summary.followUps) follow-ups")
        try await harness.close()
    }

    @Test("on a nightly run with many groups, the window after the range brings their transfers instead")
    func laterTransfersByWindow() async throws {
        // A third of the charges are separately transferred, and the run is a day after the range: the window of the
        // transfers made since is a page or two, fewer than the night's groups.
        let harness = try await H { $0.transferGroupShare = 0.3 }
        let store = try harness.store()
        let recorder = RecordingTransport(try H.curl())
        let (chargeID, range) = try Self.splitCharge(harness)
        let now = range.upperBound + H.day
        let (runID, summary) = try await harness.extract(
            store: store, client: try harness.client(transport: recorder), from: range.lowerBound,
            to: range.upperBound, now: now)

        let charges = try store.objects.facts(ChargeFacts.self, createdFrom: range.lowerBound, to: range.upperBound)
        let groups = Set(try await Self.groupCharges(store, charges).compactMap(\.transferGroup))
        #expect(groups.count > 3)
        let group = try #require(charges.first { $0.id == chargeID }?.transferGroup)
        let expected = try await Self.worldTransfers(harness).filter {
            ($0.transferGroup == group || $0.sourceTransaction?.id == chargeID) && $0.created < now
        }
        #expect(expected.contains { $0.created >= range.upperBound }, "a transfer made after the range")
        try Self.expectStored(expected, store)
        // No group of the range is listed by itself (the older charges of the range's refunds and disputes are)
        let listed = recorder.queries(containing: "transfer_group=").compactMap {
            $0.split(separator: "&").first { $0.hasPrefix("transfer_group=") }?.dropFirst("transfer_group=".count)
        }
        #expect(groups.isDisjoint(with: listed.map(String.init)))
        let window = recorder.queries(containing: "created[gte]=\(range.upperBound)&created[lt]=\(now + 1)")
        #expect(window.contains { $0.hasPrefix("/v1/transfers?") }, "the window of the transfers after the range")
        #expect(try await store.gaps.inRange(from: range.lowerBound, to: range.upperBound, chain: [runID]).isEmpty)
        print(
            "transfer groups: by window: \(groups.count) groups, \(recorder.count) requests,",
            "\(summary.followUps) follow-ups")
        try await harness.close()
    }

    /// The worked example's charge (``SandboxScenario/transferGroupSplit``) and the day it was created in.
    static func splitCharge(_ harness: H) throws -> (id: String, day: Range<Int64>) {
        let world = harness.server.world
        let id = try #require(world.ids(for: .transferGroupSplit).first)
        let json = try #require(world.renderedObject(id: id))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let created = try #require((object["created"] as? NSNumber)?.int64Value)
        let day = created - (created - H.start) % H.day
        return (id, day..<(day + H.day))
    }

    /// Every transfer of the world, by a plain sequential pager over its whole time: the oracle.
    static func worldTransfers(_ harness: H) async throws -> [Transfer] {
        let client = try harness.client()
        var transfers: [Transfer] = []
        var cursor: String?
        repeat {
            var query = [("limit", "100"), ("created[gte]", "\(H.start)"), ("created[lt]", "\(H.start + 60 * H.day)")]
            if let cursor { query.append(("starting_after", cursor)) }
            let page = try await client.listPage(Transfer.self, path: "/v1/transfers", query: query)
            transfers += page.items.map(\.object)
            cursor = page.hasMore ? page.lastID : nil
        } while cursor != nil
        return transfers
    }

    /// Each of `transfers` is stored, with its balance transaction and every reversal, each with its own.
    static func expectStored(_ transfers: [Transfer], _ store: HistoryStore) throws {
        let stored = Dictionary(
            uniqueKeysWithValues: try store.objects.facts(TransferFacts.self, createdFrom: 0, to: .max).map {
                ($0.id, $0)
            })
        let reversals = try store.objects.facts(TransferReversalFacts.self, createdFrom: 0, to: .max)
        let balance = Set(try store.objects.ids(of: .balanceTransaction, createdFrom: 0, to: .max))
        for transfer in transfers {
            let facts = try #require(stored[transfer.id], "transfer \(transfer.id) stored")
            if let id = facts.balanceTransactionID { #expect(balance.contains(id), "its balance transaction \(id)") }
            let own = reversals.filter { $0.transferID == transfer.id }
            #expect(own.map(\.amount).reduce(0, +) == facts.amountReversed, "the reversals of \(transfer.id)")
            for reversal in own {
                if let id = reversal.balanceTransactionID { #expect(balance.contains(id), "reversal's \(id)") }
            }
        }
    }

    /// The charges of `charges` that have a group of their own or by their PaymentIntent.
    static func groupCharges(_ store: HistoryStore, _ charges: [ChargeFacts]) async throws -> [ChargeFacts] {
        let intents = Dictionary(
            uniqueKeysWithValues: try store.objects.facts(PaymentIntentFacts.self, createdFrom: 0, to: .max).map {
                ($0.id, $0)
            })
        return charges.filter { charge in
            let intent = charge.paymentIntentID.flatMap { intents[$0] }
            return intent?.destinationAccountID == nil && (charge.transferGroup ?? intent?.transferGroup) != nil
        }
    }
}

/// A transport that records the URL of every request it passes on.
final class RecordingTransport: HTTPTransport, Sendable {
    private let inner: any HTTPTransport
    private let urls = Mutex<[URL]>([])

    init(_ inner: any HTTPTransport) { self.inner = inner }

    func get(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        urls.withLock { $0.append(request.url) }
        return try await inner.get(request)
    }

    /// Requests made so far.
    var count: Int { urls.withLock { $0.count } }

    /// Every request's URL, in the order they were sent.
    var sent: [URL] { urls.withLock { $0 } }

    /// The requests whose decoded path and query contain `text`.
    func queries(containing text: String) -> [String] {
        urls.withLock { urls in
            urls.map { ($0.path + "?" + ($0.query ?? "")).removingPercentEncoding ?? $0.absoluteString }
                .filter { $0.contains(text) }
        }
    }
}
