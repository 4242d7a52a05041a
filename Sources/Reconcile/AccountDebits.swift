import ReconCore

// MARK: - Account debits (docs/RULES.md, "The platform's other money")

extension ReportBuilder {
    /// Every succeeded payment from a connected account created in the range (``ChargeFacts/isPaidByAnAccount``: an
    /// account debit, or a payment from the account's Stripe balance) this part judges: what it took from the account
    /// (``ChargeFacts/debitedAmount``) counts in that account's statement and the Summary as `account_debits`. Neither
    /// is a sale: the destination charges and transfer groups leave them out by their own definitions; only a debit
    /// gives back what it names (``AccountDebitLinks``).
    mutating func accountDebits() {
        if let judged = index.judged, judged[.charge].isEmpty { return }
        let charges = index.charges
        charges.forEachInPlace { found in
            // The cheapest questions first: most charges are out at the first or second.
            guard index.isInRange(found.pointee.created), found.pointee.isSucceededAndCaptured,
                found.pointee.isPaidByAnAccount, index.judges(found)
            else { return }
            // One of the few: copied once.
            let charge = found.pointee
            guard let amount = charge.debitedAmount else {
                overflow(charge.id, currency: charge.currency, created: charge.created, what: "account debit")
                return
            }
            addToStatementAndSummary(
                account: charge.debitedAccount, currency: charge.currency, \.accountDebits, \.accountDebits, amount,
                objectID: charge.id, created: charge.created, what: "account debits")
        }
    }
}
