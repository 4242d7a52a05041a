import ReconCore

// MARK: - Payouts: each automatic payout of the range against the balance transactions it paid out

extension ReportBuilder {
    /// Every automatic payout created in the range: its `payouts` row, a `payout_transactions` row per balance
    /// transaction it paid out, and its findings.
    ///
    /// What `?payout=` listed counts, except the payout's own balance transactions (the one it names, and any
    /// whose `source` is the payout): `net_of_transactions` is the sum of the others' `net` in the payout's
    /// currency, and `difference = amount − net_of_transactions` (the own transaction is −`amount`, so the
    /// listed transactions of a payout that adds up sum to zero). A manual payout (an Instant Payout, a payout of a
    /// balance Stripe never pays out automatically) lists nothing: its row has no figures and it is never a
    /// `payout_mismatch`; it moves the balance like any other (docs/RULES.md, "The books close").
    ///
    /// Stripe lists a payout's balance transactions completely only once its `reconciliation_status` is
    /// `completed` (docs/EXTRACTION.md): before that, the row shows the payout with its status and leaves the count,
    /// net and difference empty, no `payout_transactions` rows are made of the partial list and no `payout_mismatch` is
    /// judged; a later run of a range that holds the payout reads the list again.
    ///
    /// The payouts are taken by creation time, then id, so their `payout_transactions` rows are made in the
    /// report's order.
    mutating func payouts() {
        for payout in index.payouts.sorted(by: { ($0.created, $0.id) < ($1.created, $1.id) }) {
            if !payout.automatic {
                if index.judges(payout) { manual(payout) }
            } else if payout.isReconciled && index.continues(payout) {
                carry(payout)
            } else if index.judges(payout) {
                reconcile(payout)
            }
        }
    }

    /// Keeps what this part holds of a payout whose transactions continue in later parts: their count and net in
    /// its currency (and makes their rows), and the ids it lists that the history lacks.
    private mutating func carry(_ payout: PayoutFacts) {
        let paid = Self.paidOut(payout, index)
        var carried = payoutCarry[payout.id] ?? PayoutCarry()
        carried.add(paid.transactions, currency: payout.currency)
        carried.absent += paid.absent
        carried.listed = carried.listed || paid.listed
        payoutCarry[payout.id] = carried
        if index.isInRange(payout.created) { payoutTransactionRows += Self.rows(payout, paid.transactions) }
    }

    /// A payout of an earlier day judged as a late outcome (it failed, or Stripe finished reconciling it) gets its
    /// findings, not a row: `payouts` and `payout_transactions` stay the range's.
    private mutating func reconcile(_ payout: PayoutFacts) {
        let ownsRows = index.isInRange(payout.created)
        if payout.didNotArrive { payoutFailed(payout) }
        guard payout.isReconciled else {
            if ownsRows { payoutRows.append(row(payout, figures: nil)) }
            return
        }
        let paid = Self.paidOut(payout, index)
        // What earlier parts held of it, when its transactions were too many for one part.
        var carried = payoutCarry.removeValue(forKey: payout.id) ?? PayoutCarry()
        carried.add(paid.transactions, currency: payout.currency)
        guard let net = carried.net, let difference = Checked.subtract(payout.amount, net) else {
            overflow(payout.id, currency: payout.currency, created: payout.created, what: "net of transactions")
            return
        }
        let count = carried.count
        let absent = carried.absent + paid.absent
        let listed = carried.listed || paid.listed
        if ownsRows {
            payoutRows.append(row(payout, figures: (count, net, difference)))
            payoutTransactionRows += Self.rows(payout, paid.transactions)
        }

        if difference != 0 {
            exception(
                .payoutMismatch, payout.id, related: payout.balanceTransactionID, currency: payout.currency,
                created: payout.created, expected: .amount(net), actual: .amount(payout.amount),
                message: mismatchMessage(
                    payout, net: net, difference: difference, count: count, listed: listed, absent: absent))
        }
    }

    /// A manual payout: its row (created in the range), and whether it failed.
    private mutating func manual(_ payout: PayoutFacts) {
        if payout.didNotArrive { payoutFailed(payout) }
        if index.isInRange(payout.created) { payoutRows.append(row(payout, figures: nil)) }
    }

