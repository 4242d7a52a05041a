import ReconCore

// MARK: - Exceptions about objects created in the range

extension ReportBuilder {
    /// A succeeded, captured charge in the range must have a balance transaction. Pending and failed charges are
    /// left alone (a declined card has none; a pending debit gets one when it settles), and so is a charge inside
    /// the grace period of asynchronous capture, whose balance transaction Stripe attaches a little later.
    mutating func chargesInRange() {
        for charge in index.charges
        where index.judges(charge) && charge.isSucceededAndCaptured
            && !isYoung(charge)
        {
            missingBalanceTransaction(
                charge.balanceTransactionID, of: "Charge", charge.id, related: nil, currency: charge.currency,
                created: charge.created)
        }
    }

    /// Transfers in the range: each needs a balance transaction (unless it or its charge is still inside the grace
    /// period: Stripe attaches it later). A transfer funded by a charge that is not a destination charge is a
    /// separately transferred charge (``transferGroups()``), never an exception (docs/RULES.md).
    mutating func transfersInRange() {
        for transfer in index.transfers where index.judges(transfer) {
            guard !isPartYoung(created: transfer.created, chargeID: transfer.sourceTransactionID) else { continue }
            missingBalanceTransaction(
                transfer.balanceTransactionID, of: "Transfer", transfer.id, related: transfer.sourceTransactionID,
                currency: transfer.currency, created: transfer.created)
        }
    }

    /// Application fees in the range: each needs a balance transaction, unless it or its charge is still inside the
    /// grace period.
    mutating func applicationFeesInRange() {
        for fee in index.applicationFees
        where index.judges(fee)
            && !isPartYoung(created: fee.created, chargeID: fee.originatingChargeID)
        {
            missingBalanceTransaction(
                fee.balanceTransactionID, of: "Application fee", fee.id, related: fee.originatingChargeID,
                currency: fee.currency, created: fee.created)
        }
    }

    /// A refund in the range that failed (`status: failed`) after it reversed the transfer: the connected account was
    /// debited, the customer got nothing, and the money is back on the platform (its `refund_failure` balance
    /// transaction), owed to the account. Stripe does not give the reversal back on its own, so the reversal's
    /// amount is what the platform owes.
    mutating func failedRefunds() {
        for refund in index.refunds
        where refund.hasFailed && refund.transferReversalID != nil
            && index.judges(refund)
        {
            guard let reversalID = refund.transferReversalID else { continue }
            let reversal = index.reversalByID[reversalID]
            let owed = reversal?.amount ?? refund.amount
            let currency = reversal?.currency ?? refund.currency
            let account =
                reversal.flatMap { index.transferByID[$0.transferID]?.destinationAccountID } ?? "the connected account"
            let reason = refund.failureReason.map { " (\($0))" } ?? ""
            exception(
                .failedRefundNotRetransferred, refund.id, related: reversalID, currency: currency,
                created: refund.created, expected: .amount(owed), actual: .amount(0),
                message: "Refund \(refund.id) of \(describe(refund.amount, refund.currency)) failed\(reason) after "
                    + "reversal \(reversalID) took \(describe(owed, currency)) back from \(account): the customer got "
                    + "nothing and the money is back on the platform; transfer it to \(account) again, or refund the "
                    + "customer another way.")
        }
    }

    /// Whether a transfer or application fee, or the charge it belongs to, is still inside the grace period of
    /// asynchronous capture and payment methods (docs/RULES.md, "Asynchronous parts").
    private func isPartYoung(created: Int64, chargeID: String?) -> Bool {
        if isYoung(created: created) { return true }
        // The charge's creation time read where the charge is, not from a copy of it.
        guard let chargeCreated = chargeID.flatMap({ index.chargeByID.read($0) { $0.pointee.created } }) else {
            return false
        }
        return isYoung(created: chargeCreated)
    }

    /// One row per object Stripe answered 404 for during extraction.
    mutating func missingObjects(_ missing: [(kind: ObjectKind, id: String)]) {
        for object in missing {
            let kind = object.kind.rawValue.replacingUnderscores()
            exception(
                .missingObject, object.id, related: nil, currency: nil, created: .max,
                message: "Stripe answered 404 for \(kind) \(object.id), which other objects refer to, so figures "
                    + "that depend on it count it as zero; ask Stripe support whether it was deleted.")
        }
    }

    private mutating func missingBalanceTransaction(
        _ balanceTransactionID: String?, of noun: String, _ objectID: String, related: String?, currency: Currency,
        created: Int64
    ) {
        if let balanceTransactionID {
            guard index.isAbsent(balanceTransaction: balanceTransactionID) else { return }
            exception(
                .missingBalanceTransaction, objectID, related: related, currency: currency, created: created,
                message: "\(noun) \(objectID) names balance transaction \(balanceTransactionID), which is not in "
                    + "the extracted data; run the extraction for this range again.")
        } else {
            exception(
                .missingBalanceTransaction, objectID, related: related, currency: currency, created: created,
                message: "\(noun) \(objectID) has no balance transaction, so its money is missing from the ledger; "
                    + "check it in the Stripe Dashboard and ask Stripe support if it stays so.")
        }
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "_" ? " " : $0 })
    }
}
