import Foundation
import Sandbox
import Testing

/// Expansions as Stripe treats them: a nested list's items expand through `data`, four levels at most (a list's
/// `data` counts), and every expanded object costs the configured latency.
@Suite("Expansions as Stripe treats them")
struct ExpansionTests {
    @Test func theItemsOfNestedListsExpandThroughData() async throws {
        // Given a world with charges refunded with a transfer reversal and an application fee refund
        let server = try await startServer(charges: 300)
        let chargeID = try #require(server.world.ids(for: .seedExampleFullRefundReversed).first)

        // When a charge is listed with its refunds and their balance transactions expanded (four levels)
        let charge = try get(
            server,
            "/v1/charges/\(chargeID)?expand[]=refunds.data.balance_transaction"
                + "&expand[]=transfer.reversals.data.balance_transaction"
        ).json()
        // Then each refund carries its balance transaction, and so does each reversal of the transfer
        let refunds = try #require(charge.object("refunds")?.list("data"))
        #expect(!refunds.isEmpty)
        #expect(refunds.allSatisfy { $0.object("balance_transaction")?.string("reporting_category") == "refund" })
        let reversals = try #require(charge.object("transfer")?.object("reversals")?.list("data"))
        #expect(!reversals.isEmpty)
        #expect(
            reversals.allSatisfy {
                $0.object("balance_transaction")?.string("reporting_category") == "transfer_reversal"
            })

        // And the lists of transfers and application fees expand their reversals' and refunds' transactions
        let transfers =
            try get(server, "/v1/transfers?limit=100&expand[]=data.reversals.data.balance_transaction")
            .json().list("data") ?? []
        let reversed = transfers.compactMap { $0.object("reversals")?.list("data") }.joined()
        #expect(!reversed.isEmpty)
        #expect(reversed.allSatisfy { $0.object("balance_transaction")?.string("object") == "balance_transaction" })
        let fees =
            try get(server, "/v1/application_fees?limit=100&expand[]=data.refunds.data.balance_transaction")
            .json().list("data") ?? []
        let feeRefunds = fees.compactMap { $0.object("refunds")?.list("data") }.joined()
        #expect(!feeRefunds.isEmpty)
        #expect(feeRefunds.allSatisfy { $0.object("balance_transaction")?.string("object") == "balance_transaction" })
        try await server.shutdown()
    }

    @Test func anExpansionDeeperThanFourLevelsIsRefused() async throws {
        let server = try await startServer(charges: 60)
        // Four levels, `data` included, are allowed
        #expect(try get(server, "/v1/charges?expand[]=data.refunds.data.balance_transaction").status == 200)
        #expect(try get(server, "/v1/refunds?expand[]=data.charge.transfer.balance_transaction").status == 200)
        // Five are not, with Stripe's 400
        let tooDeep = try get(server, "/v1/charges?expand[]=data.transfer.reversals.data.balance_transaction")
        #expect(tooDeep.status == 400)
        let error = try #require(try tooDeep.json().object("error"))
        #expect(error.string("param") == "expand")
        #expect(error.string("message")?.contains("more than 4 levels") == true)
        // A list's items are reached through `data` only
        #expect(try get(server, "/v1/transfers?expand[]=data.reversals.balance_transaction").status == 400)
        try await server.shutdown()
    }

    @Test func everyExpandedObjectCostsTheExpansionLatency() async throws {
        // Given a sandbox that charges 20 ms per expanded object
        let server = try await startServer(charges: 60) { $0.expansionLatency = .milliseconds(20) }
        // Real time on purpose, not a ManualClock: the sandbox holds its answers on the event loop's timers, in
        // real time, as the network it stands in for would (the extraction benchmark measures against that delay),
        // and what is tested is that the answer really comes that much later. Only a lower bound is checked, which a
        // loaded machine can only exceed.
        let clock = ContinuousClock()
        // When ten charges are listed with their PaymentIntents expanded
        let before = server.requestStats.expandedObjects
        let expandedStart = clock.now
        let expanded = try get(server, "/v1/charges?limit=10&expand[]=data.payment_intent")
        let elapsed = clock.now - expandedStart
        // Then the server counted ten expanded objects and took at least 10 × 20 ms longer to answer
        #expect(expanded.status == 200)
        #expect(server.requestStats.expandedObjects - before == 10)
        #expect(elapsed >= .milliseconds(200))
        try await server.shutdown()
    }
}
