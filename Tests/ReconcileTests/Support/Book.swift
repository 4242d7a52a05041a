import ReconCore
import Reconcile

/// Builds reconciler input the way Stripe books a Connect platform's money: a charge with its PaymentIntent and
/// balance transaction, its transfer and application fee with theirs, refunds that reverse the transfer and refund
/// the fee, disputes with their withdrawal and reinstatement. Amounts are explicit so tests can compute by hand.
struct Book {
    static let day: Int64 = 86_400
    /// 2026-11-01T00:00:00Z; the range is that day.
    static let from: Int64 = 1_793_491_200
    static let to: Int64 = from + day

    var input = ReconciliationInput(from: Book.from, to: Book.to, asOf: Book.to + Book.day, skippedTransferGrace: 3_600)
    private var serial = 0

    enum Style { case applicationFee, transferAmount, fullTransfer, plain }

    struct Settlement {
        var currency: Currency
        /// Presentment → settlement in millionths (`1_080_000` = 1.08); `nil`: same currency.
        var rateMillionths: Int64? = nil

        func convert(_ amount: Int64) -> Int64 {
            guard let rate = rateMillionths else { return amount }
            let magnitude = (amount.magnitude * UInt64(rate) + 500_000) / 1_000_000
            return amount < 0 ? -Int64(magnitude) : Int64(magnitude)
        }
    }

    private mutating func next(_ prefix: String) -> String {
        serial += 1
        return "\(prefix)_\(String(serial).leftPadded(to: 4))"
    }

    // MARK: Charges

    /// A succeeded card charge as Stripe books it once everything is attached. `retained` is the application fee
    /// (application-fee style) or `amount − transfer_data[amount]` (transfer-amount style).
    @discardableResult
    mutating func charge(
        _ id: String? = nil, amount: Int64 = 1_000, currency: Currency = .usd, style: Style = .applicationFee,
        retained: Int64 = 123, stripeFee: Int64 = 59, destination: String = "acct_1",
        created: Int64 = Book.from + 3_600,
        settlement: Settlement? = nil, status: ChargeStatus = .succeeded, transferred: Bool = true,
        withBalanceTransaction: Bool = true, feeIn: Settlement? = nil, transferGroup: String? = nil
    ) -> String {
        let chargeID = id ?? next("ch")
        let intentID = "pi_" + chargeID.dropFirst(3)
        let settle = settlement ?? Settlement(currency: currency, rateMillionths: nil)
        let isDestination = style != .plain
        let transferAmount: Int64? = style == .transferAmount ? amount - retained : nil
        let feeAmount: Int64? = style == .applicationFee ? retained : nil
        input.paymentIntents.append(
            PaymentIntentFacts(
                id: intentID, created: created, currency: currency, amount: amount, applicationFeeAmount: feeAmount,
                destinationAccountID: isDestination ? destination : nil, transferDataAmount: transferAmount,
                status: status == .succeeded ? .succeeded : .processing, latestChargeID: chargeID, livemode: false,
                transferGroup: transferGroup))
        var btID: String?
        if withBalanceTransaction {
            btID = balanceTransaction(
                created: created, currency: settle.currency, amount: settle.convert(amount), fee: stripeFee,
                type: "charge", category: "charge", source: chargeID, rate: settle.rateMillionths)
        }
        let attached = isDestination && transferred && status == .succeeded
        var transferID: String?
        var feeID: String?
        if attached {
            transferID = transfer(
                amount: transferAmount ?? amount, currency: currency, destination: destination, source: chargeID,
                created: created, settlement: settle)
            if let feeAmount {
                // A cross-border fee settles in the account's currency: converted, booked in that currency.
                let feeCurrency = feeIn?.currency ?? currency
                feeID = applicationFee(
                    amount: feeIn?.convert(feeAmount) ?? feeAmount, currency: feeCurrency, charge: chargeID,
                    account: destination, created: created,
                    settlement: feeIn.map { Settlement(currency: $0.currency, rateMillionths: nil) } ?? settle)
            }
        }
        input.charges.append(
            ChargeFacts(
                id: chargeID, created: created, currency: currency, amount: amount,
                amountCaptured: status == .failed ? 0 : amount, amountRefunded: 0, status: status,
                captured: status != "failed", paymentIntentID: intentID, transferID: transferID,
                applicationFeeID: feeID, applicationFeeAmount: attached ? feeAmount : nil,
                destinationAccountID: attached ? destination : nil, transferDataAmount: attached ? transferAmount : nil,
                balanceTransactionID: btID, livemode: false, transferGroup: transferGroup))
        return chargeID
    }

