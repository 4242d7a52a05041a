import Foundation
import ReconCore
import Sandbox
import SandboxTruth
import Testing

/// The money situations of real Stripe platforms: cross-border application fees, `on_behalf_of` charges, payouts
/// still being reconciled, failed refunds, balance types and young charges whose later parts are still to come, as
/// the sandbox serves them and as its ground truth counts them.
@Suite struct MoneySituationsTests {
    static let start = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01
    static let scenarios: [SandboxScenario] = [
        .crossBorderFee, .crossBorderFeeRefunded, .feeCurrencyUnconvertible, .onBehalfOf, .payoutInProgress,
        .failedRefundReversed, .failedRefundNotReversed, .refundAndDisputePrefunding, .issuingTransaction,
        .youngChargeMissingParts,
    ]

    static func truth(_ world: SandboxWorld, asOf: Date? = nil) throws -> GroundTruth {
        let range = try ReportingRange(
            from: world.start, to: world.end, timeZone: TimeZone(identifier: "UTC") ?? .current)
        return world.groundTruth(for: range, asOf: asOf ?? world.end, skippedTransferGrace: 3600)
    }

    @Test func everySituationIsInASmallWorldAndComesAtRandomInALargeOne() {
        // Given a world of a few hundred charges, then each situation is there
        let small = SandboxWorld(seed: 5, charges: 300, start: Self.start, days: 30)
        for scenario in Self.scenarios {
            #expect(!small.ids(for: scenario).isEmpty, "\(scenario.rawValue)")
        }
        // And a larger world holds more of each than the guaranteed ones
        let large = SandboxWorld(seed: 5, charges: 20_000, start: Self.start, days: 30)
        for scenario in [SandboxScenario.crossBorderFee, .onBehalfOf, .refundAndDisputePrefunding] {
            #expect(large.ids(for: scenario).count > 10 * small.ids(for: scenario).count, "\(scenario.rawValue)")
        }
        #expect(large.ids(for: .failedRefundReversed).count > 5)
        #expect(large.ids(for: .failedRefundNotReversed).count > 3)
        #expect(large.ids(for: .crossBorderFeeRefunded).count > 5)
        #expect(large.ids(for: .issuingTransaction).count == 20)
    }

    @Test func theSameSeedServesTheSameBytesForEveryNewSituation() throws {
        // Given two worlds of one seed
        let first = SandboxWorld(seed: 31, charges: 300, start: Self.start, days: 30)
        let second = SandboxWorld(seed: 31, charges: 300, start: Self.start, days: 30)
        var compared = 0
        for scenario in Self.scenarios {
            #expect(first.ids(for: scenario) == second.ids(for: scenario))
            for id in first.ids(for: scenario) {
                // Then every object of the situation, and the objects it names, render the same bytes
                let bytes = try #require(first.renderedObject(id: id))
                #expect(bytes == second.renderedObject(id: id), "\(id)")
                let object = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
                for field in ["application_fee", "balance_transaction", "transfer"] {
                    guard let named = object.string(field) else { continue }
                    #expect(first.renderedObject(id: named) == second.renderedObject(id: named), "\(named)")
                    compared += 1
                }
            }
        }
        #expect(compared > 20)
        #expect(try Self.truth(first).jsonData() == Self.truth(second).jsonData())
    }

    // MARK: Cross-border fees and on_behalf_of

