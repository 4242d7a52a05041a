import ReconCore

// MARK: - Destination charges: platform_fees, skipped transfers, fee and transfer checks

extension ReportBuilder {
    /// Every succeeded, captured destination charge created in the range: its `platform_fees` row, its skipped
    /// transfer if any, and the checks of its application fee and transfer against what it asked for. A late
    /// outcome (a charge of an earlier day that settled since) gets its findings, not a row: `platform_fees` stays
    /// one row per charge created in the range.
    mutating func destinationCharges() {
        for charge in index.charges
        where index.judges(charge) && charge.isSucceededAndCaptured
            && index.isDestinationCharge(charge)
        {
            if index.isInRange(charge.created) { platformFee(charge) }
            skippedTransfer(charge)
            applicationFeeChecks(charge)
            transferChecks(charge)
        }
    }

    /// docs/RULES.md's fee styles, read from what the charge or its PaymentIntent asked for (a skipped or still young
    /// charge only shows its intent on the PaymentIntent).
    func feeStyle(_ charge: ChargeFacts, fee: ApplicationFeeFacts?) -> FeeStyle {
        let intent = index.paymentIntent(of: charge)
        if fee != nil || charge.applicationFeeAmount != nil || intent?.applicationFeeAmount != nil {
            return .applicationFee
        }
        if charge.transferDataAmount != nil || intent?.transferDataAmount != nil { return .transferAmount }
        return .fullTransfer
    }

    private mutating func platformFee(_ charge: ChargeFacts) {
        let intent = index.paymentIntent(of: charge)
        let transfer = index.transfer(of: charge)
        let fee = index.applicationFee(of: charge)
        // DPF = (captured − refunded) − (t.amount − t.amount_reversed) + kept fee, in the charge's currency; a missing
        // transfer or fee counts as zero, and so does a fee in another currency that cannot be converted. When the
        // transfer is in another currency (a transfer_currency_mismatch, reported for the same charge) the figure
        // mixes currencies as Stripe's own objects do; the exception row is what tells the reader not to trust it.
        var feeKept: Int64?
        if let fee {
            guard let kept = keptFee(fee, of: charge, intent: intent) else {
                overflow(
                    charge.id, currency: charge.currency, created: charge.created, what: "destination platform fee")
                return
            }
            feeKept = kept
        }
        guard
            let refunded = index.amountRefunded(charge),
            let kept = Checked.subtract(charge.amountCaptured, refunded),
            let transferred = Checked.subtract(transfer?.amount ?? 0, transfer?.amountReversed ?? 0),
            let afterTransfer = Checked.subtract(kept, transferred),
            let dpf = Checked.add(afterTransfer, feeKept ?? 0)
        else {
            overflow(charge.id, currency: charge.currency, created: charge.created, what: "destination platform fee")
            return
        }
        let chargeBT = charge.balanceTransactionID.flatMap { index.balanceTransactionByID[$0] }
        let net = platformNet(charge, transfer: transfer, fee: fee, chargeBT: chargeBT)
        let row = PlatformFeeRow(
            chargeID: charge.id, created: charge.created, currency: charge.currency, amount: charge.amount,
            amountRefunded: refunded,
            destinationAccount: charge.destinationAccountID ?? intent?.destinationAccountID
                ?? transfer?.destinationAccountID,
            feeStyle: feeStyle(charge, fee: fee), transferID: charge.transferID ?? transfer?.id,
            transferAmount: transfer?.amount, transferReversed: transfer?.amountReversed,
            applicationFeeID: fee?.id ?? charge.applicationFeeID, applicationFeeCurrency: fee?.currency,
            applicationFeeAmount: fee?.amount, applicationFeeRefunded: fee?.amountRefunded,
            applicationFeeKept: feeKept, destinationPlatformFee: dpf, stripeFee: chargeBT?.fee,
            settlementCurrency: net.settlement, platformNet: net.amount)
        platformFees.append(row)
        addToStatement(row)

        countInSummary(charge.currency, \.destinationCharges)
        let what = "charge"
        addToSummary(charge.currency, \.gross, charge.amount, objectID: charge.id, created: charge.created, what: what)
        addToSummary(
            charge.currency, \.refunded, refunded, objectID: charge.id, created: charge.created, what: what
        )
        addToSummary(
            charge.currency, \.destinationPlatformFee, dpf, objectID: charge.id, created: charge.created,
            what: "destination platform fee")
        // The Stripe fee counts in the settlement currency's row, so no summary row adds two currencies.
        if let chargeBT {
            addToSummary(
                chargeBT.currency, \.stripeFee, chargeBT.fee, objectID: charge.id, created: charge.created,
                what: "Stripe fee")
        }
    }

