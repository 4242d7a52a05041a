extension ReconciliationInput {
    /// The whole range as one input: the parts of a range (`HistoryParts.forEach`) merged, each
    /// object once, judging what the parts judged. The reconciler fed it makes the report the parts make, all at
    /// once: for tests that hold the two to the same report, and for benchmarks that need a range's facts in
    /// memory. A million charges take gigabytes this way.
    public init(merging parts: [ReconciliationInput]) {
        let first = parts.first
        self.init(
            from: first?.from ?? 0, to: first?.to ?? 0, asOf: first?.asOf ?? 0,
            skippedTransferGrace: first?.skippedTransferGrace ?? 0)
        var objects = ObjectLists()
        var judged = JudgedObjects()
        for part in parts {
            objects.append(contentsOf: part.objects)
            missingObjects += part.missingObjects
            ledgerTotals += part.ledgerTotals
            stripeCostTransactions += part.stripeCostTransactions
            collectionTransfers += part.collectionTransfers
            pendingCharges += part.pendingCharges
            if let partBalance = part.balance { balance = partBalance }
            lateBalanceComparisons += part.lateBalanceComparisons
            guard let partJudged = part.judged else { continue }
            for kind in partJudged.kinds { judged[kind].formUnion(partJudged[kind]) }
            judged.missingObjects = judged.missingObjects || partJudged.missingObjects
        }
        self.objects = objects.uniqued()
        self.objects.payoutTransactions = Array(Set(objects.payoutTransactions)).sorted {
            ($0.payoutID, $0.balanceTransactionID) < ($1.payoutID, $1.balanceTransactionID)
        }
        self.judged = judged
    }
}