    @Test func aCrossBorderFeeIsInItsAccountsCurrencyWithItsRefundsAndBalanceTransactions() async throws {
        // Given the charges whose application fee is in another currency
        let server = try await startServer(charges: 300, seed: 5)
        let connection = try WireConnection(port: server.port)
        let truth = try Self.truth(server.world)
        let crossBorder = server.world.ids(for: .crossBorderFee)
        #expect(crossBorder.count >= 3)
        let refunded = Set(server.world.ids(for: .crossBorderFeeRefunded))
        #expect(!refunded.isEmpty && refunded.isSubset(of: Set(crossBorder)))

        for chargeID in crossBorder {
            // When the charge is read with its fee, transfer and PaymentIntent
            let charge = try connection.request(
                "/v1/charges/\(chargeID)?expand[]=application_fee.balance_transaction&expand[]=transfer"
                    + "&expand[]=payment_intent"
            ).json()
            let currency = try #require(charge.string("currency"))
            let fee = try #require(charge.object("application_fee"))
            let feeCurrency = try #require(fee.string("currency"))
            let feeAmount = try #require(fee.int("amount"))

            // Then the fee is in the account's currency, the charge, PaymentIntent and transfer in the charge's
            #expect(feeCurrency != currency)
            #expect(["jpy", "gbp"].contains(feeCurrency))
            #expect(charge.object("payment_intent")?.string("currency") == currency)
            #expect(charge.object("transfer")?.string("currency") == currency)
            // And the fee's balance transaction is in the fee's currency, for its amount, with no exchange rate
            let bt = try #require(fee.object("balance_transaction"))
            #expect(bt.string("currency") == feeCurrency)
            #expect(bt.int("amount") == feeAmount && bt["exchange_rate"] is NSNull)
            // And the fee is application_fee_amount converted at a realistic rate (usd → jpy ≈ 1.5 yen a cent)
            if let requested = charge.object("payment_intent")?.int("application_fee_amount"), currency == "usd" {
                let millionths = feeAmount * 1_000_000 / requested
                let expected: ClosedRange<Int64> = feeCurrency == "jpy" ? 1_480_000...1_520_000 : 770_000...810_000
                #expect(expected.contains(millionths), "\(chargeID): \(feeAmount) \(feeCurrency) for \(requested)")
            }
            // And its refunds are in its currency too, each with a balance transaction in it
            let feeRefunds = try listAll(
                connection,
                "/v1/application_fees/\(fee.string("id") ?? "")/refunds?expand[]=data.balance_transaction")
            #expect(feeRefunds.isEmpty != refunded.contains(chargeID))
            for feeRefund in feeRefunds {
                #expect(feeRefund.string("currency") == feeCurrency)
                #expect(feeRefund.object("balance_transaction")?.string("currency") == feeCurrency)
                #expect(feeRefund.object("balance_transaction")?.int("amount") == -(feeRefund.int("amount") ?? 0))
            }
            #expect(feeRefunds.reduce(Int64(0)) { $0 + ($1.int("amount") ?? 0) } == fee.int("amount_refunded"))

            // And the ground truth keeps the fee in its currency and leaves the platform net empty, unless the
            // charge settles in the fee's currency too (on behalf of the account)
            let row = try #require(truth.platformFees.first { $0.chargeID == chargeID })
            #expect(row.feeStyle == .applicationFee)
            #expect(row.applicationFeeCurrency?.rawValue == feeCurrency)
            #expect(row.applicationFeeAmount == feeAmount)
            #expect((row.platformNet == nil) == (charge["on_behalf_of"] is NSNull), "\(chargeID)")
            #expect(!truth.exceptions.contains { $0.kind == .applicationFeeAmountMismatch && $0.relatedID == chargeID })
        }
        try await server.shutdown()
    }

