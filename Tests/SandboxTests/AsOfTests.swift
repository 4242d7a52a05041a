import Foundation
import ReconCore
import Sandbox
import SandboxTruth
import Testing

/// One seeded world served as of two moments: a day before its end (``SandboxWorld/earlierMoment``) and its end. The
/// objects created before the earlier moment keep their ids and bytes unless their state changed, the late-outcome
/// scenarios show their earlier state, then their later one, and the earlier view serves nothing newer.
@Suite struct AsOfTests {
    static let start = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01
    /// 10 days and 4 hours: the earlier moment is 2026-11-10T04:00:00Z.
    static let end = start.addingTimeInterval(10 * 86_400 + 4 * 3_600)
    static let full = SandboxWorld(seed: 42, charges: 1_000, start: start, end: end)
    static let earlier = full.served(asOf: full.earlierMoment)
    static var earlierSeconds: Int64 { Int64(full.earlierMoment.timeIntervalSince1970) }

    /// The fields that hold an object's state (its status and what moves with it); nothing else may differ between
    /// two moments.
    static let stateFields: [String: Set<String>] = [
        "charge": [
            "status", "paid", "captured", "amount_captured", "amount_refunded", "refunded", "disputed", "transfer",
            "transfer_data", "application_fee", "application_fee_amount", "failure_balance_transaction",
            "failure_code", "failure_message",
        ],
        "payment_intent": ["status", "amount_received", "last_payment_error"],
        "transfer": ["amount_reversed", "reversed", "reversals"],
        "application_fee": ["amount_refunded", "refunded", "refunds"],
        "refund": ["status", "failure_balance_transaction", "failure_reason"],
        "dispute": [
            "status", "balance_transactions", "evidence_details", "is_charge_refundable", "payment_method_details",
        ],
        "balance_transaction": ["status"],
        "payout": [
            "status", "reconciliation_status", "failure_balance_transaction", "failure_code", "failure_message",
            "trace_id",
        ],
    ]

