import Foundation
import ReconCore
import Sandbox
import SandboxTruth
import Testing

/// Separate charges and transfers (docs/RULES.md; docs/RULES.md, "transfer groups"): charges with no destination whose
/// platform pays connected accounts with transfers it makes itself, as the sandbox serves them (Stripe's shapes) and
/// as its ground truth counts them.
@Suite(.serialized) struct TransferGroupSandboxTests {
    static let start = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01
    static let utc = TimeZone(identifier: "UTC") ?? .current
    static let world = SandboxWorld(seed: 42, charges: 400, start: start, days: 10)
    static let scenarios: [SandboxScenario] = [
        .transferGroupSplit, .transferGroupTwoCharges, .sourceTransactionOnly, .bonusTransfer, .groupRefundRecovered,
        .groupRefundNotRecovered, .groupDisputeReversed, .groupDisputeNotReversed, .transferGroupCrossCurrency,
    ]

    static func truth(_ world: SandboxWorld, from: Date? = nil, to: Date? = nil) throws -> GroundTruth {
        let range = try ReportingRange(from: from ?? world.start, to: to ?? world.end, timeZone: utc)
        return world.groundTruth(for: range, asOf: world.end, skippedTransferGrace: 3_600)
    }

    static func id(_ scenario: SandboxScenario, in world: SandboxWorld = world) throws -> String {
        try #require(world.ids(for: scenario).first, "\(scenario.rawValue) is in the world")
    }

    /// The group row of the charge `chargeID` (its `transfer_group`, else its id).
    static func row(_ truth: GroundTruth, group: String) throws -> TransferGroupRow {
        try #require(truth.transferGroups.first { $0.transferGroup == group }, "\(group) has a row")
    }

    @Test func everyScenarioIsInASmallWorld() {
        for scenario in Self.scenarios {
            #expect(!Self.world.ids(for: scenario).isEmpty, "\(scenario.rawValue)")
        }
        #expect(Self.world.ids(for: .transferGroupTwoCharges).count == 2)
    }

    // MARK: Stripe's shapes

    @Test func aSplitChargeIsServedAsStripeServesSeparateChargesAndTransfers() async throws {
        // Given the sandbox serving the world
        let server = try await startServer(charges: 400, seed: 42, days: 10)
        defer { Task { try? await server.shutdown() } }
        let connection = try WireConnection(port: server.port)
        let chargeID = try Self.id(.transferGroupSplit, in: server.world)

        // When the split charge and its PaymentIntent are read
        let charge = try connection.object("/v1/charges/\(chargeID)")
        let group = try #require(charge.string("transfer_group"))
        let intent = try connection.object("/v1/payment_intents/\(try #require(charge.string("payment_intent")))")

        // Then the charge has no destination and carries the platform's group, as its PaymentIntent does
        #expect(group.hasPrefix("order_"))
        #expect(charge["transfer_data"] is NSNull && charge["transfer"] == nil && charge["on_behalf_of"] is NSNull)
        #expect(charge["application_fee"] is NSNull && charge["application_fee_amount"] is NSNull)
        #expect(intent.string("transfer_group") == group && intent["transfer_data"] is NSNull)
        #expect(try connection.list("/v1/charges?transfer_group=\(group)").compactMap { $0.string("id") } == [chargeID])

        // And the group's transfers: 60.00 naming the charge as source, minutes later, and 25.00 of the group only,
        // the day after the charge's day, 10.00 of it reversed by hand
        let transfers = try connection.list("/v1/transfers?transfer_group=\(group)")
        #expect(transfers.count == 2)
        let created = try #require(charge.int("created"))
        let nextMidnight = (created / 86_400 + 1) * 86_400
        let restaurant = try #require(transfers.first { $0.int("amount") == 6_000 })
        let courier = try #require(transfers.first { $0.int("amount") == 2_500 })
        #expect(restaurant.string("source_transaction") == chargeID)
        #expect(courier["source_transaction"] is NSNull)
        #expect(transfers.allSatisfy { $0.string("transfer_group") == group && $0.string("currency") == "usd" })
        #expect(restaurant.string("destination") != courier.string("destination"))
        #expect((restaurant.int("created") ?? 0) > created && (restaurant.int("created") ?? 0) < nextMidnight)
        #expect((courier.int("created") ?? 0) >= nextMidnight)
        #expect(restaurant.int("amount_reversed") == 0 && courier.int("amount_reversed") == 1_000)
        let reversal = try #require(courier.object("reversals")?.list("data")?.first)
        #expect(reversal["source_refund"] is NSNull && (reversal.int("created") ?? 0) > (courier.int("created") ?? 0))

        // And each transfer has its `transfer` balance transaction (negative), the reversal its `transfer_refund`
        for transfer in [restaurant, courier] {
            let bt = try connection.object(
                "/v1/balance_transactions/\(try #require(transfer.string("balance_transaction")))")
            #expect(bt.string("type") == "transfer" && bt.int("amount") == -(transfer.int("amount") ?? 0))
            #expect(bt.string("source") == transfer.string("id"))
        }
        let reversalBT = try connection.object(
            "/v1/balance_transactions/\(try #require(reversal.string("balance_transaction")))")
        #expect(reversalBT.string("type") == "transfer_refund" && reversalBT.int("amount") == 1_000)
        try await server.shutdown()
    }

