import ReconCore
import Sandbox

// The ground truth of the charges created in the range: platform-fee rows, skipped transfers, the fee and
// transfer checks, and each charge's platform net.

extension GroundTruthBuilder {
    /// A charge created in the range: its missing balance transaction (once it is no longer young), and for a
    /// succeeded destination charge its platform-fee row, its skipped transfer and its fee and transfer checks.
    ///
    /// Only a charge docs/RULES.md counts (succeeded with `amount_captured > 0`, whatever `captured` says): an
    /// authorisation that expired uncaptured has neither a balance transaction nor a row. The DPF starts from
    /// `amount_captured`, and `amount_refunded` leaves out the refunds of the uncaptured remainder.
    mutating func addCharge(_ c: Int) {
        let charges = storage.charges
        let currency = charges.currency[c].currency
        let chargeID = id(.charge, c)
        guard charges.counts(c) else { return }
        if charges.balanceTransaction[c] < 0, !young(charges.created[c]) {
            exception(.missingBalanceTransaction, chargeID, nil, currency, nil, nil)
        }
        guard charges.isDestinationCharge(c) else { return }
        let amount = charges.amount[c]
        let captured = charges.amountCaptured[c]
        let refunded = customerRefunded(c)
        let transfer = Int(charges.transfer[c])
        let fee = Int(charges.fee[c])
        let transferAmount = transfer >= 0 ? storage.transfers.amount[transfer] : 0
        let transferReversed = transfer >= 0 ? storage.transfers.amountReversed[transfer] : 0
        let feeAmount = fee >= 0 ? storage.fees.amount[fee] : 0
        let feeRefunded = fee >= 0 ? storage.fees.amountRefunded[fee] : 0
        let feeKept = keptFee(c, fee: fee)
        let dpf = (captured - refunded) - (transferAmount - transferReversed) + feeKept
        let bt = Int(charges.balanceTransaction[c])
        // The charge's balance transaction's currency; without one (not booked yet, or missing), the one currency its
        // family's balance transactions share, and none when they share none.
        let familyCurrencies = Set(balanceTransactions(of: c).map { storage.balanceTransactions.currency[Int($0)] })
        let settlement =
            bt >= 0
            ? storage.balanceTransactions.currency[bt] : (familyCurrencies.count == 1 ? familyCurrencies.first : nil)
        let stripeFee = bt >= 0 ? storage.balanceTransactions.fee[bt] : 0
        let destination = charges.intentDestination[c]
        truth.platformFees.append(
            GroundTruth.PlatformFee(
                chargeID: chargeID, created: charges.created[c], currency: currency, amount: amount,
                amountRefunded: refunded,
                destinationAccount: destination >= 0 ? id(.account, Int(destination)) : nil,
                feeStyle: charges.style[c] ?? .fullTransfer, transferID: id(.transfer, charges.transfer[c]),
                transferAmount: transferAmount, transferReversed: transferReversed,
                applicationFeeID: id(.applicationFee, charges.fee[c]),
                applicationFeeCurrency: fee >= 0 ? storage.fees.currency[fee].currency : nil,
                applicationFeeAmount: feeAmount, applicationFeeRefunded: feeRefunded, destinationPlatformFee: dpf,
                stripeFee: stripeFee,
                settlementCurrency: settlement?.currency, platformNet: platformNet(c)))
        add(currency) {
            $0.destinationCharges += 1
            $0.gross += amount
            $0.refunded += refunded
            $0.destinationPlatformFee += dpf
        }
        add(account: destination >= 0 ? id(.account, Int(destination)) : nil, currency) {
            $0.destinationCharges += 1
            $0.gross += amount
            $0.refunded += refunded
            $0.transferred += transferAmount
            $0.reversed += transferReversed
            $0.applicationFees += feeKept
            $0.destinationPlatformFee += dpf
        }
        if bt >= 0, let settlement { add(settlement.currency) { $0.stripeFee += stripeFee } }
        addSkippedTransfer(c, currency: currency)
        checkFeeAndTransfer(c, currency: currency, transfer: transfer, fee: fee)
    }

    /// docs/RULES.md's `c.amount_refunded`: the charge's refunds that did not fail, less those of the uncaptured
    /// remainder (which Stripe counts in its own `amount_refunded`), summed from the refund table.
    func customerRefunded(_ c: Int) -> Int64 {
        let refunds = storage.refunds
        return storage.charges.refunds.items(of: c).map(Int.init)
            .filter { !refunds.failed($0) && !refunds.uncapturedRemainder[$0] }
            .reduce(Int64(0)) { $0 + refunds.amount[$1] }
    }

    /// What the platform kept of the charge's application fee, in the charge's currency: as it is when the fee is
    /// in the charge's currency, converted back at the rate `application_fee_amount` gives when it is not (rounded
    /// half up), 0 for no fee. A fee in another currency with nothing to convert it with counts 0 and is a
    /// `fee_currency_unconvertible` exception.
    private mutating func keptFee(_ c: Int, fee: Int) -> Int64 {
        guard fee >= 0 else { return 0 }
        let fees = storage.fees
        let kept = fees.amount[fee] - fees.amountRefunded[fee]
        guard fees.currency[fee] != storage.charges.currency[c] else { return kept }
        // The PaymentIntent's `application_fee_amount`, else the charge's (the same figure in this world, shown on
        // the charge when it asked for it).
        let requested = storage.charges.intentFeeAmount[c]
        guard requested >= 0, fees.amount[fee] > 0 else {
            exception(
                .feeCurrencyUnconvertible, id(.applicationFee, fee), id(.charge, c), fees.currency[fee].currency,
                nil, .amount(kept))
            return 0
        }
        return (2 * requested * kept + fees.amount[fee]) / (2 * fees.amount[fee])
    }