    static func json(_ world: SandboxWorld, _ id: String) throws -> [String: Any] {
        let data = try #require(world.renderedObject(id: id), "\(id) is served")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A JSON value as sorted JSON, to compare two values; `nil` for an absent one.
    static func canonical(_ value: Any?) -> Data? {
        value.flatMap { try? JSONSerialization.data(withJSONObject: [$0], options: [.sortedKeys]) }
    }

    static func id(_ scenario: SandboxScenario) throws -> String {
        try #require(full.ids(for: scenario).first, "\(scenario.rawValue) is in the world")
    }

    // MARK: Same ids, same bytes

    @Test func objectsCreatedBeforeTheEarlierMomentKeepTheirIdsAndTheirBytesUnlessTheirStateChanged() throws {
        // Given the world and the same world generated again, served as of the earlier moment
        let regenerated = SandboxWorld(
            seed: 42, charges: 1_000, start: Self.start, end: Self.end, asOf: Self.full.earlierMoment)
        #expect(regenerated.end == Self.full.earlierMoment && regenerated.plannedEnd == Self.end)
        #expect(regenerated.counts == Self.earlier.counts)
        #expect(regenerated.stateChanges(since: Self.earlier).isEmpty, "generating as of a moment is serving as of it")

        // When every object served as of the earlier moment is rendered in both views
        let changes = Self.full.stateChanges(since: Self.earlier)
        let changed = Set(changes.map(\.id))
        var compared = 0
        for kind in ObjectKind.allCases {
            let served = Self.earlier.ids(of: kind)
            for id in served {
                let before = try Self.json(Self.earlier, id)
                let after = try Self.json(Self.full, id)
                compared += 1
                // Then the same id names the same object, equal but for the fields that hold its state
                let state = Self.stateFields[kind.rawValue] ?? []
                let differing = Set(before.keys).union(after.keys).filter { key in
                    !state.contains(key) && Self.canonical(before[key]) != Self.canonical(after[key])
                }
                #expect(differing.isEmpty, "\(id) differs in \(differing.sorted())")
                // And its bytes are the same unless its state changed
                let same = Self.earlier.renderedObject(id: id) == Self.full.renderedObject(id: id)
                #expect(same == !changed.contains(id), "\(id)")
            }
        }
        #expect(compared == Self.earlier.objectCount)
        // Most objects are untouched; the late outcomes are among the changes
        #expect(changes.count * 20 < compared)
        for scenario in Self.lateScenarios {
            #expect(changed.contains(try Self.id(scenario)), "\(scenario.rawValue)")
        }
    }

    @Test func servedAsOfItsEndTheWorldIsTheSameByteForByte() throws {
        // Given the world, and the same world served as of its end
        let world = SandboxWorld(seed: 7, charges: 600, start: Self.start, days: 10)
        let atItsEnd = SandboxWorld(seed: 7, charges: 600, start: Self.start, days: 10, asOf: world.end)
        // Then every object, scenario and ground truth is the same
        #expect(atItsEnd.end == world.end && atItsEnd.plannedEnd == world.end)
        #expect(atItsEnd.counts == world.counts)
        #expect(atItsEnd.stateChanges(since: world).isEmpty)
        #expect(world.stateChanges(since: atItsEnd).isEmpty)
        for scenario in SandboxScenario.allCases { #expect(atItsEnd.ids(for: scenario) == world.ids(for: scenario)) }
        #expect(atItsEnd.payouts() == world.payouts())
        let range = try ReportingRange(from: world.start, to: world.end, timeZone: .gmt)
        let truth = world.groundTruth(for: range, asOf: world.end, skippedTransferGrace: 3_600)
        let truthAtItsEnd = atItsEnd.groundTruth(for: range, asOf: world.end, skippedTransferGrace: 3_600)
        #expect(try truth.jsonData() == truthAtItsEnd.jsonData())
    }

    // MARK: The late outcomes

    static let lateScenarios: [SandboxScenario] = [
        .lateSkippedTransfer, .lateSucceeded, .lateFailedCharge, .lateFailedRefund, .lateDisputeWon, .lateDisputeLost,
        .latePayoutFailed,
    ]

    @Test func theLateOutcomesAreCreatedTheDayBeforeAndChangeDuringTheLastDay() throws {
        let earlier = Self.earlierSeconds
        for scenario in Self.lateScenarios {
            let ids = Self.full.ids(for: scenario)
            #expect(!ids.isEmpty, "\(scenario.rawValue)")
            #expect(Self.earlier.ids(for: scenario) == ids, "created before the earlier moment")
            for id in ids where scenario != .latePayoutFailed {
                let created = try Self.json(Self.full, id).int("created") ?? 0
                #expect(created >= earlier - 86_400 && created < earlier, "\(id)")
            }
        }
        // The default world has them all too
        let defaultWorld = SandboxWorld(seed: 42, charges: 2_000, start: Self.start, days: 30)
        #expect(Self.lateScenarios.allSatisfy { !defaultWorld.ids(for: $0).isEmpty })
        // A world of a few hours or under 200 charges has none
        let short = SandboxWorld(
            seed: 42, charges: 1_000, start: Self.start, end: Self.start.addingTimeInterval(86_400))
        let small = SandboxWorld(seed: 42, charges: 150, start: Self.start, days: 30)
        #expect(Self.lateScenarios.allSatisfy { short.ids(for: $0).isEmpty && small.ids(for: $0).isEmpty })
    }

    @Test func aBankDebitPendingAtTheEarlierMomentSettlesWithItsTransferSkipped() throws {
        let id = try Self.id(.lateSkippedTransfer)
        let before = try Self.json(Self.earlier, id)
        let after = try Self.json(Self.full, id)
        // Pending, asking for its transfer, no transfer yet
        #expect(before.string("status") == "pending" && before["paid"] as? Bool == false)
        #expect(before.object("transfer_data")?.string("destination") != nil)
        #expect(before["transfer"] == nil)
        // Then succeeded with the transfer skipped: transfer_data and transfer null
        #expect(after.string("status") == "succeeded" && after["paid"] as? Bool == true)
        #expect(after["transfer_data"] is NSNull && after["transfer"] is NSNull)
        // The PaymentIntent keeps its destination
        let intentID = try #require(after.string("payment_intent"))
        let intentBefore = try Self.json(Self.earlier, intentID)
        let intentAfter = try Self.json(Self.full, intentID)
        #expect(intentBefore.string("status") == "processing" && intentAfter.string("status") == "succeeded")
        #expect(
            intentAfter.object("transfer_data")?.string("destination")
                == before.object("transfer_data")?.string("destination"))
        // Its payment's balance transaction was there from the start, pending
        let bt = try #require(before.string("balance_transaction"))
        #expect(after.string("balance_transaction") == bt)
        #expect(try Self.json(Self.earlier, bt).string("status") == "pending")
    }

    @Test func aBankDebitPendingAtTheEarlierMomentSucceedsWithItsTransferAndFeeMadeAtSettlement() throws {
        let id = try Self.id(.lateSucceeded)
        let before = try Self.json(Self.earlier, id)
        let after = try Self.json(Self.full, id)
        #expect(before.string("status") == "pending")
        #expect(before["transfer"] == nil && before["application_fee"] is NSNull)
        #expect(before.object("transfer_data") != nil && before.int("application_fee_amount") != nil)
        #expect(after.string("status") == "succeeded")
        let transferID = try #require(after.string("transfer"))
        let feeID = try #require(after.string("application_fee"))
        let transfer = try Self.json(Self.full, transferID)
        let fee = try Self.json(Self.full, feeID)
        #expect(transfer.string("source_transaction") == id && fee.string("originating_transaction") == id)
        #expect((transfer.int("created") ?? 0) >= Self.earlierSeconds)
        #expect(fee.int("amount") == after.int("application_fee_amount"))
        // Neither existed at the earlier moment
        #expect(Self.earlier.renderedObject(id: transferID) == nil && Self.earlier.renderedObject(id: feeID) == nil)
    }

    @Test func aBankDebitPendingAtTheEarlierMomentFailsWithAPaymentFailureRefund() throws {
        let id = try Self.id(.lateFailedCharge)
        let before = try Self.json(Self.earlier, id)
        let after = try Self.json(Self.full, id)
        #expect(before.string("status") == "pending")
        #expect(before["failure_balance_transaction"] is NSNull && before["failure_code"] is NSNull)
        #expect(after.string("status") == "failed" && after.string("failure_code") == "insufficient_funds")
        let failureID = try #require(after.string("failure_balance_transaction"))
        let failure = try Self.json(Self.full, failureID)
        #expect(failure.string("type") == "payment_failure_refund")
        #expect(failure.string("reporting_category") == "charge_failure")
        #expect(failure.string("source") == id && (failure.int("amount") ?? 0) < 0)
        #expect((failure.int("created") ?? 0) >= Self.earlierSeconds)
        #expect(Self.earlier.renderedObject(id: failureID) == nil)
        // No transfer was made before the payment settled, so none is reversed
        #expect(before["transfer"] == nil && after["transfer"] == nil)
        let intentID = try #require(after.string("payment_intent"))
        #expect(try Self.json(Self.full, intentID).string("status") == "requires_payment_method")
    }

    @Test func aRefundThatReversedTheTransferIsPendingThenFails() throws {
        let id = try Self.id(.lateFailedRefund)
        let before = try Self.json(Self.earlier, id)
        let after = try Self.json(Self.full, id)
        #expect(before.string("status") == "pending")
        #expect(before["failure_balance_transaction"] == nil && before["failure_reason"] == nil)
        #expect(after.string("status") == "failed")
        #expect(
            ["expired_or_canceled_card", "lost_or_stolen_card", "unknown"].contains(
                after.string("failure_reason") ?? ""))
        let failureID = try #require(after.string("failure_balance_transaction"))
        let failure = try Self.json(Self.full, failureID)
        #expect(failure.string("type") == "refund_failure" && failure.string("source") == id)
        #expect((failure.int("created") ?? 0) >= Self.earlierSeconds)
        // The reversal stays; the charge counts the refund only while it has not failed
        let reversal = try #require(before.string("transfer_reversal"))
        #expect(after.string("transfer_reversal") == reversal)
        let chargeID = try #require(after.string("charge"))
        #expect(try Self.json(Self.earlier, chargeID).int("amount_refunded") == before.int("amount"))
        #expect(try Self.json(Self.full, chargeID).int("amount_refunded") == 0)
    }