    @discardableResult
    mutating func transfer(
        _ id: String? = nil, amount: Int64, currency: Currency = .usd, destination: String = "acct_1",
        source: String? = nil, created: Int64 = Book.from + 3_600, settlement: Settlement? = nil,
        disputeTag: String? = nil, withBalanceTransaction: Bool = true, group: String? = nil
    ) -> String {
        let transferID = id ?? next("tr")
        let settle = settlement ?? Settlement(currency: currency, rateMillionths: nil)
        let btID =
            withBalanceTransaction
            ? balanceTransaction(
                created: created, currency: settle.currency, amount: -settle.convert(amount), fee: 0, type: "transfer",
                category: "transfer", source: transferID, rate: settle.rateMillionths) : nil
        input.transfers.append(
            TransferFacts(
                id: transferID, created: created, currency: currency, amount: amount, amountReversed: 0,
                destinationAccountID: destination, sourceTransactionID: source, balanceTransactionID: btID,
                transferGroup: group, disputeIDMetadata: disputeTag, livemode: false))
        return transferID
    }

    @discardableResult
    mutating func applicationFee(
        amount: Int64, currency: Currency, charge: String, account: String, created: Int64, settlement: Settlement,
        withBalanceTransaction: Bool = true
    ) -> String {
        let feeID = next("fee")
        let btID =
            withBalanceTransaction
            ? balanceTransaction(
                created: created, currency: settlement.currency, amount: settlement.convert(amount), fee: 0,
                type: "application_fee", category: "platform_earning", source: feeID,
                rate: settlement.rateMillionths) : nil
        input.applicationFees.append(
            ApplicationFeeFacts(
                id: feeID, created: created, currency: currency, amount: amount, amountRefunded: 0,
                originatingChargeID: charge, accountID: account, balanceTransactionID: btID, livemode: false))
        return feeID
    }

    @discardableResult
    mutating func balanceTransaction(
        created: Int64, currency: Currency, amount: Int64, fee: Int64, type: BalanceTransactionType,
        category: ReportingCategory, source: String?, rate: Int64? = nil, balanceType: BalanceType? = .payments
    ) -> String {
        let id = next("txn")
        input.balanceTransactions.append(
            BalanceTransactionFacts(
                id: id, created: created, currency: currency, amount: amount, fee: fee, net: amount - fee, type: type,
                reportingCategory: category, sourceID: source, exchangeRate: rate.map { Double($0) / 1_000_000 },
                status: "available", balanceType: balanceType))
        return id
    }

    // MARK: Refunds

    /// Refunds `amount` of the charge; `reversal` reverses that much of the transfer (`reverse_transfer`),
    /// `feeRefund` refunds that much of the application fee (`refund_application_fee`).
    @discardableResult
    mutating func refund(
        _ chargeID: String, amount: Int64, reversal: Int64? = nil, feeRefund: Int64? = nil,
        created: Int64 = Book.from + 7_200, settlement: Settlement? = nil, category: ReportingCategory = "refund",
        reason: RefundReason? = nil
    ) -> String {
        let c = chargeIndex(chargeID)
        let charge = input.charges[c]
        let settle = settlement ?? Settlement(currency: charge.currency, rateMillionths: nil)
        let refundID = next("re")
        let btID = balanceTransaction(
            created: created, currency: settle.currency, amount: -settle.convert(amount), fee: 0, type: "refund",
            category: category, source: refundID, rate: settle.rateMillionths)
        input.charges[c].amountRefunded += amount
        var reversalID: String?
        if let reversal, let transferID = charge.transferID {
            reversalID = reverse(transferID, amount: reversal, refund: refundID, created: created, settlement: settle)
        }
        if let feeRefund, let feeID = charge.applicationFeeID,
            let f = input.applicationFees.firstIndex(where: { $0.id == feeID })
        {
            // A fee refund is in the fee's currency (`feeRefund` in it), booked as the fee was.
            let fee = input.applicationFees[f]
            let feeSettle = fee.currency == charge.currency ? settle : Settlement(currency: fee.currency)
            let id = next("fr")
            let bt = balanceTransaction(
                created: created, currency: feeSettle.currency, amount: -feeSettle.convert(feeRefund), fee: 0,
                type: "application_fee_refund", category: "platform_earning_refund", source: id,
                rate: feeSettle.rateMillionths)
            input.feeRefunds.append(
                FeeRefundFacts(
                    id: id, feeID: feeID, created: created, currency: fee.currency, amount: feeRefund,
                    balanceTransactionID: bt))
            input.applicationFees[f].amountRefunded += feeRefund
        }
        input.refunds.append(
            RefundFacts(
                id: refundID, chargeID: chargeID, created: created, currency: charge.currency, amount: amount,
                status: "succeeded", transferReversalID: reversalID, balanceTransactionID: btID, reason: reason))
        return refundID
    }