    /// What `payout` paid out, as the history holds it: the listed balance transactions but the payout's own, by
    /// creation time, then id; the ids listed that the history lacks, by id; and whether `?payout=` listed anything.
    private static func paidOut(
        _ payout: PayoutFacts, _ index: FactIndex
    ) -> (transactions: [BalanceTransactionFacts], absent: [String], listed: Bool) {
        let listed = index.transactionsByPayout[payout.id] ?? []
        var transactions: [BalanceTransactionFacts] = []
        var absent: [String] = []
        for id in listed where id != payout.balanceTransactionID {
            guard let transaction = index.balanceTransactionByID[id] else {
                absent.append(id)
                continue
            }
            guard transaction.sourceID != payout.id else { continue }
            transactions.append(transaction)
        }
        transactions.sort { ($0.created, $0.id) < ($1.created, $1.id) }
        absent.sort()
        return (transactions, absent, !listed.isEmpty)
    }

    /// The `payout_transactions` rows of `payout`, one per transaction it paid out.
    private static func rows(_ payout: PayoutFacts, _ transactions: [BalanceTransactionFacts]) -> [PayoutTransactionRow]
    {
        transactions.map { transaction in
            PayoutTransactionRow(
                payoutID: payout.id, balanceTransactionID: transaction.id, created: transaction.created,
                availableOn: transaction.availableOn, currency: transaction.currency, gross: transaction.amount,
                fee: transaction.fee, net: transaction.net, reportingCategory: transaction.reportingCategory,
                sourceID: transaction.sourceID)
        }
    }

    /// The `payouts` row of `payout`, with its figures once its list is final.
    private func row(_ payout: PayoutFacts, figures: (count: Int, net: Int64, difference: Int64)?) -> PayoutRow {
        PayoutRow(
            payoutID: payout.id, created: payout.created, arrivalDate: payout.arrivalDate, currency: payout.currency,
            amount: payout.amount, status: payout.status, reconciliationStatus: payout.reconciliationStatus,
            balanceTransactions: figures?.count, netOfTransactions: figures?.net, difference: figures?.difference,
            automatic: payout.automatic)
    }

    /// A payout that failed or was canceled: its money came back to the balance instead of reaching the bank.
    private mutating func payoutFailed(_ payout: PayoutFacts) {
        let returned = payout.failureBalanceTransactionID.map { " (returned by \($0))" } ?? ""
        let reason = payout.failureCode.map { " (\($0))" } ?? ""
        exception(
            .payoutFailed, payout.id, related: payout.failureBalanceTransactionID, currency: payout.currency,
            created: payout.created, expected: .amount(payout.amount), actual: .amount(0),
            message: "Payout \(payout.id) of \(describe(payout.amount, payout.currency)) is \(payout.status)"
                + "\(reason), so the funds are back in the Stripe balance\(returned) instead of the bank; "
                + "check the bank account in the Stripe Dashboard, and the next payout should include them.")
    }

    private func mismatchMessage(
        _ payout: PayoutFacts, net: Int64, difference: Int64, count: Int, listed: Bool, absent: [String]
    ) -> String {
        guard listed else {
            return "Payout \(payout.id) of \(describe(payout.amount, payout.currency)) has no balance transactions "
                + "in the history (they are listed with ?payout=); run the extraction for this range again."
        }
        guard absent.isEmpty else {
            return "Payout \(payout.id) lists \(absent.count) balance transaction(s) the history lacks, such as "
                + "\(absent[0]), so its transactions add up to \(describe(net, payout.currency)) instead of "
                + "\(describe(payout.amount, payout.currency)); run the extraction for this range again."
        }
        return "Payout \(payout.id) sent \(describe(payout.amount, payout.currency)) to the bank but the \(count) "
            + "balance transactions it paid out add up to \(describe(net, payout.currency)) (difference "
            + "\(describe(difference, payout.currency))); compare with Stripe's payout reconciliation report and "
            + "ask Stripe support about the difference."
    }
}

/// What the parts so far held of a payout whose transactions continue in later parts.
struct PayoutCarry {
    var count = 0
    /// The net of those in the payout's currency; `nil` once it overflowed.
    var net: Int64? = 0
    var absent: [String] = []
    var listed = false

    mutating func add(_ transactions: [BalanceTransactionFacts], currency: Currency) {
        count += transactions.count
        let part = Checked.sum(transactions.filter { $0.currency == currency }.map(\.net))
        net = net.flatMap { total in part.flatMap { Checked.add(total, $0) } }
    }
}
