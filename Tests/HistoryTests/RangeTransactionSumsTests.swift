import Foundation
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// The range's balance transactions added up in one pass (``RangeTransactionSums``), and what the same pass finds for
/// the last parts to read whole: the transactions that may be Stripe's costs and the connect collection transfers.
@Suite("History store: the range's sums")
struct RangeTransactionSumsTests {
    static let from = BalanceHistoryTests.from
    static let to = BalanceHistoryTests.to

    /// In the range: a `stripe_fee`, a `network_cost`, an adjustment whose category is `fee`, a collection transfer
    /// and a charge; a `stripe_fee` before the range and a collection transfer after it.
    static func batch() -> ObjectLists {
        func transaction(
            _ id: String, created: Int64, type: BalanceTransactionType, category: ReportingCategory
        ) -> BalanceTransactionFacts {
            BalanceHistoryTests.transaction(id, created: created, net: -100, type: type, category: category)
        }
        let transactions = [
            transaction("txn_fee", created: from + 60, type: .stripeFee, category: .fee),
            transaction("txn_network", created: from + 120, type: .networkCost, category: .networkCost),
            transaction("txn_adjusted", created: from + 180, type: "adjustment", category: .fee),
            transaction(
                "txn_collected", created: from + 240, type: .connectCollectionTransfer,
                category: "connect_collection_transfer"),
            transaction("txn_charge", created: from + 300, type: "charge", category: "charge"),
            transaction("txn_earlier_fee", created: from - 60, type: .stripeFee, category: .fee),
            transaction(
                "txn_later_collection", created: to, type: .connectCollectionTransfer,
                category: "connect_collection_transfer"),
        ]
        var batch = ObjectLists()
        batch[stored: BalanceTransactionFacts.self] = transactions.map {
            StoredObject(facts: $0, rawJSON: #"{"id":"\#($0.id)"}"#)
        }
        return batch
    }

    /// The range's sums in a new history of `backend` holding ``batch()``.
    static func sums(_ backend: TestHistoryBackend) async throws -> RangeTransactionSums? {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        let run = try store.runs.beginRun(start(from: from, to: to)).runID
        _ = try await store.objects.write(batch(), run: run, now: to)
        return try withExtendedLifetime(database) {
            try store.read { db in try RangeTransactionSums.read(db, from: from, to: to) }
        }
    }

    @Test("SQLite's pass over the range also finds its possible costs and collection transfers, and nothing else")
    func theSumsFindWhatThePartsReadWhole() async throws {
        let sums = try await Self.sums(.sqlite)
        #expect(sums?.readWhole?.sorted() == ["txn_adjusted", "txn_collected", "txn_fee", "txn_network"])
        // The five of the range are added up, the two outside it are not.
        #expect(sums?.groups.reduce(0) { $0 + $1.row.count } == 5)
    }

    @Test("PostgreSQL adds the range up itself, so the parts scan for what they read whole", .postgreSQLServer)
    func postgreSQLLeavesThemToTheParts() async throws {
        let sums = try await Self.sums(.postgreSQL)
        #expect(sums != nil)
        #expect(sums?.readWhole == nil)
    }
}