    @Test func aChargebackNeedingAResponseAtTheEarlierMomentIsWonByTheEnd() throws {
        let id = try Self.id(.lateDisputeWon)
        let before = try Self.json(Self.earlier, id)
        let after = try Self.json(Self.full, id)
        #expect(before.string("status") == "needs_response")
        let withdrawn = try #require(before.list("balance_transactions"))
        #expect(withdrawn.map { $0.string("reporting_category") } == ["dispute"])
        #expect(after.string("status") == "won")
        let both = try #require(after.list("balance_transactions"))
        #expect(both.map { $0.string("reporting_category") } == ["dispute", "dispute_reversal"])
        #expect(both.first?.string("id") == withdrawn.first?.string("id"))
        #expect((both.last?.int("created") ?? 0) >= Self.earlierSeconds && (both.last?.int("amount") ?? 0) > 0)
        // On a destination charge whose transfer was not reversed to recover it
        let charge = try Self.json(Self.earlier, try #require(before.string("charge")))
        let transfer = try Self.json(Self.earlier, try #require(charge.string("transfer")))
        #expect(transfer.int("amount_reversed") == 0)
    }

    @Test func anInquiryAtTheEarlierMomentEscalatesAndIsLostByTheEnd() throws {
        let id = try Self.id(.lateDisputeLost)
        let before = try Self.json(Self.earlier, id)
        let after = try Self.json(Self.full, id)
        #expect(before.string("status") == "warning_under_review")
        #expect(before.list("balance_transactions")?.isEmpty == true)
        #expect(after.string("status") == "lost")
        let withdrawal = try #require(after.list("balance_transactions")?.first)
        #expect(after.list("balance_transactions")?.count == 1)
        #expect(withdrawal.string("reporting_category") == "dispute" && (withdrawal.int("amount") ?? 0) < 0)
        #expect((withdrawal.int("created") ?? 0) >= Self.earlierSeconds)
        let charge = try Self.json(Self.full, try #require(after.string("charge")))
        #expect(try Self.json(Self.full, try #require(charge.string("transfer"))).int("amount_reversed") == 0)
    }

    @Test func aPaidPayoutFailsDuringTheLastDay() throws {
        let id = try Self.id(.latePayoutFailed)
        let before = try Self.json(Self.earlier, id)
        let after = try Self.json(Self.full, id)
        #expect(before.string("status") == "paid" && (before.int("arrival_date") ?? .max) <= Self.earlierSeconds)
        #expect(before["failure_balance_transaction"] is NSNull && before["failure_code"] is NSNull)
        #expect(before.string("reconciliation_status") == "completed")
        #expect(after.string("status") == "failed" && after.string("failure_code") == "account_closed")
        let failure = try Self.json(Self.full, try #require(after.string("failure_balance_transaction")))
        #expect(failure.string("type") == "payout_failure" && failure.int("amount") == after.int("amount"))
        #expect((failure.int("created") ?? 0) >= Self.earlierSeconds)
    }

    @Test func theGroundTruthOfEachMomentSeesTheStateOfThatMoment() throws {
        // Given the ground truth of the whole world at each moment
        let range = try ReportingRange(from: Self.start, to: Self.full.earlierMoment, timeZone: .gmt)
        let before = Self.earlier.groundTruth(for: range, asOf: Self.earlier.end, skippedTransferGrace: 3_600)
        let after = Self.full.groundTruth(for: range, asOf: Self.full.end, skippedTransferGrace: 3_600)
        let skipped = try Self.id(.lateSkippedTransfer)
        let won = try Self.id(.lateDisputeWon)
        let lost = try Self.id(.lateDisputeLost)
        // Then the skipped transfer appears once the charge settled
        #expect(!before.skippedTransfers.contains { $0.chargeID == skipped })
        #expect(after.skippedTransfers.contains { $0.chargeID == skipped })
        // The chargeback is unreversed while it needs a response, not once won; the inquiry once it is lost
        #expect(before.unreversedDisputes.contains { $0.disputeID == won })
        #expect(!after.unreversedDisputes.contains { $0.disputeID == won })
        #expect(!before.unreversedDisputes.contains { $0.disputeID == lost })
        #expect(after.unreversedDisputes.contains { $0.disputeID == lost && $0.disputeStatus == "lost" })
        // The failed refund's exception and the failed payout's only once they failed
        let refund = try Self.id(.lateFailedRefund)
        #expect(!before.exceptions.contains { $0.objectID == refund })
        #expect(after.exceptions.contains { $0.objectID == refund && $0.kind == .failedRefundNotRetransferred })
        let payout = try Self.id(.latePayoutFailed)
        #expect(!before.exceptions.contains { $0.objectID == payout })
        #expect(after.exceptions.contains { $0.objectID == payout && $0.kind == .payoutFailed })
    }

    // MARK: Nothing newer

    @Test func theEarlierViewServesNothingCreatedAtOrAfterItsMoment() async throws {
        // Given the sandbox serving the world as of the earlier moment
        let server = try await startServer(charges: 1_000, seed: 42, days: 10) {
            $0.hours = 4
            $0.asOf = Self.full.earlierMoment
        }
        defer { Task { try? await server.shutdown() } }
        #expect(server.world.end == Self.full.earlierMoment)
        #expect(server.summary.contains("2026-11-01..2026-11-11T04:00:00Z, as of 2026-11-10T04:00:00Z"))
        let connection = try WireConnection(port: server.port)
        let earlier = Self.earlierSeconds
        // When every list is read
        for resource in [
            "charges", "payment_intents", "transfers", "application_fees", "balance_transactions", "disputes",
            "refunds",
            "payouts",
        ] {
            let listed = try listAll(connection, "/v1/\(resource)")
            // Then each holds exactly the objects created before the moment, with the ids of the whole world's
            #expect(listed.allSatisfy { ($0.int("created") ?? .max) < earlier }, "\(resource)")
            #expect(listed.count == Self.earlier.counts[resource], "\(resource)")
            let ids = listed.compactMap { $0.string("id") }
            #expect(ids.allSatisfy { Self.full.renderedObject(id: $0) != nil }, "\(resource)")
        }
        // And a retrieve of a later object is Stripe's 404, from the list and nested endpoints too
        let lateCharge = try Self.json(Self.full, try Self.id(.lateSucceeded))
        let transferID = try #require(lateCharge.string("transfer"))
        #expect(try connection.request("/v1/transfers/\(transferID)").status == 404)
        #expect(
            try connection.request("/v1/application_fees/\(lateCharge.string("application_fee") ?? "")").status == 404)
        let failedRefund = try Self.json(Self.full, try Self.id(.lateFailedRefund))
        let failureID = try #require(failedRefund.string("failure_balance_transaction"))
        #expect(try connection.request("/v1/balance_transactions/\(failureID)").status == 404)
        let chargeID = try #require(failedRefund.string("charge"))
        let sources = try listAll(
            connection, "/v1/balance_transactions?source=\(try #require(failedRefund.string("id")))")
        #expect(sources.count == 1 && sources.first?.string("type") == "refund")
        let refunds = try listAll(connection, "/v1/refunds?charge=\(chargeID)")
        #expect(refunds.map { $0.string("status") } == ["pending"])
        // A payout lists only what was created before the moment, all of it once its reconciliation is completed
        for payout in try listAll(connection, "/v1/payouts") where (payout["automatic"] as? Bool) != false {
            let id = try #require(payout.string("id"))
            let transactions = try listAll(connection, "/v1/balance_transactions?payout=\(id)")
            #expect(transactions.allSatisfy { ($0.int("created") ?? .max) < earlier })
            let created = payout.int("created") ?? 0
            #expect(
                payout.string("reconciliation_status") == (earlier - created < 36 * 3_600 ? "in_progress" : "completed")
            )
        }
        try await server.shutdown()
    }

    // MARK: The ground truth's pending columns

    @Test func thePendingColumnsCountTheLookBackWindowsChargesStillPending() throws {
        // Given the range that starts at the earlier moment, as of which the late bank debits are pending
        let range = try ReportingRange(from: Self.full.earlierMoment, to: Self.end, timeZone: .gmt)
        let before = Self.earlier.groundTruth(for: range, asOf: Self.earlier.end, skippedTransferGrace: 3_600)
        let after = Self.full.groundTruth(for: range, asOf: Self.full.end, skippedTransferGrace: 3_600)
        // When the charges of the 14 days before it are read from the served JSON
        func expected(_ world: SandboxWorld, days: Int64) throws -> [String: (count: Int, amount: Int64)] {
            var totals: [String: (count: Int, amount: Int64)] = [:]
            for id in world.ids(of: .charge) {
                let charge = try Self.json(world, id)
                let created = charge.int("created") ?? 0
                guard charge.string("status") == "pending", created >= Self.earlierSeconds - days * 86_400,
                    created < Self.earlierSeconds
                else { continue }
                let currency = charge.string("currency") ?? ""
                totals[currency, default: (0, 0)].count += 1
                totals[currency, default: (0, 0)].amount += charge.int("amount") ?? 0
            }
            return totals
        }
        // Then each currency's summary row counts them, as served at its moment
        for (truth, world) in [(before, Self.earlier), (after, Self.full)] {
            let totals = try expected(world, days: 14)
            for row in truth.summary {
                #expect(row.pendingCharges == totals[row.currency.rawValue]?.count ?? 0, "\(row.currency)")
                #expect(row.pendingAmount == totals[row.currency.rawValue]?.amount ?? 0, "\(row.currency)")
            }
            #expect(Set(totals.keys).isSubset(of: Set(truth.summary.map(\.currency.rawValue))))
        }
        // The three late bank debits (usd) are pending at the earlier moment only, and count there
        let usdBefore = try #require(before.summary.first { $0.currency == .usd })
        let usdAfter = try #require(after.summary.first { $0.currency == .usd })
        for scenario in [SandboxScenario.lateSkippedTransfer, .lateSucceeded, .lateFailedCharge] {
            let id = try Self.id(scenario)
            #expect(try Self.json(Self.earlier, id).string("status") == "pending")
            #expect(try Self.json(Self.full, id).string("status") != "pending")
        }
        #expect(usdBefore.pendingCharges >= usdAfter.pendingCharges + 3)
        // The figures of this world, checked by hand against the charges' JSON
        #expect((usdBefore.pendingCharges, usdBefore.pendingAmount) == (38, 1_131_168))
        // No look-back, no pending columns
        let none = Self.earlier.groundTruth(
            for: range, asOf: Self.earlier.end, skippedTransferGrace: 3_600, lookbackDays: 0)
        #expect(none.summary.allSatisfy { $0.pendingCharges == 0 && $0.pendingAmount == 0 })
        // A range with no charges of its own has rows of zeros with only the pending columns set
        let afterTheWorld = try ReportingRange(
            from: Self.full.earlierMoment, to: Self.full.earlierMoment.addingTimeInterval(3_600), timeZone: .gmt)
        let empty = Self.earlier.groundTruth(for: afterTheWorld, asOf: Self.earlier.end, skippedTransferGrace: 3_600)
        let usd = try #require(empty.summary.first { $0.currency == .usd })
        #expect(usd.pendingCharges == usdBefore.pendingCharges && usd.pendingAmount == usdBefore.pendingAmount)
        #expect(usd.destinationCharges == 0 && usd.gross == 0 && usd.destinationPlatformFee == 0 && usd.stripeFee == 0)
    }

    // MARK: --as-of

    @Test func aMomentOutsideTheWorldIsRefused() async throws {
        var options = SandboxOptions()
        options.charges = 10
        options.days = 3
        for moment in [options.start, options.start.addingTimeInterval(-1), options.end.addingTimeInterval(1)] {
            options.asOf = moment
            #expect(throws: SandboxError.self) { try options.checkAsOf() }
            do {
                let server = try await SandboxServer.start(options)
                try await server.shutdown()
                Issue.record("\(moment) was accepted")
            } catch let error as SandboxError {
                #expect(error.isBadInput)
                #expect(error.message.contains("must be inside the world"))
            }
        }
        for moment in [options.start.addingTimeInterval(1), options.end, nil] {
            options.asOf = moment
            #expect(throws: Never.self) { try options.checkAsOf() }
        }
    }

    @Test(.enabled(if: Executable.isBuilt))
    func theSandboxCommandRefusesABadAsOfWithStatusTwo() async throws {
        let logs = try TemporaryFolder()
        for (value, phrase) in [
            ("2020-01-01", "must be inside the world"), ("2026-12-02", "must be inside the world"),
            ("2026-11-01", "must be inside the world"), ("yesterday", "--as-of"), ("2026-02-30", "--as-of"),
        ] {
            let result = try await Executable.run(
                ["sandbox", "--port", "0", "--charges", "10", "--as-of", value], environment: [:], logs: logs)
            #expect(result.status == 2, "\(value): \(result.error)")
            #expect(result.error.contains(phrase), "\(value): \(result.error)")
        }
    }
}
