import Foundation
import Sandbox
import Testing

/// A range sits inside a longer history: refunds, disputes and fee refunds come days or weeks after what they
/// undo, and the world's end, its "now", need not be a midnight.
@Suite struct HistoryTests {
    static let start = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01
    static let day: Int64 = 86_400

    @Test func refundsAndDisputesArriveLongAfterTheirCharges() async throws {
        // Given a 60-day world
        let server = try await startServer(charges: 6_000, seed: 3, days: 60)
        let connection = try WireConnection(port: server.port)

        // When its refunds and disputes are listed with their charges
        let refunds = try listAll(connection, "/v1/refunds?expand[]=data.charge")
        let disputes = try listAll(connection, "/v1/disputes?expand[]=data.charge")
        func delays(_ objects: [[String: Any]]) -> [Int64] {
            objects.map { ($0.int("created") ?? 0) - ($0.object("charge")?.int("created") ?? 0) }
        }
        // (Stripe's refunds of an uncaptured remainder come at capture time: only the platform's own refunds count.)
        let refundDelays = delays(refunds.filter { $0.string("reason") == "requested_by_customer" })
        let disputeDelays = delays(disputes)

        // Then some refunds come a week or more after their charge, and some disputes a month or more after
        #expect(refundDelays.allSatisfy { $0 >= 600 })
        #expect(refundDelays.contains { $0 >= 7 * Self.day }, "a refund ≥ 7 days after its charge")
        #expect(refundDelays.filter { $0 < 3 * Self.day }.count > refundDelays.count / 2, "most within 3 days")
        #expect(disputeDelays.contains { $0 >= 30 * Self.day }, "a dispute ≥ 30 days after its charge")
        #expect(disputeDelays.allSatisfy { $0 > 0 })
        // And every one of them happened before the world's "now"
        let end = Int64(server.world.end.timeIntervalSince1970)
        #expect((refunds + disputes).allSatisfy { ($0.int("created") ?? .max) < end })
        try await server.shutdown()
    }

    @Test func someApplicationFeesAreRefundedSeparatelyAfterTheirRefund() async throws {
        // Given the charges whose refund left the application fee alone until the platform refunded it later
        let server = try await startServer(charges: 2_000, seed: 42)
        let connection = try WireConnection(port: server.port)
        let charges = server.world.ids(for: .applicationFeeRefundedLater)
        #expect(!charges.isEmpty)

        for chargeID in charges.prefix(10) {
            // When the charge, its refunds and its fee's refunds are read
            let charge = try connection.request("/v1/charges/\(chargeID)?expand[]=application_fee").json()
            let fee = try #require(charge.object("application_fee"))
            let refunds = try listAll(connection, "/v1/refunds?charge=\(chargeID)")
            let feeRefunds = try listAll(
                connection, "/v1/application_fees/\(fee.string("id") ?? "")/refunds?expand[]=data.balance_transaction")
            let refundTimes = Set(refunds.compactMap { $0.int("created") })

            // Then a fee refund comes after a refund, on its own, with its own negative balance transaction
            let later = feeRefunds.filter { !refundTimes.contains($0.int("created") ?? 0) }
            #expect(!later.isEmpty, "\(chargeID)")
            for feeRefund in later {
                let created = feeRefund.int("created") ?? 0
                #expect(refundTimes.contains { $0 < created && created - $0 <= 5 * Self.day })
                let bt = try #require(feeRefund.object("balance_transaction"))
                #expect(bt.string("type") == "application_fee_refund")
                #expect((bt.int("amount") ?? 0) < 0)
            }
            // And the fee never refunds more than it was
            let refunded = feeRefunds.reduce(Int64(0)) { $0 + ($1.int("amount") ?? 0) }
            #expect(refunded == fee.int("amount_refunded"))
            #expect(refunded <= fee.int("amount") ?? 0)
        }
        try await server.shutdown()
    }

    @Test func aWorldCanEndInTheMiddleOfADay() async throws {
        // Given a sandbox of 3 days and 5 hours
        let server = try await startServer(charges: 300, seed: 8, days: 3) { $0.hours = 5 }
        let world = server.world

        // Then its end is 05:00 UTC, named in the summary line, and nothing is created at or after it
        #expect(world.end == world.start.addingTimeInterval(3 * 86_400 + 5 * 3_600))
        #expect(server.summary.contains("2026-11-01..2026-11-04T05:00:00Z"))
        let end = Int64(world.end.timeIntervalSince1970)
        let connection = try WireConnection(port: server.port)
        for resource in ["charges", "refunds", "disputes", "balance_transactions", "payouts"] {
            let newest = try connection.request("/v1/\(resource)?limit=1").json().list("data")?.first
            #expect((newest?.int("created") ?? 0) < end, "\(resource)")
        }
        // And the young charges are in its last hour, as in a world that ends at midnight
        let young = try world.ids(for: .youngCharge).map { id in
            try #require(try connection.request("/v1/charges/\(id)").json().int("created"))
        }
        #expect(young.count == 2 && young.allSatisfy { end - $0 < 3_600 })
        try await server.shutdown()
    }

    @Test func theEndInitializerAndTheDaysInitializerMakeTheSameWorld() throws {
        // Given the same world made from a number of days and from its end
        let byDays = SandboxWorld(seed: 5, charges: 200, start: Self.start, days: 10)
        let byEnd = SandboxWorld(seed: 5, charges: 200, start: Self.start, end: Self.start.addingTimeInterval(864_000))

        // Then they are the same objects
        #expect(byDays.counts == byEnd.counts)
        #expect(byDays.end == byEnd.end)
        for id in byDays.ids(for: .fullRefundReversed) + byDays.ids(for: .payoutFailed) {
            #expect(byDays.renderedObject(id: id) == byEnd.renderedObject(id: id))
        }
    }

    @Test func theSandboxRejectsExtraHoursOutsideADay() async throws {
        // Given options with 24 extra hours, when the server starts, then it refuses with a bad-input error
        await #expect(throws: SandboxError.self) {
            _ = try await startServer(charges: 10) { $0.hours = 24 }
        }
    }
}
