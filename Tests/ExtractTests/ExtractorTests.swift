import ExtractionTestSupport
import Foundation
import ReconCore
import Sandbox
import StripeAPI
import Testing

@testable import Extract
@testable import History

@Suite("Extraction against the sandbox", .serialized)
struct ExtractorTests {
    typealias H = ExtractionHarness

    @Test("every object of the range is stored exactly once, as a plain sequential pager sees it")
    func storesEveryObjectOnce() async throws {
        let harness = try await H()
        let store = try harness.store()
        let client = try harness.client()
        let (_, summary) = try await harness.extract(store: store, client: client)

        let from = H.start
        let to = H.start + 10 * H.day
        let lists: [(ObjectKind, String, any StripeObject.Type)] = [
            (.charge, "/v1/charges", Charge.self), (.transfer, "/v1/transfers", Transfer.self),
            (.applicationFee, "/v1/application_fees", ApplicationFee.self),
            (.balanceTransaction, "/v1/balance_transactions", BalanceTransaction.self),
            (.dispute, "/v1/disputes", Dispute.self), (.refund, "/v1/refunds", Refund.self),
        ]
        for (kind, path, type) in lists {
            let expected = try await Self.reference(type, client: client, path: path, from: from, to: to)
            let stored = try store.objects.ids(of: kind, createdFrom: from, to: to)
            #expect(stored.count == Set(stored).count, "\(kind) stored once")
            #expect(Set(stored) == expected, "\(kind) matches the sequential pager")
            #expect(!expected.isEmpty)
        }
        // The whole world lies in the range, so every object it holds is in the history (its payouts once the
        // history has a kind for them: docs/EXTRACTION.md's payout extraction).
        let total = try ObjectKind.allCases.map { try store.objects.count(of: $0) }.reduce(0, +)
        let unstored = ObjectKind(rawValue: "payout") == nil ? harness.server.world.counts["payouts"] ?? 0 : 0
        #expect(total == harness.server.world.objectCount - unstored)
        #expect(summary.new == total)
        // Nothing the range refers to is left unfetched.
        let chain = try await store.runs.runChain(1)
        #expect(try await store.gaps.inRange(from: from, to: to, chain: chain).isEmpty)
        try await harness.close()
    }