    /// What the platform kept of `fee` (`amount − amount_refunded`) in the charge's currency (docs/RULES.md): as it is
    /// when the fee is in the charge's currency; converted at the rate Stripe applied when it is not (a cross-border
    /// fee settles in the connected account's currency), which the asked-for `application_fee_amount` gives:
    /// `round_half_up(asked × kept / f.amount)`. 0 for a fee that cannot be converted (reported as
    /// `fee_currency_unconvertible`); `nil` when a figure overflows.
    private mutating func keptFee(
        _ fee: ApplicationFeeFacts, of charge: ChargeFacts, intent: PaymentIntentFacts?
    ) -> Int64? {
        guard let keptInFeeCurrency = Checked.subtract(fee.amount, fee.amountRefunded) else { return nil }
        guard fee.currency != charge.currency else { return keptInFeeCurrency }
        let asked = intent?.applicationFeeAmount ?? charge.applicationFeeAmount
        guard let asked, fee.amount > 0 else {
            exception(
                .feeCurrencyUnconvertible, fee.id, related: charge.id, currency: fee.currency,
                created: charge.created, subject: charge.id, actual: .amount(keptInFeeCurrency),
                message: "Application fee \(fee.id) of \(describe(keptInFeeCurrency, fee.currency)) is in "
                    + "\(fee.currency), charge \(charge.id) is in \(charge.currency), and no application_fee_amount "
                    + "gives Stripe's rate, so the fee counts as zero in the destination platform fee; convert it "
                    + "by hand with the rate on the fee's balance transaction.")
            return 0
        }
        return Checked.roundedHalfUp(asked, times: keptInFeeCurrency, dividedBy: fee.amount)
    }

    /// The sum of `net` over the platform's balance transactions of the charge, its refunds, its transfer and the
    /// transfer's reversals, its application fee and the fee's refunds, and its disputes, whenever created.
    ///
    /// The balance transactions are those the objects name (a failed refund's `failure_balance_transaction`
    /// included) plus those whose `source` is one of the objects (a failure or a reinstatement the object does not
    /// name). The settlement currency is the charge's balance transaction's; the net is `nil` (unknown, not zero)
    /// when a named balance transaction is absent from the input, when the balance transactions are in more than
    /// one currency (a cross-border fee settles in the connected account's currency, and no rate ties the two, so
    /// an invented sum would be worse than none), or when the sum overflows.
    private mutating func platformNet(
        _ charge: ChargeFacts, transfer: TransferFacts?, fee: ApplicationFeeFacts?,
        chargeBT: BalanceTransactionFacts?
    ) -> (settlement: Currency?, amount: Int64?) {
        var sources: [String] = [charge.id]
        var named: [String?] = [charge.balanceTransactionID]
        for refund in index.refundsByCharge[charge.id] ?? [] {
            sources.append(refund.id)
            named.append(refund.balanceTransactionID)
            named.append(refund.failureBalanceTransactionID)
        }
        if let transfer {
            sources.append(transfer.id)
            named.append(transfer.balanceTransactionID)
            for reversal in index.reversals(of: transfer) {
                sources.append(reversal.id)
                named.append(reversal.balanceTransactionID)
            }
        }
        if let fee {
            sources.append(fee.id)
            named.append(fee.balanceTransactionID)
            for refund in index.feeRefundsByFee[fee.id] ?? [] {
                sources.append(refund.id)
                named.append(refund.balanceTransactionID)
            }
        }
        for dispute in index.disputesByCharge[charge.id] ?? [] {
            sources.append(dispute.id)
            named.append(contentsOf: dispute.balanceTransactionIDs.map { Optional($0) })
        }
        return settledNet(
            sources: sources, named: named, settlement: chargeBT?.currency, objectID: charge.id,
            created: charge.created)
    }

