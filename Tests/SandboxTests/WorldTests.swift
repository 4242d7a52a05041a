import Foundation
import ReconCore
import Sandbox
import SandboxTruth
import Testing

/// The world: deterministic, covering every situation of docs/RULES.md, and its ground truth.
@Suite struct WorldTests {
    static let utc = TimeZone(identifier: "UTC") ?? .current
    static let start = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01

    static func wholeWorld(_ world: SandboxWorld) throws -> ReportingRange {
        try ReportingRange(from: world.start, to: world.end, timeZone: utc)
    }

    @Test func theSameSeedRendersIdenticalJSONAndAnotherSeedDiffers() throws {
        let first = SandboxWorld(seed: 99, charges: 300, start: Self.start, days: 30)
        let second = SandboxWorld(seed: 99, charges: 300, start: Self.start, days: 30)
        let other = SandboxWorld(seed: 100, charges: 300, start: Self.start, days: 30)
        #expect(first.counts == second.counts)
        var rendered = 0
        for scenario in SandboxScenario.allCases {
            for id in first.ids(for: scenario).prefix(3) {
                let a = try #require(first.renderedObject(id: id))
                #expect(a == second.renderedObject(id: id), "\(id)")
                #expect(other.renderedObject(id: id) == nil, "ids of one seed do not resolve in another")
                rendered += 1
            }
        }
        #expect(rendered > 50)
        let range = try Self.wholeWorld(first)
        let truthA = first.groundTruth(for: range, asOf: first.end, skippedTransferGrace: 3600)
        let truthB = second.groundTruth(for: range, asOf: second.end, skippedTransferGrace: 3600)
        #expect(try truthA.jsonData() == truthB.jsonData())
        let truthOther = other.groundTruth(for: range, asOf: other.end, skippedTransferGrace: 3600)
        #expect(try truthA.jsonData() != truthOther.jsonData())
    }

