import Foundation

extension SandboxWorld {
    /// The balance transactions of `type` (Stripe's `type`, such as `issuing_transaction`) created in `window`,
    /// oldest first: for tests that hide one from the lists (``SandboxOptions/hiddenBalanceTransactions``).
    public func balanceTransactionIDs(type: String, createdIn window: Range<Date>) -> [String] {
        let bts = storage.balanceTransactions
        let lower = Int64(window.lowerBound.timeIntervalSince1970)
        let upper = Int64(window.upperBound.timeIntervalSince1970)
        return (0..<bts.count).filter { bts.type[$0].type == type && (lower..<upper).contains(bts.created[$0]) }
            .sorted { bts.created[$0] < bts.created[$1] }
            .map { storage.ids.id(.balanceTransaction, $0) }
    }
}