    @Test("a list the history saw dense the span before starts in pieces, and stores every object once")
    func startsDenseListsInPieces() async throws {
        let harness = try await H { $0.charges = 3_000 }
        let store = try harness.store()
        let (middle, end) = (H.start + 5 * H.day, H.start + 10 * H.day)
        // Given a history holding the first five days
        try await harness.extract(store: store, client: try harness.client(), from: H.start, to: middle)
        // When the next five are extracted
        let requests = RecordingTransport(try H.curl())
        try await harness.extract(store: store, client: try harness.client(transport: requests), from: middle, to: end)
        // Then the balance transactions list's first request asks for a piece of the range, not all of it
        let first = try #require(
            requests.sent.compactMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }.first {
                $0.path == "/v1/balance_transactions"
                    && $0.queryItems?.contains { $0.name == "starting_after" } == false
            })
        let bounds = Dictionary(uniqueKeysWithValues: (first.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        let window =
            try #require(Int64(bounds["created[lt]"] ?? "")) - (try #require(Int64(bounds["created[gte]"] ?? "")))
        #expect(window < end - middle, "\(bounds)")
        // and no list asks for a window holding no second: Stripe's balance, read 30 days after the range, is too far
        // after it to be listed up to, so nothing after the range is asked for
        let emptyWindows = requests.sent.compactMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }.filter {
            let query = Dictionary(($0.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
            guard let gte = query["created[gte]"].flatMap(Int64.init), let lt = query["created[lt]"].flatMap(Int64.init)
            else { return false }
            return gte >= lt
        }
        #expect(emptyWindows.isEmpty, "\(emptyWindows.map(\.string))")
        // and every object of the range is stored once, as a sequential pager sees it
        let client = try harness.client()
        for (kind, path, type) in [
            (ObjectKind.charge, "/v1/charges", Charge.self as any StripeObject.Type),
            (.balanceTransaction, "/v1/balance_transactions", BalanceTransaction.self),
        ] {
            let expected = try await Self.reference(type, client: client, path: path, from: middle, to: end)
            let stored = try store.objects.ids(of: kind, createdFrom: middle, to: end)
            #expect(stored.count == Set(stored).count && Set(stored) == expected, "\(kind)")
        }
        try await harness.close()
    }

    @Test("on a fresh history the balance transactions start in four pieces, and every one is stored once")
    func startsUnknownListInPieces() async throws {
        // Stripe's rate and round trip, so that pieces are cut as against Stripe: 4 in flight over 0.15 s at 25/s.
        let harness = try await H {
            $0.charges = 3_000
            $0.latency = .milliseconds(150)
        }
        let store = try harness.store()
        let (from, to) = (H.start, H.start + 5 * H.day)
        // Given a history that holds nothing, when a dense range within one window (7 days) is extracted
        let requests = RecordingTransport(try H.curl())
        try await harness.extract(
            store: store, client: try harness.client(globalRate: 100, endpointRate: 25, transport: requests),
            from: from, to: to, concurrency: 32)
        // Then the balance transactions list's first requests ask for four pieces of the range
        let windows: [Range<Int64>] = requests.sent.compactMap {
            guard let url = URLComponents(url: $0, resolvingAgainstBaseURL: false),
                url.path == "/v1/balance_transactions"
            else { return nil }
            let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
            guard query["starting_after"] == nil, let gte = query["created[gte]"].flatMap(Int64.init),
                let lt = query["created[lt]"].flatMap(Int64.init), lt <= to
            else { return nil }
            return gte..<lt
        }
        // (each asked for before any narrower window inside it: a piece whose first page comes back full is split at
        // once, which on a loaded machine can be before the last piece is sent), and none wider than a piece
        let pieces = Intervals.split(from..<to, into: 4)
        func isInside(_ window: Range<Int64>, _ piece: Range<Int64>) -> Bool {
            piece.lowerBound <= window.lowerBound && window.upperBound <= piece.upperBound
        }
        #expect(windows.first.map(pieces.contains) == true, "\(windows.prefix(5))")
        for piece in pieces {
            let asked = windows.firstIndex(of: piece)
            let narrower = windows.firstIndex { $0 != piece && isInside($0, piece) }
            #expect(asked != nil && (narrower == nil || asked! < narrower!), "\(piece): \(windows.prefix(8))")
        }
        #expect(windows.allSatisfy { window in pieces.contains { isInside(window, $0) } }, "\(windows.prefix(8))")
        // and every balance transaction of the range is stored once
        let expected = try await Self.reference(
            BalanceTransaction.self, client: try harness.client(), path: "/v1/balance_transactions", from: from, to: to)
        let stored = try store.objects.ids(of: .balanceTransaction, createdFrom: from, to: to)
        #expect(stored.count == Set(stored).count && Set(stored) == expected)
        try await harness.close()
    }

    /// Opens the existential so the generic pager can run.
    static func reference(
        _ type: any StripeObject.Type, client: StripeClient, path: String, from: Int64, to: Int64
    ) async throws -> Set<String> {
        try await H.referenceIDs(client: client, path: path, type: type, from: from, to: to)
    }

    @Test("a short range follows its references across the boundary")
    func followsReferencesAcrossTheBoundary() async throws {
        let harness = try await H()
        let store = try harness.store()
        let from = H.start + 3 * H.day
        let to = H.start + 5 * H.day
        let (runID, summary) = try await harness.extract(store: store, client: try harness.client(), from: from, to: to)
        #expect(summary.followUps > 0)

        let charges = Dictionary(
            uniqueKeysWithValues: try store.objects.facts(ChargeFacts.self, createdFrom: 0, to: .max).map {
                ($0.id, $0)
            })
        let transfers = Dictionary(
            uniqueKeysWithValues: try store.objects.facts(TransferFacts.self, createdFrom: 0, to: .max).map {
                ($0.id, $0)
            })
        let reversals = try store.objects.facts(TransferReversalFacts.self, createdFrom: 0, to: .max)
        let balance = Set(try store.objects.ids(of: .balanceTransaction, createdFrom: 0, to: .max))
        // Refunds and disputes of the range: their charges are stored, even when created before the range.
        let refunds = try store.objects.facts(RefundFacts.self, createdFrom: from, to: to)
        let disputes = try store.objects.facts(DisputeFacts.self, createdFrom: from, to: to)
        #expect(refunds.allSatisfy { $0.chargeID.map { charges[$0] != nil } ?? true })
        #expect(disputes.allSatisfy { charges[$0.chargeID] != nil })
        #expect(disputes.contains { charges[$0.chargeID]!.created < from }, "a dispute on an older charge")
        // Every charge in scope has its transfer, and each transfer all of its reversals.
        for charge in charges.values where charge.created >= from && charge.created < to {
            if let transferID = charge.transferID {
                let transfer = try #require(transfers[transferID], "transfer \(transferID)")
                let reversed = reversals.filter { $0.transferID == transferID }.map(\.amount).reduce(0, +)
                #expect(reversed == transfer.amountReversed, "reversals of \(transferID)")
            }
            if let id = charge.balanceTransactionID { #expect(balance.contains(id)) }
        }
        #expect(try await store.gaps.inRange(from: from, to: to, chain: await store.runs.runChain(runID)).isEmpty)
        try await harness.close()
    }

    @Test("re-running a range updates in place and duplicates nothing")
    func rerunIsIdempotent() async throws {
        let harness = try await H()
        let store = try harness.store()
        let client = try harness.client()
        let first = try await harness.extract(store: store, client: client).summary
        let before = try H.contents(store)
        let second = try await harness.extract(store: store, client: client).summary
        #expect(second.new == 0)
        #expect(second.updated == 0)
        #expect(second.unchanged > 0)
        #expect(first.new > 0)
        // Each object counts once per run, however many pages it was on: the first run's objects are all new (none
        // counted again as unchanged), and the second run sees them again, unchanged (all but what only the first
        // run's follow-ups needed: the second run's chain holds those already)
        #expect(first.unchanged == 0)
        #expect(second.unchanged <= first.new && second.unchanged > first.new * 99 / 100)
        #expect(try H.contents(store) == before)
        try await harness.close()
    }

    @Test("with 5 % 500s, latency and 429s above the limits, the history is the same as a clean run's")
    func survivesFaults() async throws {
        let clean = try await H { $0.charges = 1_500 }
        let cleanStore = try clean.store()
        try await clean.extract(store: cleanStore, client: try clean.client())
        let expected = try H.contents(cleanStore)
        try await clean.close()

        let faulty = try await H {
            $0.charges = 1_500
            $0.failRate = 0.05
            $0.latency = .milliseconds(5)
            $0.rateLimit = 30
            $0.endpointRateLimit = 8
        }
        let store = try faulty.store()
        // A budget above the server's limits, so 429s really happen and are absorbed.
        let client = try faulty.client(globalRate: 80, endpointRate: 30, maxRetries: 12)
        try await faulty.extract(store: store, client: client)
        #expect(try H.contents(store) == expected)
        let stats = faulty.server.requestStats
        #expect(stats.injectedFailures > 0)
        #expect(stats.rateLimited > 0)
        #expect(await client.stats.retries >= stats.injectedFailures)
        try await faulty.close()
    }

    @Test("the budget keeps requests under the configured limits, measured at the server: no 429 at all")
    func budgetKeepsUnderLimits() async throws {
        // The server enforces the configured limits plus 10 % for arrival jitter on a busy 2-core machine.
        let harness = try await H {
            $0.charges = 1_500
            $0.rateLimit = 33
            $0.endpointRateLimit = 11
        }
        let store = try harness.store()
        let client = try harness.client(globalRate: 30, endpointRate: 10)
        try await harness.extract(store: store, client: client, concurrency: 16)
        let stats = harness.server.requestStats
        #expect(stats.total > 60, "enough requests to exceed the limits without the budget")
        #expect(stats.rateLimited == 0)
        #expect(await client.stats.rateLimited == 0)
        try await harness.close()
    }

    @Test("an interrupted extraction resumes from its checkpoints and ends with the same history")
    func resumesAfterInterruption() async throws {
        // Day-long windows and two workers: no worker is ever idle, so no window splits and page counts are stable.
        let harness = try await H { $0.charges = 1_500 }
        let clean = try harness.store("clean")
        let cleanRun = try await harness.extract(
            store: clean, client: try harness.client(), concurrency: 2, windowSeconds: H.day)
        let expected = try H.contents(clean)

        // Given an extraction that dies after 60 requests
        let store = try harness.store("resumed")
        let dying = try harness.client(transport: DyingTransport(try H.curl(), limit: 60))
        await #expect(throws: StripeClientError.self) {
            try await harness.extract(store: store, client: dying, concurrency: 2, windowSeconds: H.day)
        }
        #expect(try H.contents(store).values.map(\.count).reduce(0, +) > 0)

        // When the next run of the same range starts
        let (_, summary) = try await harness.extract(
            store: store, client: try harness.client(), concurrency: 2, windowSeconds: H.day)

        // Then it skipped the finished windows and their pages, and the history equals an uninterrupted run's
        #expect(summary.resumedWindows >= 10)
        #expect(summary.pages <= cleanRun.summary.pages - 20)
        #expect(try H.contents(store) == expected)
        try await harness.close()
    }
}
