import ReconCore
import Reconcile
import Testing

/// Losses the platform covers for connected accounts (docs/RULES.md, "The platform's other money"):
/// `connect_collection_transfer` balance transactions count as `losses_covered` in the account's statement and the
/// Summary; `reserve_transaction`s are never a loss.
@Suite struct LossesCoveredTests {
    static func collection(
        _ id: String, net: Int64, account: String?, sourceRead: Bool = true, currency: Currency = .usd
    ) -> CollectionTransfer {
        CollectionTransfer(
            balanceTransactionID: id, created: Book.from + 3_600, currency: currency, net: net, account: account,
            sourceRead: sourceRead)
    }

    @Test func eachCollectionIsALossOfTheAccountItCollectedFor() {
        // Given two collections for acct_1 (50.00, 20.00) and one for acct_2 (jpy 3,000), and a reserve hold
        var book = Book()
        book.input.collectionTransfers = [
            Self.collection("txn_1", net: -5_000, account: "acct_1"),
            Self.collection("txn_2", net: -2_000, account: "acct_1"),
            Self.collection("txn_3", net: -3_000, account: "acct_2", currency: .jpy),
        ]
        book.balanceTransaction(
            created: Book.from + 60, currency: .usd, amount: -4_000, fee: 0, type: .reserveTransaction,
            category: "connect_reserved_funds", source: nil)
        // When reconciled
        let report = book.reconcile()
        // Then each account's statement holds its losses, the Summary their sum per currency; no exception
        let losses = report.connectedAccounts.map {
            "\($0.destinationAccount ?? "-") \($0.currency) \($0.lossesCovered)"
        }
        #expect(losses == ["acct_1 usd 7000", "acct_2 jpy 3000"])
        #expect(report.summary.first { $0.currency == .usd }?.lossesCovered == 7_000)
        #expect(report.summary.first { $0.currency == .jpy }?.lossesCovered == 3_000)
        #expect(report.exceptions.isEmpty)
    }

    @Test(arguments: [true, false])
    func aCollectionNamingNoAccountCountsUnderNoneAndSaysSo(sourceRead: Bool) throws {
        // Given a collection whose source named no account (or was never read)
        var book = Book()
        book.input.collectionTransfers = [Self.collection("txn_1", net: -5_000, account: nil, sourceRead: sourceRead)]
        // When reconciled
        let report = book.reconcile()
        // Then it counts under no account, and an exception names it with the loss
        #expect(report.connectedAccounts.map(\.destinationAccount) == [nil])
        #expect(report.connectedAccounts.first?.lossesCovered == 5_000)
        let exception = try #require(report.exceptions.first)
        #expect(exception.kind == .collectionAccountUnknown && exception.objectID == "txn_1")
        #expect(exception.actual == .amount(5_000))
        #expect(exception.message.contains(sourceRead ? "names no connected account" : "has not been read"))
    }

    @Test func aCollectionTwoPartsHoldCountsOnce() {
        var book = Book()
        book.input.collectionTransfers = [
            Self.collection("txn_1", net: -5_000, account: "acct_1"),
            Self.collection("txn_1", net: -5_000, account: "acct_1"),
        ]
        #expect(book.reconcile().summary.first?.lossesCovered == 5_000)
    }
}