    @Test func sourceOnlyBonusAndGroupedRefundsHaveStripesShapes() async throws {
        let server = try await startServer(charges: 400, seed: 42, days: 10)
        defer { Task { try? await server.shutdown() } }
        let connection = try WireConnection(port: server.port)
        let transfers = try connection.list("/v1/transfers")

        // A charge with no group whose transfer names it as source_transaction, with no group either
        let sourceOnly = try Self.id(.sourceTransactionOnly, in: server.world)
        let charge = try connection.object("/v1/charges/\(sourceOnly)")
        #expect(charge["transfer_group"] is NSNull && charge["transfer_data"] is NSNull)
        let funded = transfers.filter { $0.string("source_transaction") == sourceOnly }
        #expect(funded.count == 1 && funded.allSatisfy { $0["transfer_group"] is NSNull })

        // A bonus: no source, no group
        let bonus = try connection.object("/v1/transfers/\(try Self.id(.bonusTransfer, in: server.world))")
        #expect(bonus["source_transaction"] is NSNull && bonus["transfer_group"] is NSNull)

        // A refund of a group charge never reverses its transfers: the platform does, by hand, with no source_refund
        for scenario in [SandboxScenario.groupRefundRecovered, .groupRefundNotRecovered] {
            let chargeID = try Self.id(scenario, in: server.world)
            let refunds = try connection.list("/v1/refunds?charge=\(chargeID)")
            #expect(refunds.count == 1 && refunds.allSatisfy { $0["transfer_reversal"] is NSNull })
            let group = try #require(try connection.object("/v1/charges/\(chargeID)").string("transfer_group"))
            let reversals = try connection.list("/v1/transfers?transfer_group=\(group)")
                .flatMap { $0.object("reversals")?.list("data") ?? [] }
            #expect(!reversals.isEmpty && reversals.allSatisfy { $0["source_refund"] is NSNull })
            let refunded = try #require(refunds.first?.int("created"))
            #expect(reversals.allSatisfy { ($0.int("created") ?? 0) > refunded })
        }
        // Destination charges keep Stripe's own group_pi_… label on the charge, its PaymentIntent and its transfer
        let destination = try Self.id(.seedExampleTransferAmount, in: server.world)
        let destinationCharge = try connection.object("/v1/charges/\(destination)")
        let label = try #require(destinationCharge.string("transfer_group"))
        #expect(label == "group_" + (destinationCharge.string("payment_intent") ?? "-"))
        #expect(
            try connection.list("/v1/transfers?transfer_group=\(label)").compactMap { $0.string("id") }
                == [destinationCharge.string("transfer") ?? "-"])
        try await server.shutdown()
    }

    // MARK: The ground truth's figures

    @Test func theSplitChargesTakeIsTwentyFiveDollarsEvenInAOneDayRangeBeforeItsLateTransfer() throws {
        // Given the split charge and the one-day range of its day (its courier transfer comes the day after)
        let chargeID = try Self.id(.transferGroupSplit)
        let json = try #require(Self.world.renderedObject(id: chargeID))
        let charge = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let group = try #require(charge.string("transfer_group"))
        let day = Date(timeIntervalSince1970: TimeInterval((try #require(charge.int("created")) / 86_400) * 86_400))
        for truth in [try Self.truth(Self.world), try Self.truth(Self.world, from: day, to: day + 86_400)] {
            // Then its row: 100.00 charged, 85.00 transferred, 10.00 reversed, a take of 25.00
            let row = try Self.row(truth, group: group)
            #expect(row.currency == .usd && row.charges == 1 && row.transfers == 2)
            #expect(row.charged == 10_000 && row.refunded == 0 && row.transferred == 8_500 && row.reversed == 1_000)
            #expect(row.platformTake == 2_500)
            #expect(row.created == charge.int("created") && row.settlementCurrency == .usd)
            #expect(row.stripeFee == 320)  // 2.9 % + 0.30
            // platform net: 100.00 − 3.20 − 85.00 + 10.00
            let net: Int64 = 10_000 - 320 - 8_500 + 1_000
            #expect(row.platformNet == net)
            #expect(!truth.exceptions.contains { $0.objectID == group })
        }
        // The day's summary counts the group's take
        let dayTruth = try Self.truth(Self.world, from: day, to: day + 86_400)
        let usd = try #require(dayTruth.summary.first { $0.currency == .usd })
        #expect(usd.transferGroups == dayTruth.transferGroups.filter { $0.currency == .usd }.count)
        #expect(
            usd.platformTake
                == dayTruth.transferGroups.filter { $0.currency == .usd }.compactMap(\.platformTake)
                .reduce(0, +))
    }

    @Test func twoChargesOfOneGroupMakeOneRow() throws {
        let ids = Self.world.ids(for: .transferGroupTwoCharges)
        let groups = try ids.map { id -> String in
            let json = try #require(Self.world.renderedObject(id: id))
            let charge = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            return try #require(charge.string("transfer_group"))
        }
        #expect(groups.count == 2 && Set(groups).count == 1)
        let row = try Self.row(try Self.truth(Self.world), group: groups[0])
        // 40.00 and 60.00, transferred 32.00 and 42.00: take 26.00
        #expect(row.charges == 2 && row.transfers == 2)
        #expect(row.charged == 10_000 && row.transferred == 7_400 && row.platformTake == 2_600)
    }

    @Test func groupRefundsAreJudgedByTheMoneyTheTransfersGaveBack() throws {
        let truth = try Self.truth(Self.world)
        func group(_ scenario: SandboxScenario) throws -> String {
            let json = try #require(Self.world.renderedObject(id: try Self.id(scenario)))
            let charge = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            return try #require(charge.string("transfer_group"))
        }
        // 40.00 refunded of 100.00 that transferred 85.00: the 34.00 share reversed by hand, no finding
        let recovered = try group(.groupRefundRecovered)
        let recoveredRow = try Self.row(truth, group: recovered)
        #expect(recoveredRow.refunded == 4_000 && recoveredRow.reversed == 3_400)
        let take: Int64 = 6_000 - (8_500 - 3_400)
        #expect(recoveredRow.platformTake == take)
        #expect(!truth.exceptions.contains { $0.objectID == recovered })
        // 100.00 eur refunded of 200.00 that transferred 140.00: 35.00 of the 70.00 share, refund_not_recovered
        let short = try group(.groupRefundNotRecovered)
        let finding = try #require(truth.exceptions.first { $0.objectID == short })
        #expect(finding.kind == .refundNotRecovered && finding.relatedID == nil && finding.currency == .eur)
        #expect(finding.expected == .amount(7_000) && finding.actual == .amount(3_500))
    }

    @Test func groupDisputesAreRecoveredFromTheGroupsTransfers() throws {
        let truth = try Self.truth(Self.world)
        // Needing a response, one transfer of 40.00, nothing reversed: unreversed, naming its account and transfer
        let notReversed = try Self.id(.groupDisputeNotReversed)
        let row = try #require(truth.unreversedDisputes.first { $0.chargeID == notReversed })
        #expect(row.recoverable == 4_000 && row.recovered == 0 && row.unrecovered == 4_000)
        #expect(row.destinationAccount != nil && row.transferID != nil)
        // Lost and reversed in full from its two transfers: no row
        let reversed = try Self.id(.groupDisputeReversed)
        #expect(!truth.unreversedDisputes.contains { $0.chargeID == reversed })
        // Half recovered from two transfers to two accounts: a row naming neither
        let partial = try #require(
            truth.unreversedDisputes.first {
                $0.currency == .gbp && $0.transferID == nil
                    && Self.world.ids(for: .groupDisputeReversed).contains($0.chargeID)
            })
        #expect(partial.destinationAccount == nil && partial.recovered > 0 && partial.unrecovered > 0)
    }

    @Test func aGroupInTwoCurrenciesTakesItsFiguresFromTheBalanceTransactions() throws {
        let json = try #require(Self.world.renderedObject(id: try Self.id(.transferGroupCrossCurrency)))
        let charge = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(charge.string("currency") == "eur")
        let row = try Self.row(try Self.truth(Self.world), group: try #require(charge.string("transfer_group")))
        #expect(row.currency == .usd && row.settlementCurrency == .usd)
        let charged = try #require(row.charged)
        let transferred = try #require(row.transferred)
        // 100.00 eur settled at about 1.07–1.10 usd; 80.00 eur paid as 86.96 usd (the reference rate)
        #expect((10_700...11_000).contains(charged) && transferred == 8_696)
        #expect(row.platformTake == charged - transferred)
    }

    @Test func noTransferIsATransferSourceNotDestinationChargeAnyMore() throws {
        let truth = try Self.truth(Self.world)
        #expect(!truth.exceptions.contains { $0.kind.rawValue == "transfer_source_not_destination_charge" })
        let sourceOnly = try Self.id(.sourceTransactionOnly)
        let row = try Self.row(truth, group: sourceOnly)
        #expect(row.charges == 1 && row.transfers == 1 && row.refunded == 0)
        // Bonus transfers make no row
        #expect(truth.transferGroups.count == Set(truth.transferGroups.map(\.transferGroup)).count)
    }

    // MARK: The random share

    @Test func theRandomShareAddsGroupsAndZeroKeepsTheWorld() throws {
        let plain = SandboxWorld(seed: 11, charges: 600, start: Self.start, days: 10)
        let zero = SandboxWorld(seed: 11, charges: 600, start: Self.start, days: 10, transferGroupShare: 0)
        let grouped = SandboxWorld(seed: 11, charges: 600, start: Self.start, days: 10, transferGroupShare: 0.3)
        #expect(plain.counts == zero.counts)
        #expect(try Self.truth(plain).jsonData() == Self.truth(zero).jsonData())
        let plainTruth = try Self.truth(plain)
        let truth = try Self.truth(grouped)
        #expect(truth.transferGroups.count > plainTruth.transferGroups.count + 80)
        #expect(truth.transferGroups.allSatisfy { $0.currency != nil && $0.platformNet != nil })
        #expect(truth.transferGroups.contains { $0.transfers >= 3 })
        #expect(truth.transferGroups.contains { $0.transferGroup.hasPrefix("ch_") })
        #expect(truth.transferGroups.contains { ($0.refunded ?? 0) > 0 })
        #expect(truth.transferGroups.contains { ($0.reversed ?? 0) > 0 })
        #expect(grouped.ids(for: .groupRefundRecovered).count > 2)
        // The Summary adds up the rows' takes
        for summary in truth.summary {
            let rows = truth.transferGroups.filter { $0.currency == summary.currency }
            #expect(summary.transferGroups == rows.count)
            #expect(summary.platformTake == rows.compactMap(\.platformTake).reduce(0, +))
        }
    }

    @Test func aWorldServedAsOfAnEarlierMomentShowsTheGroupAsItStoodThen() throws {
        // Given the split charge's world as of the midnight after its day: its courier transfer is not made yet
        let chargeID = try Self.id(.transferGroupSplit)
        let json = try #require(Self.world.renderedObject(id: chargeID))
        let charge = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let group = try #require(charge.string("transfer_group"))
        let midnight = Date(
            timeIntervalSince1970: TimeInterval((try #require(charge.int("created")) / 86_400 + 1) * 86_400))
        let earlier = Self.world.served(asOf: midnight)
        let range = try ReportingRange(from: midnight - 86_400, to: midnight, timeZone: Self.utc)
        let truth = earlier.groundTruth(for: range, asOf: midnight, skippedTransferGrace: 3_600)
        // Then the row holds the restaurant's transfer only: a take of 40.00
        let row = try Self.row(truth, group: group)
        #expect(row.transfers == 1 && row.transferred == 6_000 && row.platformTake == 4_000)
    }
}