    /// Stripe fails refund `refundID` at `at`: the refund's status is `failed` with `reason`, a `refund_failure`
    /// balance transaction returns its amount to the platform, and the charge's `amount_refunded` no longer counts
    /// it. Its transfer reversal stays.
    @discardableResult
    mutating func failRefund(
        _ refundID: String, at: Int64 = Book.from + 36_000, reason: String = "expired_or_canceled_card"
    )
        -> String
    {
        guard let r = input.refunds.firstIndex(where: { $0.id == refundID }), let chargeID = input.refunds[r].chargeID
        else { preconditionFailure("no refund \(refundID)") }
        let refund = input.refunds[r]
        let bt = balanceTransaction(
            created: at, currency: refund.currency, amount: refund.amount, fee: 0, type: "refund_failure",
            category: "refund_failure", source: refundID)
        input.refunds[r].status = "failed"
        input.refunds[r].failureBalanceTransactionID = bt
        input.refunds[r].failureReason = reason
        input.charges[chargeIndex(chargeID)].amountRefunded -= refund.amount
        return bt
    }

    /// A transfer reversal: refund-linked when `refund` is set, else a manual one (a dispute recovery).
    @discardableResult
    mutating func reverse(
        _ transferID: String, amount: Int64, refund: String? = nil, disputeTag: String? = nil,
        created: Int64 = Book.from + 7_200, settlement: Settlement? = nil
    ) -> String {
        guard let t = input.transfers.firstIndex(where: { $0.id == transferID }) else {
            preconditionFailure("no transfer \(transferID)")
        }
        let transfer = input.transfers[t]
        let settle = settlement ?? Settlement(currency: transfer.currency, rateMillionths: nil)
        let id = next("trr")
        let bt = balanceTransaction(
            created: created, currency: settle.currency, amount: settle.convert(amount), fee: 0,
            type: "transfer_refund", category: "transfer_reversal", source: id, rate: settle.rateMillionths)
        input.transferReversals.append(
            TransferReversalFacts(
                id: id, transferID: transferID, created: created, currency: transfer.currency, amount: amount,
                sourceRefundID: refund, balanceTransactionID: bt, disputeIDMetadata: disputeTag))
        input.transfers[t].amountReversed += amount
        return id
    }

    // MARK: Disputes

    /// A dispute of `amount` (default: what is left of the charge). Statuses that withdraw funds get a withdrawal
    /// (fee 1500); `won` also gets a reinstatement without fee.
    @discardableResult
    mutating func dispute(
        _ chargeID: String, status: DisputeStatus, amount: Int64? = nil, created: Int64 = Book.from + 10_800,
        reinstatedAt: Int64? = nil
    ) -> String {
        let charge = input.charges[chargeIndex(chargeID)]
        let disputed = amount ?? (charge.amount - charge.amountRefunded)
        let id = next("dp")
        var bts: [String] = []
        if ["needs_response", "under_review", "lost", "won"].contains(status) {
            bts.append(
                balanceTransaction(
                    created: created, currency: charge.currency, amount: -disputed, fee: 1_500, type: "adjustment",
                    category: "dispute", source: id))
        }
        if status == .won {
            bts.append(
                balanceTransaction(
                    created: reinstatedAt ?? created + 3_600, currency: charge.currency, amount: disputed, fee: 0,
                    type: "adjustment", category: "dispute_reversal", source: id))
        }
        input.disputes.append(
            DisputeFacts(
                id: id, chargeID: chargeID, created: created, currency: charge.currency, amount: disputed,
                status: status, balanceTransactionIDs: bts))
        return id
    }

    // MARK: Reading

    func charge(_ id: String) -> ChargeFacts { input.charges[chargeIndex(id)] }

    func transferID(of chargeID: String) -> String {
        guard let id = charge(chargeID).transferID else { preconditionFailure("\(chargeID) has no transfer") }
        return id
    }

    private func chargeIndex(_ id: String) -> Int {
        guard let index = input.charges.firstIndex(where: { $0.id == id }) else {
            preconditionFailure("no charge \(id)")
        }
        return index
    }

    func reconcile() -> ReconciliationReport { Reconciler.reconcile(input) }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
