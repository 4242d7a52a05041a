import Foundation
import ReconCore
import Reconcile
import Testing

/// The connected accounts' statements, the Summary's per-day series and its findings by kind.
@Suite struct ConnectedAccountTests {
    @Test func eachAccountsStatementSumsItsPlatformFeeSkippedTransferAndDisputeRows() throws {
        // Given two accounts: acct_1 with an application-fee charge refunded in part (reversing the transfer and
        // refunding the fee) and a lost dispute; acct_2 with a transfer-amount charge in usd and one in eur, and a
        // skipped transfer
        var book = Book()
        let first = book.charge(amount: 1_000, style: .applicationFee, retained: 123, destination: "acct_1")
        book.refund(first, amount: 400, reversal: 400, feeRefund: 50)
        let second = book.charge(amount: 2_000, style: .applicationFee, retained: 200, destination: "acct_1")
        book.dispute(second, status: "lost")
        book.charge(amount: 1_000, style: .transferAmount, retained: 123, destination: "acct_2")
        book.charge(amount: 500, currency: .eur, style: .transferAmount, retained: 50, destination: "acct_2")
        book.charge(amount: 3_000, style: .transferAmount, retained: 300, destination: "acct_2", transferred: false)
        // When reconciled
        let report = book.reconcile()
        // Then there is one statement per account and currency, in account order
        #expect(
            report.connectedAccounts.map { "\($0.destinationAccount ?? "-") \($0.currency)" }
                == ["acct_1 usd", "acct_2 eur", "acct_2 usd"])
        let acct1 = report.connectedAccounts[0]
        #expect(acct1.destinationCharges == 2)
        #expect(acct1.gross == 3_000)
        #expect(acct1.refunded == 400)
        #expect(acct1.transferred == 3_000)
        #expect(acct1.reversed == 400)
        #expect(acct1.applicationFees == 123 - 50 + 200)
        #expect(acct1.unreversedDisputes == 1)
        #expect(acct1.unrecovered == 2_000)
        // DPF = (gross − refunded) − (transferred − reversed) + application fees, here for fully captured charges
        #expect(
            acct1.destinationPlatformFee
                == (acct1.gross - acct1.refunded) - (acct1.transferred - acct1.reversed) + acct1.applicationFees)
        let acct2 = report.connectedAccounts[2]
        #expect(acct2.destinationCharges == 2)
        #expect(acct2.skippedTransfers == 1)
        #expect(acct2.amountOwed == 2_700)
        #expect(acct2.transferred == 877)
        #expect(acct2.destinationPlatformFee == 123 + 3_000)
        // And each column adds up to the summary's, per currency
        for summary in report.summary {
            let statements = report.connectedAccounts.filter { $0.currency == summary.currency }
            #expect(statements.map(\.destinationCharges).reduce(0, +) == summary.destinationCharges)
            #expect(statements.map(\.gross).reduce(0, +) == summary.gross)
            #expect(statements.map(\.refunded).reduce(0, +) == summary.refunded)
            #expect(statements.map(\.destinationPlatformFee).reduce(0, +) == summary.destinationPlatformFee)
            #expect(statements.map(\.amountOwed).reduce(0, +) == summary.amountOwed)
            #expect(statements.map(\.unrecovered).reduce(0, +) == summary.unrecovered)
        }
        // And they tie to the platform_fees rows of each account
        let fees = report.platformFees.filter { $0.destinationAccount == "acct_1" }
        #expect(fees.map { $0.transferAmount ?? 0 }.reduce(0, +) == acct1.transferred)
        #expect(fees.map { $0.transferReversed ?? 0 }.reduce(0, +) == acct1.reversed)
        #expect(
            fees.map { ($0.applicationFeeAmount ?? 0) - ($0.applicationFeeRefunded ?? 0) }.reduce(0, +)
                == acct1.applicationFees)
    }

    @Test func thePerDaySeriesHasEveryDayOfTheRangeForEveryCurrencyInTheGivenTimeZone() throws {
        // Given a three-day range with usd charges on its first and last day (UTC) and a jpy charge on the second
        var book = Book()
        book.input.to = Book.from + 3 * Book.day
        book.input.asOf = book.input.to + Book.day
        book.charge(amount: 1_000, retained: 100, created: Book.from + 3_600)
        book.charge(amount: 1_000, retained: 200, created: Book.from + 2 * Book.day + 82_800)
        book.charge(amount: 10_000, currency: .jpy, retained: 700, created: Book.from + Book.day + 3_600)
        // When reconciled with UTC days, and with the days of New York (UTC−5 in November)
        let utc = book.reconcile()
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let local = Reconciler.reconcile(
            book.input, days: ReportingDays(from: book.input.from, to: book.input.to, timeZone: newYork))
        // Then every currency has a point for every day, zero where it had no charge
        #expect(
            utc.dailyPlatformFees.map { "\($0.currency) \($0.day) \($0.destinationPlatformFee)" } == [
                "jpy 2026-11-01 0", "jpy 2026-11-02 700", "jpy 2026-11-03 0",
                "usd 2026-11-01 100", "usd 2026-11-02 0", "usd 2026-11-03 200",
            ])
        // And in New York the range starts on the evening of Oct 31 and the last charge (23:00Z) is on Nov 3
        #expect(
            local.dailyPlatformFees.filter { $0.currency == .usd }.map(\.day)
                == ["2026-10-31", "2026-11-01", "2026-11-02", "2026-11-03"])
        #expect(
            local.dailyPlatformFees.first { $0.currency == .usd && $0.day == "2026-10-31" }?.destinationPlatformFee
                == 100)
        #expect(
            local.dailyPlatformFees.first { $0.currency == .usd && $0.day == "2026-11-03" }?.destinationPlatformFee
                == 200)
    }

    @Test func findingsAreCountedByKindAndStatusWithTheResolvedOnes() throws {
        // Given a report with a skipped transfer (open), an unreversed dispute (new) and a refund without reversal
        var book = Book()
        book.charge(transferred: false)
        let disputed = book.charge(amount: 2_000)
        book.dispute(disputed, status: "lost")
        let refunded = book.charge(amount: 3_000)
        book.refund(refunded, amount: 1_000)
        var report = book.reconcile()
        #expect(report.findingCounts.allSatisfy { $0.open == 0 && $0.resolved == 0 })
        report.skippedTransfers[0].status = .open
        // When counted with two resolved findings of earlier runs
        let counts = FindingCounts.rows(of: report, resolvedKinds: ["skipped_transfer", "application_fee_missing"])
        // Then each kind has its new, open and resolved counts, sorted by kind
        #expect(
            counts == [
                FindingCountRow(kind: "application_fee_missing", resolved: 1),
                FindingCountRow(kind: "refund_not_recovered", new: 1),
                FindingCountRow(kind: "skipped_transfer", open: 1, resolved: 1),
                FindingCountRow(kind: "unreversed_dispute", new: 1),
            ])
    }
}