    @Test func aCrossBorderFeeCountsConvertedBackInTheDestinationPlatformFee() throws {
        // Given the guaranteed 100.00 usd charge with application_fee_amount 12.30 to an account settling in jpy
        let world = SandboxWorld(seed: 5, charges: 300, start: Self.start, days: 30)
        let truth = try Self.truth(world)
        let rows = world.ids(for: .crossBorderFee).compactMap { id in truth.platformFees.first { $0.chargeID == id } }
        let whole = try #require(rows.first { $0.amount == 10_000 && $0.applicationFeeRefunded == 0 })

        // Then the fee is about 1,845 jpy and the DPF is the requested 12.30 usd again
        #expect(whole.applicationFeeCurrency == .jpy)
        #expect((1_826...1_864).contains(whole.applicationFeeAmount))
        #expect(whole.destinationPlatformFee == 1_230)
        // And a partly refunded cross-border fee counts its kept part, rounded half up in integers
        let charge = try #require(world.renderedObject(id: whole.chargeID))
        let json = try #require(try JSONSerialization.jsonObject(with: charge) as? [String: Any])
        #expect(json.int("application_fee_amount") == 1_230)
        for row in rows where row.applicationFeeRefunded > 0 && row.destinationPlatformFee != 0 {
            let kept = row.applicationFeeAmount - row.applicationFeeRefunded
            #expect(kept >= 0 && kept < row.applicationFeeAmount)
        }
        // And the connected account's statement counts the kept fee in the charge's currency
        let account = try #require(whole.destinationAccount)
        let statement = try #require(
            truth.connectedAccounts.first { $0.destinationAccount == account && $0.currency == .usd })
        #expect(statement.applicationFees >= 1_230)
    }

    @Test func aFeeOfStripesPricingToolsCannotBeConverted() async throws {
        // Given a cross-border fee set by Stripe's platform pricing tools
        let server = try await startServer(charges: 300, seed: 5)
        let connection = try WireConnection(port: server.port)
        let truth = try Self.truth(server.world)
        let chargeID = try #require(server.world.ids(for: .feeCurrencyUnconvertible).first)

        // When it is read with its PaymentIntent and fee
        let charge = try connection.request(
            "/v1/charges/\(chargeID)?expand[]=payment_intent&expand[]=application_fee"
        ).json()
        let fee = try #require(charge.object("application_fee"))

        // Then neither the charge nor its PaymentIntent names an application_fee_amount, yet the fee exists
        #expect(charge["application_fee_amount"] is NSNull)
        #expect(charge.object("payment_intent")?["application_fee_amount"] is NSNull)
        #expect(fee.string("currency") != charge.string("currency"))
        // And the ground truth keeps its style, counts it zero and names it an exception in the fee's currency
        let row = try #require(truth.platformFees.first { $0.chargeID == chargeID })
        #expect(row.feeStyle == .applicationFee)
        #expect(row.applicationFeeID == fee.string("id"))
        let exception = try #require(truth.exceptions.first { $0.kind == .feeCurrencyUnconvertible })
        #expect(exception.objectID == fee.string("id") && exception.relatedID == chargeID)
        #expect(exception.currency.rawValue == fee.string("currency"))
        #expect(exception.expected == nil)
        #expect(exception.actual == .amount((fee.int("amount") ?? 0) - (fee.int("amount_refunded") ?? 0)))
        let transferred = row.transferAmount - row.transferReversed
        #expect(row.destinationPlatformFee == row.amount - row.amountRefunded - transferred)
        try await server.shutdown()
    }

    @Test func anOnBehalfOfChargeSettlesInItsAccountsCurrency() async throws {
        // Given the charges made on behalf of their destination account
        let server = try await startServer(charges: 300, seed: 5)
        let connection = try WireConnection(port: server.port)
        let truth = try Self.truth(server.world)
        let charges = server.world.ids(for: .onBehalfOf)
        #expect(!charges.isEmpty)
        var crossCurrency = 0
        for chargeID in charges {
            // When one is read with its balance transaction, PaymentIntent and transfer
            let charge = try connection.request(
                "/v1/charges/\(chargeID)?expand[]=balance_transaction&expand[]=payment_intent"
                    + "&expand[]=transfer.balance_transaction"
            ).json()

            // Then on_behalf_of names the destination account, on the charge and its PaymentIntent
            let destination = try #require(charge.object("transfer_data")?.string("destination"))
            #expect(charge.string("on_behalf_of") == destination)
            #expect(charge.object("payment_intent")?.string("on_behalf_of") == destination)
            // And its balance transaction and its transfer's are in one settlement currency, with an exchange
            // rate when it is not the charge's
            let bt = try #require(charge.object("balance_transaction"))
            let settlement = bt.string("currency")
            #expect(charge.object("transfer")?.object("balance_transaction")?.string("currency") == settlement)
            #expect(charge.object("transfer")?.string("currency") == charge.string("currency"))
            if settlement != charge.string("currency") {
                // Stripe's exchange_rate is in major units: the charge's amount times it is the settled amount
                crossCurrency += 1
                #expect(settlement == "jpy" || settlement == "gbp")
                let rate = try #require((bt["exchange_rate"] as? NSNumber)?.doubleValue)
                let digits = ["usd": 2.0, "eur": 2, "gbp": 2, "jpy": 0, "bhd": 3]
                let major = Double(charge.int("amount") ?? 0) / pow(10, digits[charge.string("currency") ?? ""] ?? 2)
                let settled = major * rate * pow(10, digits[settlement ?? ""] ?? 2)
                #expect(abs(settled - Double(bt.int("amount") ?? 0)) <= 1, "\(chargeID): \(rate)")
                if charge.string("currency") == "usd" && settlement == "jpy" { #expect((148...152).contains(rate)) }
            }
            // And the ground truth settles it there, with a platform net unless a fee is in another currency
            let row = try #require(truth.platformFees.first { $0.chargeID == chargeID })
            #expect(row.settlementCurrency?.rawValue == settlement)
            if row.applicationFeeCurrency == nil || row.applicationFeeCurrency?.rawValue == settlement {
                #expect(row.platformNet != nil, "\(chargeID)")
            }
        }
        #expect(crossCurrency >= 2)
        // And a charge not made on behalf of an account says so with null
        let plain = try #require(server.world.ids(for: .seedExampleApplicationFee).first)
        #expect(try connection.request("/v1/charges/\(plain)").json()["on_behalf_of"] is NSNull)
        try await server.shutdown()
    }

    // MARK: Payouts still being reconciled

    @Test func aPayoutInProgressListsPartOfWhatItPaidOutAndACompletedOneAll() async throws {
        // Given a world's payouts
        let server = try await startServer(charges: 600, seed: 5, days: 12)
        let connection = try WireConnection(port: server.port)
        let end = Int64(server.world.end.timeIntervalSince1970)
        let inProgress = Set(server.world.ids(for: .payoutInProgress))
        #expect(!inProgress.isEmpty)
        #expect(inProgress.isDisjoint(with: server.world.ids(for: .payoutMismatch)), "mismatches only on final lists")
        let truth = try Self.truth(server.world)

        for payout in server.world.payouts() where payout.automatic {
            // When one is retrieved and its balance transactions listed
            let json = try connection.request("/v1/payouts/\(payout.id)").json()
            let listed = try listAll(connection, "/v1/balance_transactions?payout=\(payout.id)")
                .filter { $0.string("source") != payout.id }.compactMap { $0.string("id") }
            let row = try #require(truth.payouts.first { $0.payoutID == payout.id })
            #expect(row.reconciliationStatus?.rawValue == json.string("reconciliation_status"))

            if inProgress.contains(payout.id) {
                // Then a recent one is in progress and lists the older half of what it paid out
                #expect(json.string("reconciliation_status") == "in_progress")
                #expect(end - payout.created < 36 * 3_600)
                #expect(listed == Array(payout.balanceTransactionIDs.suffix(payout.balanceTransactionIDs.count / 2)))
                #expect(listed.count < payout.balanceTransactionIDs.count)
                // And the ground truth leaves its figures empty and lists none of its transactions
                #expect(row.balanceTransactions == nil && row.netOfTransactions == nil && row.difference == nil)
                #expect(!truth.payoutTransactions.contains { $0.payoutID == payout.id })
                #expect(!truth.exceptions.contains { $0.kind == .payoutMismatch && $0.objectID == payout.id })
            } else {
                // Then an older one is completed and lists everything it paid out
                #expect(json.string("reconciliation_status") == "completed")
                #expect(end - payout.created >= 36 * 3_600)
                #expect(listed == payout.balanceTransactionIDs)
                #expect(row.balanceTransactions == listed.count)
                #expect(row.netOfTransactions == payout.netOfTransactions)
                #expect(truth.payoutTransactions.filter { $0.payoutID == payout.id }.count == listed.count)
            }
        }
        try await server.shutdown()
    }

    // MARK: Failed refunds

    @Test func aFailedRefundHasAFailureBalanceTransactionAndNoLongerCountsAsRefunded() async throws {
        // Given the charges with a refund that failed, with and without a transfer reversal
        let server = try await startServer(charges: 300, seed: 5)
        let connection = try WireConnection(port: server.port)
        let end = Int64(server.world.end.timeIntervalSince1970)
        let truth = try Self.truth(server.world)
        let reversed = server.world.ids(for: .failedRefundReversed)
        let notReversed = server.world.ids(for: .failedRefundNotReversed)
        #expect(reversed.count >= 2 && !notReversed.isEmpty)

        for chargeID in reversed + notReversed {
            // When the charge is read with its refunds and transfer
            let charge = try connection.request(
                "/v1/charges/\(chargeID)?expand[]=refunds&expand[]=transfer"
            ).json()
            let embedded = try #require(charge.object("refunds")?.list("data"))
            let listed = try listAll(
                connection,
                "/v1/refunds?charge=\(chargeID)&expand[]=data.failure_balance_transaction"
                    + "&expand[]=data.balance_transaction&expand[]=data.transfer_reversal")
            let failed = listed.filter { $0.string("status") == "failed" }
            let refund = try #require(failed.first)
            let refundID = try #require(refund.string("id"))

            // Then the failed refund is listed wherever refunds are
            #expect(embedded.contains { $0.string("id") == refundID && $0.string("status") == "failed" })
            // And it names why and the refund_failure balance transaction that returned its funds
            #expect(
                ["expired_or_canceled_card", "lost_or_stolen_card", "unknown"].contains(
                    refund.string("failure_reason") ?? ""))
            let failure = try #require(refund.object("failure_balance_transaction"))
            let original = try #require(refund.object("balance_transaction"))
            #expect(failure.string("type") == "refund_failure")
            #expect(failure.string("reporting_category") == "refund_failure")
            #expect(failure.int("amount") == -(original.int("amount") ?? 0))
            #expect(failure.int("fee") == 0 && failure.string("source") == refundID)
            #expect(failure.string("currency") == original.string("currency"))
            let created = failure.int("created") ?? 0
            #expect(created > (refund.int("created") ?? .max) && created < end)
            let bySource = try listAll(connection, "/v1/balance_transactions?source=\(refundID)")
            #expect(Set(bySource.compactMap { $0.string("id") }) == [original.string("id"), failure.string("id")])
            // And the charge's amount_refunded counts only the refunds that did not fail
            let succeeded = listed.filter { $0.string("status") == "succeeded" }
            #expect(charge.int("amount_refunded") == succeeded.reduce(Int64(0)) { $0 + ($1.int("amount") ?? 0) })
            #expect(charge["refunded"] as? Bool == false)

            let reversal = refund.object("transfer_reversal")
            let exceptions = truth.exceptions.filter { $0.objectID == refundID }
            if let reversal {
                // And a reversal stays in the transfer's amount_reversed and is owed back to the account
                #expect(reversed.contains(chargeID))
                #expect((charge.object("transfer")?.int("amount_reversed") ?? 0) >= (reversal.int("amount") ?? 0))
                #expect(exceptions.map(\.kind) == [.failedRefundNotRetransferred])
                #expect(exceptions.first?.relatedID == reversal.string("id"))
                #expect(exceptions.first?.currency.rawValue == charge.string("currency"))
                #expect(exceptions.first?.expected == .amount(reversal.int("amount") ?? 0))
                #expect(exceptions.first?.actual == .amount(0))
            } else {
                // And without a reversal there is no finding at all
                #expect(notReversed.contains(chargeID))
                #expect(exceptions.isEmpty)
            }
        }
        try await server.shutdown()
    }

    // MARK: Balance types

    @Test func balanceTransactionsNameTheirBalanceAndPayoutsPayOutThePaymentsBalanceOnly() async throws {
        // Given a world's balance transactions
        let server = try await startServer(charges: 300, seed: 5)
        let connection = try WireConnection(port: server.port)
        let all = try listAll(connection, "/v1/balance_transactions")
        let types = Set(all.compactMap { $0.string("balance_type") })

        // Then each names its balance: payments, the refund and dispute prefunding, or issuing
        #expect(all.allSatisfy { $0.string("balance_type") != nil })
        #expect(types == ["payments", "refund_and_dispute_prefunding", "issuing"])
        let prefunded = all.filter { $0.string("balance_type") == "refund_and_dispute_prefunding" }
        #expect(prefunded.allSatisfy { ["refund", "adjustment", "refund_failure"].contains($0.string("type") ?? "") })
        #expect(prefunded.contains { $0.string("type") == "adjustment" })
        #expect(prefunded.contains { $0.string("type") == "refund" })
        // And the issuing ones are card spends with no source
        let issuing = all.filter { $0.string("balance_type") == "issuing" }
        #expect(issuing.map { $0.string("id") ?? "" }.sorted() == server.world.ids(for: .issuingTransaction))
        for transaction in issuing {
            #expect(transaction.string("type") == "issuing_transaction")
            #expect(transaction.string("reporting_category") == "issuing_transaction")
            #expect(transaction["source"] is NSNull && (transaction.int("amount") ?? 0) < 0)
        }
        // And no payout pays out another balance than payments
        let other = Set((prefunded + issuing).compactMap { $0.string("id") })
        for payout in server.world.payouts() {
            #expect(other.isDisjoint(with: payout.balanceTransactionIDs), "\(payout.id)")
        }
        // And the ledger groups by balance type
        let truth = try Self.truth(server.world)
        #expect(truth.ledger.contains { $0.balanceType == "issuing" && $0.reportingCategory == "issuing_transaction" })
        #expect(truth.ledger.contains { $0.balanceType == "refund_and_dispute_prefunding" })
        let keys = truth.ledger.map { [$0.currency.rawValue, $0.balanceType.rawValue, $0.reportingCategory.rawValue] }
        #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
        try await server.shutdown()
    }

    // MARK: Young charges

    @Test func aYoungChargeMissesItsLaterPartsWithoutAnExceptionUntilTheGracePeriodEnds() async throws {
        // Given the young charges whose balance transaction, transfer and fee are still to come
        let server = try await startServer(charges: 300, seed: 5)
        let connection = try WireConnection(port: server.port)
        let world = server.world
        let end = Int64(world.end.timeIntervalSince1970)
        let young = world.ids(for: .youngChargeMissingParts)
        #expect(young.count == 2)
        var styles: Set<String> = []
        for chargeID in young {
            // When one is read
            let charge = try connection.request("/v1/charges/\(chargeID)").json()

            // Then it succeeded and was captured in the world's last hour, asks for its transfer (and fee), but
            // has none of its later parts yet
            #expect(charge.string("status") == "succeeded" && charge["captured"] as? Bool == true)
            #expect(end - (charge.int("created") ?? 0) < 3_600)
            #expect(charge["balance_transaction"] is NSNull)
            #expect(charge["transfer"] is NSNull, "null, not absent")
            #expect(charge["application_fee"] is NSNull)
            let transferData = try #require(charge.object("transfer_data"))
            #expect(transferData.string("destination")?.hasPrefix("acct_") == true)
            styles.insert(transferData.int("amount") == nil ? "application_fee" : "transfer_amount")
            if transferData.int("amount") == nil { #expect(charge.int("application_fee_amount") != nil) }
        }
        #expect(styles == ["application_fee", "transfer_amount"])

        // And the ground truth raises nothing for them now, and their missing parts once the grace period is over
        let now = try Self.truth(world)
        let youngSet = Set(young)
        #expect(!now.exceptions.contains { youngSet.contains($0.objectID) || youngSet.contains($0.relatedID ?? "") })
        #expect(now.platformFees.filter { youngSet.contains($0.chargeID) }.allSatisfy { $0.platformNet == nil })
        let later = try Self.truth(world, asOf: world.end.addingTimeInterval(7_200))
        let missing = later.exceptions.filter { youngSet.contains($0.objectID) }
        #expect(missing.filter { $0.kind == .missingBalanceTransaction }.count == 2)
        #expect(missing.filter { $0.kind == .applicationFeeMissing }.count == 1)
        #expect(!later.skippedTransfers.contains { youngSet.contains($0.chargeID) })
        try await server.shutdown()
    }
}