    @Test func theDefaultWorldCoversEverySituationOfTheSpec() throws {
        let world = SandboxWorld(seed: 42, charges: 2_000, start: Self.start, days: 30)
        let optIn = SandboxScenario.movedByHand.union(SandboxScenario.otherMoney)
        for scenario in SandboxScenario.allCases where !optIn.contains(scenario) {
            #expect(!world.ids(for: scenario).isEmpty, "\(scenario.rawValue) appears in the default world")
        }
        // and money moved by hand, and the platform's other money, in a world made with it, and in no other
        let moving = SandboxWorld(seed: 42, charges: 2_000, start: Self.start, days: 30, movesByHand: true)
        for scenario in SandboxScenario.movedByHand {
            #expect(!moving.ids(for: scenario).isEmpty && world.ids(for: scenario).isEmpty, "\(scenario.rawValue)")
        }
        let other = SandboxWorld(seed: 42, charges: 2_000, start: Self.start, days: 30, otherMoney: true)
        for scenario in SandboxScenario.otherMoney {
            #expect(!other.ids(for: scenario).isEmpty && world.ids(for: scenario).isEmpty, "\(scenario.rawValue)")
        }
        let truth = world.groundTruth(for: try Self.wholeWorld(world), asOf: world.end, skippedTransferGrace: 3600)
        #expect(!truth.platformFees.isEmpty)
        #expect(!truth.skippedTransfers.isEmpty)
        #expect(!truth.unreversedDisputes.isEmpty)
        #expect(!truth.ledger.isEmpty)
        #expect(!truth.summary.isEmpty)
        let kinds = Set(truth.exceptions.map(\.kind))
        // Every kind the rules raise from Stripe's data; not those of a 404 during extraction
        // (missing_object), of corrupt figures (amount_overflow) or of a charge naming another charge's
        // transfer (transfer_of_another_charge), which the world does not make; nor the proofs of the books, which a
        // complete history of a consistent world always passes (balance_not_continuous, stripe_report_mismatch: their
        // own tests hide a transaction or alter a report to fail them); nor a collection naming no account, which only
        // a world made with `otherMoney` holds.
        let notInTheWorld: Set<ExceptionKind> = [
            .missingObject, .amountOverflow, .transferOfAnotherCharge, .balanceNotContinuous, .stripeReportMismatch,
            .collectionAccountUnknown,
        ]
        for kind in ExceptionKind.allCases where !notInTheWorld.contains(kind) {
            #expect(kinds.contains(kind), "exception \(kind.rawValue) appears")
        }
        for style in FeeStyle.allCases {
            #expect(truth.platformFees.contains { $0.feeStyle == style })
        }
        #expect(Set(truth.summary.map(\.currency.rawValue)).isSuperset(of: ["usd", "eur", "jpy", "bhd"]))
        let categories = Set(truth.ledger.map(\.reportingCategory))
        #expect(
            categories.isSuperset(of: [
                "charge", "transfer", "platform_earning", "refund", "transfer_reversal", "platform_earning_refund",
                "dispute", "dispute_reversal", "charge_failure",
            ]))
        // Every status of a dispute
        let statuses: [SandboxScenario] = [
            .disputeWarningNeedsResponse, .disputeWarningUnderReview, .disputeWarningClosed, .disputeNeedsResponse,
            .disputeUnderReview, .disputeLost, .disputeWon, .disputePrevented,
        ]
        #expect(statuses.allSatisfy { !world.ids(for: $0).isEmpty })
    }

    @Test func theSeedsWorkedExamplesHaveTheirHandComputedFigures() throws {
        let world = SandboxWorld(seed: 42, charges: 400, start: Self.start, days: 30)
        let truth = world.groundTruth(for: try Self.wholeWorld(world), asOf: world.end, skippedTransferGrace: 3600)
        func row(_ scenario: SandboxScenario) throws -> GroundTruth.PlatformFee {
            let id = try #require(world.ids(for: scenario).first)
            return try #require(truth.platformFees.first { $0.chargeID == id })
        }
        // 10.00 usd, application_fee_amount 1.23: transfer 10.00, fee 1.23, DPF 1.23.
        let applicationFee = try row(.seedExampleApplicationFee)
        #expect(applicationFee.feeStyle == .applicationFee)
        #expect(applicationFee.transferAmount == 1000)
        #expect(applicationFee.applicationFeeAmount == 123)
        #expect(applicationFee.destinationPlatformFee == 123)
        #expect(applicationFee.stripeFee == 59)  // 2.9 % + 0.30
        #expect(applicationFee.platformNet == Int64(1000 - 59 - 1000 + 123))
        // 10.00 usd, transfer_data[amount] 8.77: DPF 1.23, net 0.64 as in Stripe's docs.
        let transferAmount = try row(.seedExampleTransferAmount)
        #expect(transferAmount.feeStyle == .transferAmount)
        #expect(transferAmount.transferAmount == 877)
        #expect(transferAmount.applicationFeeID == nil)
        #expect(transferAmount.destinationPlatformFee == 123)
        #expect(transferAmount.platformNet == Int64(64))
        // Fully refunded with reverse_transfer and refund_application_fee: DPF 0.
        let reversed = try row(.seedExampleFullRefundReversed)
        #expect(reversed.amountRefunded == 1000)
        #expect(reversed.transferReversed == 1000)
        #expect(reversed.applicationFeeRefunded == 123)
        #expect(reversed.destinationPlatformFee == 0)
        #expect(reversed.platformNet == Int64(-59))
        // Fully refunded without reverse_transfer: DPF −8.77, the platform covered the refund.
        let notReversed = try row(.seedExampleFullRefundNotReversed)
        #expect(notReversed.destinationPlatformFee == -877)
        #expect(notReversed.platformNet == Int64(1000 - 59 - 1000 - 877))
        // The account's share of the refund, the 8.77 transferred, was not given back.
        let refundException = truth.exceptions.first {
            $0.kind == .refundNotRecovered && $0.objectID == notReversed.chargeID
        }
        #expect(refundException?.expected == .amount(877))
        #expect(refundException?.actual == .amount(0))
        // Full transfer, no refunds: DPF 0.
        #expect(try row(.seedExampleFullTransfer).destinationPlatformFee == 0)
    }

    /// docs/RULES.md's partial and multiple captures, with their hand-computed figures: the charges' and refunds' JSON
    /// as Stripe shows them, and the ground truth counting only what was captured.
    @Test func partialAndMultipleCapturesHaveTheirHandComputedFigures() throws {
        let world = SandboxWorld(seed: 42, charges: 400, start: Self.start, days: 30)
        let truth = world.groundTruth(for: try Self.wholeWorld(world), asOf: world.end, skippedTransferGrace: 3600)
        let storage = world.storage
        func json(_ id: String) throws -> [String: Any] {
            let data = try #require(world.renderedObject(id: id), "\(id) is served")
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        func charge(_ scenario: SandboxScenario) throws -> (id: String, json: [String: Any], refunds: [[String: Any]]) {
            let id = try #require(world.ids(for: scenario).first, "\(scenario.rawValue) is in the world")
            let index = try #require(storage.charges.created.indices.first { storage.ids.id(.charge, $0) == id })
            let refunds = try storage.charges.refunds.items(of: index).map {
                try json(storage.ids.id(.refund, Int($0)))
            }
            return (id, try json(id), refunds)
        }
        func findings(_ id: String) -> [GroundTruth.Exception] {
            truth.exceptions.filter { $0.objectID == id || $0.relatedID == id }
        }

        // A legacy partial capture: 100.00 usd authorised with application_fee_amount 12.30, 60.00 captured; Stripe
        // refunded the 40.00 remainder at capture time (reason null, partial_capture_reversal).
        let legacy = try charge(.legacyPartialCapture)
        #expect(legacy.json["captured"] as? Bool == true)
        #expect(legacy.json.int("amount") == 10_000 && legacy.json.int("amount_captured") == 6_000)
        #expect(legacy.json.int("amount_refunded") == 4_000 && legacy.json["refunded"] as? Bool == false)
        let remainder = try #require(legacy.refunds.first)
        #expect(legacy.refunds.count == 1 && remainder.int("amount") == 4_000 && remainder["reason"] is NSNull)
        #expect(remainder.int("created") == legacy.json.int("created"))
        let remainderBT = try json(try #require(remainder.string("balance_transaction")))
        #expect(remainderBT.string("type") == "refund")
        #expect(remainderBT.string("reporting_category") == "partial_capture_reversal")
        #expect(remainderBT.int("amount") == -4_000)
        // The charge's balance transaction books the whole authorisation; the two sum to what was captured.
        let legacyBT = try json(try #require(legacy.json.string("balance_transaction")))
        #expect(legacyBT.int("amount") == 10_000 && legacyBT.int("fee") == 204)  // 2.9 % of 60.00 + 0.30
        // As if only 60.00 was charged: transfer 60.00, fee 12.30, nothing refunded, DPF 12.30.
        let legacyRow = try #require(truth.platformFees.first { $0.chargeID == legacy.id })
        #expect(legacyRow.amount == 10_000 && legacyRow.amountRefunded == 0)
        #expect(legacyRow.transferAmount == 6_000 && legacyRow.applicationFeeAmount == 1_230)
        #expect(legacyRow.destinationPlatformFee == 1_230)
        #expect(legacyRow.stripeFee == 204)
        #expect(legacyRow.platformNet == Int64(10_000 - 204 - 4_000 - 6_000 + 1_230))
        #expect(findings(legacy.id).isEmpty)
        let legacyIntent = try json(try #require(legacy.json.string("payment_intent")))
        #expect(legacyIntent.string("capture_method") == "manual" && legacyIntent.string("status") == "succeeded")
        #expect(legacyIntent.int("amount_received") == 6_000 && legacyIntent.int("amount_capturable") == 0)

        // An expired authorisation: 50.00 usd never captured; a 50.00 refund with reason expired_uncaptured_charge.
        let expired = try charge(.expiredAuthorization)
        #expect(expired.json.string("status") == "succeeded" && expired.json["captured"] as? Bool == false)
        #expect(expired.json.int("amount_captured") == 0 && expired.json.int("amount_refunded") == 5_000)
        #expect(expired.json["balance_transaction"] is NSNull && expired.json["application_fee"] is NSNull)
        #expect(expired.json["transfer"] is NSNull)
        let expiredRefund = try #require(expired.refunds.first)
        #expect(expired.refunds.count == 1 && expiredRefund.int("amount") == 5_000)
        #expect(expiredRefund.string("reason") == "expired_uncaptured_charge")
        #expect(expiredRefund["balance_transaction"] is NSNull)
        // Not a charge docs/RULES.md counts: no row, no skipped transfer, no finding.
        #expect(!truth.platformFees.contains { $0.chargeID == expired.id })
        #expect(!truth.skippedTransfers.contains { $0.chargeID == expired.id })
        #expect(findings(expired.id).isEmpty)
        let expiredIntent = try json(try #require(expired.json.string("payment_intent")))
        #expect(expiredIntent.string("status") == "canceled")
        #expect(expiredIntent.string("cancellation_reason") == "automatic")
        #expect(expiredIntent.int("canceled_at") == expiredRefund.int("created"))
        #expect(expiredIntent.int("amount_received") == 0)

        // A bank debit of 100.00 usd asking transfer_data[amount] 87.70, 60.00 captured, its transfer skipped: the
        // 60.00 captured is owed, not 87.70.
        let skipped = try charge(.partiallyCapturedSkippedTransfer)
        #expect(skipped.json["captured"] as? Bool == true && skipped.json.int("amount_captured") == 6_000)
        #expect(skipped.json["transfer_data"] is NSNull && skipped.json["transfer"] is NSNull)
        let skippedRow = try #require(truth.skippedTransfers.first { $0.chargeID == skipped.id })
        #expect(skippedRow.amount == 10_000 && skippedRow.amountOwed == 6_000)
        let skippedFee = try #require(truth.platformFees.first { $0.chargeID == skipped.id })
        #expect(skippedFee.destinationPlatformFee == 6_000 && skippedFee.stripeFee == 48)  // 0.8 % of 60.00

        // A multicapture in progress: 80.00 usd with application_fee_amount 8.00, 30.00 captured so far, captured
        // still false; transfer 30.00, fee 8.00, DPF 8.00.
        let multicapture = try charge(.multicaptureInProgress)
        #expect(multicapture.json["captured"] as? Bool == false)
        #expect(multicapture.json.int("amount_captured") == 3_000 && multicapture.json.int("amount_refunded") == 0)
        let multicaptureRow = try #require(truth.platformFees.first { $0.chargeID == multicapture.id })
        #expect(multicaptureRow.amount == 8_000 && multicaptureRow.amountRefunded == 0)
        #expect(multicaptureRow.transferAmount == 3_000 && multicaptureRow.applicationFeeAmount == 800)
        #expect(multicaptureRow.destinationPlatformFee == 800)
        #expect(multicaptureRow.stripeFee == 117)  // 2.9 % of 30.00 + 0.30
        #expect(multicaptureRow.platformNet == Int64(3_000 - 117 - 3_000 + 800))
        #expect(findings(multicapture.id).isEmpty)
        let multicaptureIntent = try json(try #require(multicapture.json.string("payment_intent")))
        #expect(multicaptureIntent.string("status") == "requires_capture")
        #expect(multicaptureIntent.int("amount_received") == 3_000)
        #expect(multicaptureIntent.int("amount_capturable") == 5_000)
    }

    @Test func aRefundRecoveredByHandIsNoFindingAndOneRecoveredShortIs() throws {
        // Given the world's refunds made without reverse_transfer and reversed by hand later: in full (a refund of
        // 40.00 on a transfer-amount charge of 100.00/80.00, the account's share 32.00) and for half the share
        let world = SandboxWorld(seed: 42, charges: 400, start: Self.start, days: 30)
        let truth = world.groundTruth(for: try Self.wholeWorld(world), asOf: world.end, skippedTransferGrace: 3600)
        let exact = try #require(world.ids(for: .refundRecoveredByHand).first)
        let short = try #require(world.ids(for: .refundRecoveredShort).first)
        let findings = truth.exceptions.filter { $0.kind == .refundNotRecovered }
        // Then the first is recovered: no finding, its transfer reversed 32.00 with no refund named
        #expect(!findings.contains { $0.objectID == exact })
        let fee = try #require(truth.platformFees.first { $0.chargeID == exact })
        #expect(fee.amountRefunded == 4_000 && fee.transferReversed == 3_200)
        // And the second is not: expected its share, actual half of it
        let finding = try #require(findings.first { $0.objectID == short })
        guard case .amount(let share) = finding.expected, case .amount(let given) = finding.actual else {
            Issue.record("amounts expected")
            return
        }
        #expect(given == share / 2 || given == (share + 1) / 2)
    }

    @Test func skippedTransfersWaitForTheGracePeriod() throws {
        let world = SandboxWorld(seed: 42, charges: 400, start: Self.start, days: 30)
        let range = try Self.wholeWorld(world)
        let young = Set(world.ids(for: .youngCharge))
        #expect(young.count == 2)
        let now = world.groundTruth(for: range, asOf: world.end, skippedTransferGrace: 3600)
        #expect(now.skippedTransfers.allSatisfy { !young.contains($0.chargeID) })
        let later = world.groundTruth(for: range, asOf: world.end.addingTimeInterval(7200), skippedTransferGrace: 3600)
        #expect(young.isSubset(of: Set(later.skippedTransfers.map(\.chargeID))))
        #expect(later.skippedTransfers.count == now.skippedTransfers.count + 2)
        // The amount owed: transfer_data.amount, else amount − application_fee_amount.
        for skipped in now.skippedTransfers {
            #expect(skipped.amountOwed > 0 && skipped.amountOwed <= skipped.amount)
            #expect(skipped.paymentIntentID.hasPrefix("pi_"))
        }
        #expect(!world.ids(for: .pendingAsync).contains { id in now.skippedTransfers.contains { $0.chargeID == id } })
    }

    @Test func unreversedDisputesFollowTheRecoveryRule() throws {
        let world = SandboxWorld(seed: 42, charges: 400, start: Self.start, days: 30)
        let truth = world.groundTruth(for: try Self.wholeWorld(world), asOf: world.end, skippedTransferGrace: 3600)
        let byCharge = Dictionary(grouping: truth.unreversedDisputes, by: \.chargeID)
        for row in truth.unreversedDisputes {
            #expect(row.unrecovered == row.recoverable - row.recovered)
            #expect(row.unrecovered > 0)
            #expect(["needs_response", "under_review", "lost"].contains(row.disputeStatus))
        }
        // Fully recovered disputes and won ones never appear; unrecovered and partially recovered withdrawn ones do.
        for id in world.ids(for: .disputeRecovered) + world.ids(for: .disputeWon)
            + world.ids(for: .disputeWarningClosed)
        {
            let rows = byCharge[id] ?? []
            #expect(rows.allSatisfy { $0.disputeStatus != "won" && $0.recovered < $0.recoverable })
        }
        let partial = try #require(world.ids(for: .disputePartiallyRecovered).first)
        let partialRow = try #require(byCharge[partial]?.first)
        #expect(partialRow.recovered > 0 && partialRow.recovered < partialRow.recoverable)
        let afterRefund = try #require(world.ids(for: .disputeAfterPartialRefund).first)
        if let row = byCharge[afterRefund]?.first,
            let fee = truth.platformFees.first(where: { $0.chargeID == afterRefund })
        {
            #expect(row.disputeAmount == fee.amount - fee.amountRefunded)
        }
        // A dispute on a charge that is not a destination charge is never an unreversed dispute.
        let plainIDs = Set(world.ids(for: .plainCharge))
        #expect(truth.unreversedDisputes.allSatisfy { !plainIDs.contains($0.chargeID) })
    }

    @Test func aRangeCountsOnlyObjectsCreatedInIt() throws {
        let world = SandboxWorld(seed: 42, charges: 400, start: Self.start, days: 30)
        let day = try ReportingRange(
            from: Self.start.addingTimeInterval(10 * 86_400), to: Self.start.addingTimeInterval(11 * 86_400),
            timeZone: Self.utc)
        let truth = world.groundTruth(for: day, asOf: world.end, skippedTransferGrace: 3600)
        let (from, to) = day.unixSeconds
        #expect(truth.platformFees.allSatisfy { $0.created >= from && $0.created < to })
        #expect(truth.unreversedDisputes.allSatisfy { $0.created >= from && $0.created < to })
        let whole = world.groundTruth(for: try Self.wholeWorld(world), asOf: world.end, skippedTransferGrace: 3600)
        #expect(truth.ledger.map(\.count).reduce(0, +) < whole.ledger.map(\.count).reduce(0, +))
        #expect(whole.ledger.map(\.count).reduce(0, +) == world.counts["balance_transactions"])
    }

    @Test func theGroundTruthIsWrittenAsSortedStableJSON() throws {
        let world = SandboxWorld(seed: 1, charges: 200, start: Self.start, days: 30)
        let truth = world.groundTruth(for: try Self.wholeWorld(world), asOf: world.end, skippedTransferGrace: 3600)
        let data = try truth.jsonData()
        #expect(try GroundTruth.read(from: data) == truth)
        let text = String(decoding: data, as: UTF8.self)
        // Keys as Swift names them, the same as ReconCore's report rows encode
        #expect(text.contains("\"destinationPlatformFee\""))
        #expect(text.contains("\"asOf\""))
        #expect(truth.platformFees.map(\.chargeID) == truth.platformFees.map(\.chargeID).sorted())
        #expect(truth.exceptions.map(\.objectID) == truth.exceptions.map(\.objectID).sorted())
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ground-truth-\(UUID()).json")
        try truth.write(to: url)
        #expect(try Data(contentsOf: url) == data)
        try? FileManager.default.removeItem(at: url)
    }
}