    /// The sum of `net` over the balance transactions `named` and those whose `source` is one of `sources`, in
    /// `settlement` (else the one currency they are all in): `nil` (unknown, not zero) when a named balance
    /// transaction is absent from the input, when they are in more than one currency, or when the sum overflows.
    mutating func settledNet(
        sources: [String], named: [String?], settlement: Currency?, objectID: String, created: Int64
    ) -> (settlement: Currency?, amount: Int64?) {
        // Each transaction once, by id: only its currency and net (copying a whole fact retains each of its strings).
        // A charge names a handful, so a short list searched in order: a dictionary and a set per charge were a third
        // of the platform fee's time (docs/BENCHMARKS.md, "Fewer copies").
        var transactions: [(id: String, currency: Currency, net: Int64)] = []
        func add(_ id: String, _ currency: Currency, _ net: Int64) {
            if !transactions.contains(where: { $0.id == id }) { transactions.append((id, currency, net)) }
        }
        var complete = true
        for case let id? in named {
            let found = index.balanceTransactionByID.read(id) { bt -> Bool in
                add(id, bt.pointee.currency, bt.pointee.net)
                return true
            }
            if found == nil { complete = false }
        }
        for source in sources {
            for position in index.balanceTransactionsBySource[source] ?? [] {
                let facts = index.balanceTransactions
                add(facts[position].id, facts[position].currency, facts[position].net)
            }
        }
        let settlement =
            settlement
            ?? transactions.first.flatMap { first in
                transactions.allSatisfy { $0.currency == first.currency } ? first.currency : nil
            }
        guard complete, let settlement, transactions.allSatisfy({ $0.currency == settlement }) else {
            return (settlement, nil)
        }
        guard let net = Checked.sum(transactions.map(\.net)) else {
            overflow(objectID, currency: settlement, created: created, what: "platform net")
            return (settlement, nil)
        }
        return (settlement, net)
    }

    /// docs/RULES.md: the PaymentIntent asked for a transfer, the charge carries neither `transfer_data` nor
    /// `transfer`, and the charge is older than the grace period of asynchronous capture.
    private mutating func skippedTransfer(_ charge: ChargeFacts) {
        guard let intent = index.paymentIntent(of: charge), let destination = intent.destinationAccountID,
            charge.destinationAccountID == nil, charge.transferID == nil, !isYoung(charge)
        else { return }
        // What the transfer would have carried, capped at what was captured (a partial capture caps the fee and the
        // transfer: docs/RULES.md).
        let owed: Int64
        if let amount = intent.transferDataAmount {
            owed = min(amount, charge.amountCaptured)
        } else if let amount = Checked.subtract(charge.amountCaptured, intent.applicationFeeAmount ?? 0) {
            owed = min(amount, charge.amountCaptured)
        } else {
            overflow(charge.id, currency: charge.currency, created: charge.created, what: "amount owed")
            return
        }
        let row = SkippedTransferRow(
            chargeID: charge.id, created: charge.created, currency: charge.currency, amount: charge.amount,
            intendedDestination: destination, paymentIntentID: intent.id, amountOwed: owed, status: .new)
        skippedTransfers.append(row)
        addToStatement(row)
        countInSummary(charge.currency, \.skippedTransfers)
        addToSummary(
            charge.currency, \.amountOwed, owed, objectID: charge.id, created: charge.created, what: "amount owed")
    }

