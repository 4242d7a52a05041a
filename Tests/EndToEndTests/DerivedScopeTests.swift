import ConnectReconTestSupport
import Foundation
import History
import ReconCore
import Sandbox
import TestSupport
import Testing

/// The scope the history derives from the object graph (the parts of a range, merged) holds exactly what
/// docs/EXTRACTION.md says a range covers, as the end-to-end tests' own scope (`ObjectLists.closure`, written apart
/// from the catalogue) computes it from the sandbox's world: on both databases, for a range inside a longer history.
@Suite("The derived scope", .serialized)
struct DerivedScopeTests {
    @Test(
        "the parts of an extracted range hold exactly the range's scope, computed independently, on PostgreSQL",
        .postgreSQLServer)
    func derivedScopeMatchesAnIndependentOneOnPostgreSQL() async throws {
        try await derivedScopeMatchesAnIndependentOne(backend: .postgreSQL)
    }

    @Test(
        "the parts of an extracted range hold exactly the range's scope, computed independently",
        arguments: [TestHistoryBackend.sqlite])
    func derivedScopeMatchesAnIndependentOne(backend: TestHistoryBackend) async throws {
        // Given a world of 10 days, and days 4–6 of it extracted into a history: refunds and disputes of older
        // charges arrive in the range, and its own charges are refunded and disputed after it
        var options = SandboxOptions()
        options.seed = 7
        options.charges = 500
        options.days = 10
        let server = try await SandboxServer.start(options)
        let world = server.world
        let from = world.start.addingTimeInterval(3 * 86_400)  // 2026-11-04
        let to = from.addingTimeInterval(3 * 86_400)
        let folder = try TemporaryFolder()
        let database = try backend.newHistory(in: folder)
        let result = await CLI.run(
            [
                "extract", "--config", try folder.write("config.yaml", ""), "--from", "2026-11-04", "--to",
                "2026-11-07", "--db", database, "--api-base", server.baseURL.absoluteString,
            ], environment: ["STRIPE_API_KEY": CLI.testKey])
        let port = server.port
        let everything = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try SandboxFacts.read(port: port) }) }
        }
        try await server.shutdown()
        #expect(result.status == 0, "\(result.error)")

        // When the history's parts of the range are merged, and the world's scope is computed apart
        let store = try HistoryStore.open(try HistoryLocation(database))
        let (start, end) = (Int64(from.timeIntervalSince1970), Int64(to.timeIntervalSince1970))
        let derived = try store.parts.whole(
            from: start, to: end, asOf: Int64(world.end.timeIntervalSince1970), skippedTransferGrace: 0,
            chargesPerPart: 50
        ).objects
        let independent = everything.closure(from: start, to: end)
        let balanceRead = try #require(try await store.balance.snapshots().last?.end, "the extraction read the balance")

        // Then, of what the history holds, they hold the same objects of every kind (the history lacks some of the
        // independent scope on purpose: an older charge's fee, refunds and disputes made outside the range, which
        // no rule reads); of balance transactions, the parts hold those named by what they hold and the payouts'
        // (the range's others are added up by the ledger part, not read)
        func check<Facts: ObjectFacts>(_ type: Facts.Type) throws {
            let stored = Set(try store.objects.ids(of: Facts.kind, createdFrom: .min, to: .max))
            let expected = Set(independent[type].map(\.id)).intersection(stored)
            let found = Set(derived[type].map(\.id))
            #expect(found.isSubset(of: stored))
            guard Facts.kind == .balanceTransaction else {
                #expect(found == expected, "\(Facts.kind): \(found.symmetricDifference(expected).sorted())")
                return
            }
            #expect(found.isSubset(of: expected), "\(found.subtracting(expected).sorted())")
            let onlyAddedUp = independent[type].filter { expected.contains($0.id) && !found.contains($0.id) }
            // The range's, added up by the ledger; or made after it up to Stripe's balance read, which the extraction
            // lists to carry the balance back to the range's end (docs/RULES.md, "The books close").
            #expect(
                onlyAddedUp.allSatisfy { start <= $0.created && ($0.created < end || $0.created < balanceRead) },
                "read, not added up")
        }
        #expect(!derived.charges.isEmpty && !derived.refunds.isEmpty && !derived.disputes.isEmpty)
        for kind in ObjectKind.allCases { try check(kind.entry.facts) }
        #expect(Set(derived.payoutTransactions) == Set(independent.payoutTransactions))
    }
}