    /// A charge whose intended transfer is missing after the grace period (`skipped_transfers.csv`). The amount owed
    /// is the PaymentIntent's `transfer_data.amount`, else `amount_captured − application_fee_amount`, each capped
    /// at `amount_captured`.
    private mutating func addSkippedTransfer(_ c: Int, currency: Currency) {
        let charges = storage.charges
        let amount = charges.amount[c]
        let captured = charges.amountCaptured[c]
        let destination = charges.intentDestination[c]
        let hasTransferData = charges.has(ChargeTable.hasTransferData, c)
        let transfer = Int(charges.transfer[c])
        guard !hasTransferData, transfer < 0, destination >= 0, asOf - charges.created[c] >= grace else { return }
        let owed = min(
            charges.intentTransferAmount[c] >= 0
                ? charges.intentTransferAmount[c] : captured - max(0, charges.intentFeeAmount[c]),
            captured)
        truth.skippedTransfers.append(
            SkippedTransferRow(
                chargeID: id(.charge, c), created: charges.created[c], currency: currency, amount: amount,
                intendedDestination: id(.account, Int(destination)), paymentIntentID: id(.paymentIntent, c),
                amountOwed: owed))
        add(currency) {
            $0.skippedTransfers += 1
            $0.amountOwed += owed
        }
        add(account: id(.account, Int(destination)), currency) {
            $0.skippedTransfers += 1
            $0.amountOwed += owed
        }
    }

    /// The application fee against the intent's `application_fee_amount`, and the transfer's amount, currency
    /// and destination against the intent's; the expected fee and transfer are capped at `amount_captured`.
    private mutating func checkFeeAndTransfer(_ c: Int, currency: Currency, transfer: Int, fee: Int) {
        let charges = storage.charges
        let chargeID = id(.charge, c)
        let captured = charges.amountCaptured[c]
        let destination = charges.intentDestination[c]
        let hasTransferData = charges.has(ChargeTable.hasTransferData, c)
        let transferAmount = transfer >= 0 ? storage.transfers.amount[transfer] : 0
        let feeAmount = fee >= 0 ? storage.fees.amount[fee] : 0
        if charges.has(ChargeTable.showsFeeAmount, c) {
            let expected = min(charges.intentFeeAmount[c], captured)
            if fee < 0 {
                if !young(charges.created[c]) {
                    exception(.applicationFeeMissing, chargeID, nil, currency, .amount(expected), .amount(0))
                }
            } else if storage.fees.currency[fee] == charges.currency[c], feeAmount != expected {
                exception(
                    .applicationFeeAmountMismatch, id(.applicationFee, fee), chargeID, currency, .amount(expected),
                    .amount(feeAmount))
            }
        }
        if transfer >= 0 {
            let transferID = id(.transfer, transfer)
            let expected = min(
                hasTransferData && charges.intentTransferAmount[c] >= 0 ? charges.intentTransferAmount[c] : captured,
                captured)
            if transferAmount != expected {
                exception(
                    .transferAmountMismatch, transferID, chargeID, currency, .amount(expected),
                    .amount(transferAmount))
            }
            let transferCurrency = storage.transfers.currency[transfer]
            if transferCurrency != charges.currency[c] {
                exception(
                    .transferCurrencyMismatch, transferID, chargeID, currency, .text(currency.rawValue),
                    .text(transferCurrency.code))
            }
            if hasTransferData, storage.transfers.destination[transfer] != destination {
                exception(
                    .transferDestinationMismatch, transferID, chargeID, currency,
                    .text(id(.account, Int(destination))),
                    .text(id(.account, Int(storage.transfers.destination[transfer]))))
            }
        }
    }

    /// The platform's balance transactions of the charge and everything hanging off it (its refunds and their
    /// failures, its transfer and reversals, its fee and fee refunds, its disputes) that exist.
    private func balanceTransactions(of c: Int) -> [Int32] {
        let charges = storage.charges
        var family: [Int32] = [charges.balanceTransaction[c], charges.failureBalanceTransaction[c]]
        for refund in charges.refunds.items(of: c).map(Int.init) {
            family += [storage.refunds.balanceTransaction[refund], storage.refunds.failureBalanceTransaction[refund]]
        }
        let transfer = Int(charges.transfer[c])
        if transfer >= 0 {
            family.append(storage.transfers.balanceTransaction[transfer])
            for reversal in storage.transfers.reversals.items(of: transfer) {
                family.append(storage.reversals.balanceTransaction[Int(reversal)])
            }
        }
        let fee = Int(charges.fee[c])
        if fee >= 0 {
            family.append(storage.fees.balanceTransaction[fee])
            for refund in storage.fees.refunds.items(of: fee) {
                family.append(storage.feeRefunds.balanceTransaction[Int(refund)])
            }
        }
        for dispute in charges.disputes.items(of: c).map(Int.init) {
            family += [storage.disputes.withdrawal[dispute], storage.disputes.reinstatement[dispute]]
        }
        return family.filter { $0 >= 0 }
    }

    /// Sum of `net` over the platform's balance transactions of the charge and everything hanging off it; `nil`
    /// when they are in more than one currency (no rate ties them) or there are none yet.
    private func platformNet(_ c: Int) -> Int64? {
        let bts = storage.balanceTransactions
        let present = balanceTransactions(of: c)
        guard let first = present.first,
            present.allSatisfy({ bts.currency[Int($0)] == bts.currency[Int(first)] })
        else { return nil }
        return present.reduce(Int64(0)) { $0 + net($1) }
    }
}