    /// The charge showed `application_fee_amount`: the fee must exist and be of that amount. A charge inside the
    /// grace period may not show its fee yet (asynchronous capture), so it is not reported as missing.
    private mutating func applicationFeeChecks(_ charge: ChargeFacts) {
        // A partial capture caps the fee at what was captured (docs/RULES.md).
        guard let asked = charge.applicationFeeAmount else { return }
        let requested = min(asked, charge.amountCaptured)
        guard let fee = index.applicationFee(of: charge) else {
            guard charge.applicationFeeID == nil, !isYoung(charge) else { return }
            exception(
                .applicationFeeMissing, charge.id, related: nil, currency: charge.currency, created: charge.created,
                expected: .amount(requested), actual: .amount(0),
                message: "Charge \(charge.id) asked for an application fee of \(describe(requested, charge.currency)) "
                    + "but Stripe created none; collect the fee from the connected account or correct the charge.")
            return
        }
        // A fee in another currency is converted, never compared (docs/RULES.md): see keptFee.
        guard fee.currency == charge.currency, fee.amount != requested else { return }
        exception(
            .applicationFeeAmountMismatch, fee.id, related: charge.id, currency: charge.currency,
            created: charge.created, subject: charge.id, expected: .amount(requested), actual: .amount(fee.amount),
            message: "Application fee \(fee.id) is \(describe(fee.amount, fee.currency)) but charge \(charge.id) "
                + "asked for \(describe(requested, charge.currency)); refund or collect the difference.")
    }

    /// The transfer must carry what the charge asked for: `transfer_data.amount` (else the captured amount), the
    /// charge's currency and `transfer_data.destination`; and it must be this charge's (its `source_transaction`).
    private mutating func transferChecks(_ charge: ChargeFacts) {
        guard let transfer = index.transfer(of: charge) else { return }
        let intent = index.paymentIntent(of: charge)
        let askedAmount =
            charge.destinationAccountID != nil
            ? charge.transferDataAmount : (charge.transferDataAmount ?? intent?.transferDataAmount)
        // What the charge asked for, capped at what was captured (a partial capture caps the transfer: docs/RULES.md).
        let expected = min(askedAmount ?? charge.amountCaptured, charge.amountCaptured)
        if transfer.amount != expected {
            exception(
                .transferAmountMismatch, transfer.id, related: charge.id, currency: charge.currency,
                created: charge.created, subject: charge.id, expected: .amount(expected),
                actual: .amount(transfer.amount),
                message: "Transfer \(transfer.id) sent \(describe(transfer.amount, transfer.currency)) but charge "
                    + "\(charge.id) asked for \(describe(expected, charge.currency)); "
                    + "transfer or reverse the difference."
            )
        }
        if transfer.currency != charge.currency {
            exception(
                .transferCurrencyMismatch, transfer.id, related: charge.id, currency: charge.currency,
                created: charge.created, subject: charge.id, expected: .text(charge.currency.rawValue),
                actual: .text(transfer.currency.rawValue),
                message: "Transfer \(transfer.id) is in \(transfer.currency) but charge \(charge.id) is in "
                    + "\(charge.currency), so the charge's platform fee mixes currencies; "
                    + "ask Stripe why and correct it."
            )
        }
        if let source = transfer.sourceTransactionID, source != charge.id {
            exception(
                .transferOfAnotherCharge, transfer.id, related: charge.id, currency: charge.currency,
                created: charge.created, subject: charge.id, expected: .text(charge.id), actual: .text(source),
                message: "Charge \(charge.id) names transfer \(transfer.id), but that transfer was funded by charge "
                    + "\(source), so this charge's platform fee counts another charge's transfer; ask Stripe support "
                    + "which transfer belongs to \(charge.id).")
        }
        if let destination = charge.destinationAccountID, transfer.destinationAccountID != destination {
            exception(
                .transferDestinationMismatch, transfer.id, related: charge.id, currency: charge.currency,
                created: charge.created, subject: charge.id, expected: .text(destination),
                actual: transfer.destinationAccountID.map { .text($0) },
                message: "Transfer \(transfer.id) went to \(transfer.destinationAccountID ?? "no account") but charge "
                    + "\(charge.id) asked for \(destination); reverse it and transfer the funds to the right account.")
        }
    }
}
