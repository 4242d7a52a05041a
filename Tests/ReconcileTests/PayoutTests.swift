import ReconCore
import Reconcile
import Testing

/// Payout reconciliation (docs/RULES.md, §5): each automatic payout of the range against the balance transactions it
/// paid out, and its findings.
@Suite struct PayoutTests {
    static let from: Int64 = 1_795_132_800  // 2026-11-20T00:00:00Z
    static let to: Int64 = from + 86_400

    /// A payout at 06:00 of the range with its own balance transaction, and what `?payout=` listed for it: the
    /// own transaction (−amount) and `paidOut` (nets), created the day before.
    struct Payout {
        var facts: PayoutFacts
        var transactions: [BalanceTransactionFacts]
        var links: [PayoutTransactionLink]

        init(
            _ id: String, amount: Int64, paidOut nets: [Int64], currency: Currency = .usd, status: PayoutStatus = .paid,
            automatic: Bool = true, created: Int64 = PayoutTests.from + 6 * 3_600, listed: Bool = true
        ) {
            let own = "txn_\(id)"
            facts = PayoutFacts(
                id: id, created: created, currency: currency, amount: amount, arrivalDate: PayoutTests.to + 86_400,
                status: status, automatic: automatic, balanceTransactionID: own,
                failureBalanceTransactionID: status == .failed ? "txn_\(id)_failure" : nil,
                failureCode: status == .failed ? "account_closed" : nil, livemode: false)
            transactions = [
                BalanceTransactionFacts(
                    id: own, created: created, currency: currency, amount: -amount, fee: 0, net: -amount,
                    type: "payout", reportingCategory: "payout", sourceID: id, exchangeRate: nil, status: "available",
                    availableOn: created)
            ]
            for (index, net) in nets.enumerated() {
                transactions.append(
                    BalanceTransactionFacts(
                        id: "txn_\(id)_\(index)", created: PayoutTests.from - 86_400 + Int64(index), currency: currency,
                        amount: net + 30, fee: 30, net: net, type: "charge", reportingCategory: "charge",
                        sourceID: "ch_\(id)_\(index)", exchangeRate: nil, status: "available",
                        availableOn: PayoutTests.from - 3_600))
            }
            links = listed ? transactions.map { PayoutTransactionLink(payoutID: id, balanceTransactionID: $0.id) } : []
        }
    }

    static func reconcile(_ payouts: [Payout]) -> ReconciliationReport {
        var objects = ObjectLists()
        objects.balanceTransactions = payouts.flatMap(\.transactions)
        objects.payouts = payouts.map(\.facts)
        objects.payoutTransactions = payouts.flatMap(\.links)
        return Reconciler.reconcile(
            ReconciliationInput(from: from, to: to, asOf: to, skippedTransferGrace: 3_600, objects: objects))
    }

    @Test func aPayoutWhoseTransactionsAddUpHasNoDifferenceAndNoFinding() throws {
        // Given a payout of 10.00 whose three transactions net 5.00 + 3.50 + 1.50
        let payout = Payout("po_1", amount: 1_000, paidOut: [500, 350, 150])
        // When reconciled
        let report = Self.reconcile([payout])
        // Then its row counts the three transactions, not its own, and the difference is zero
        let row = try #require(report.payouts.first)
        #expect(row.balanceTransactions == 3)
        #expect(row.netOfTransactions == 1_000)
        #expect(row.difference == 0)
        #expect(report.payoutTransactions.map(\.balanceTransactionID) == ["txn_po_1_0", "txn_po_1_1", "txn_po_1_2"])
        #expect(report.payoutTransactions.map(\.net).reduce(0, +) == row.netOfTransactions)
        #expect(report.payoutTransactions.first?.availableOn == Self.from - 3_600)
        #expect(report.payoutTransactions.first?.sourceID == "ch_po_1_0")
        #expect(report.exceptions.isEmpty)
    }

    @Test func aPayoutOverSeveralPartsIsJudgedOnAllItsTransactions() throws {
        // Given a payout of 11.00 whose four transactions net 4.00 + 3.00 + 2.00 + 1.00, too many for one part: the
        // first part holds the first two and continues it, the second holds the rest (and its own) and judges it
        let payout = Payout("po_1", amount: 1_100, paidOut: [400, 300, 200, 100])
        let own = payout.transactions[0]
        let first = Array(payout.transactions[1...2])
        let second = [own] + Array(payout.transactions[3...4])
        func part(_ transactions: [BalanceTransactionFacts], judged: JudgedObjects) -> ReconciliationInput {
            var objects = ObjectLists()
            objects.balanceTransactions = transactions
            objects.payouts = [payout.facts]
            objects.payoutTransactions = transactions.map {
                PayoutTransactionLink(payoutID: "po_1", balanceTransactionID: $0.id)
            }
            return ReconciliationInput(
                from: Self.from, to: Self.to, asOf: Self.to, skippedTransferGrace: 3_600, objects: objects,
                judged: judged)
        }
        var continued = JudgedObjects()
        continued.payoutsContinued = ["po_1"]
        let parts = [part(first, judged: continued), part(second, judged: JudgedObjects(.payout, ["po_1"]))]

        // When the rules read the two parts, and the rows are made part by part as the writer takes them
        var session = ReconciliationSession(asOf: Self.to, skippedTransferGrace: 3_600)
        for each in parts { session.add(each) }
        let report = session.report()
        var taking = ReconciliationSession(asOf: Self.to, skippedTransferGrace: 3_600)
        let streamed = parts.flatMap { part in
            taking.add(part)
            return taking.takePayoutTransactions()
        }

        // Then the payout counts all four transactions, nets 10.00 and is 1.00 off, once
        let row = try #require(report.payouts.first)
        #expect(report.payouts.count == 1)
        #expect(row.balanceTransactions == 4)
        #expect(row.netOfTransactions == 1_000)
        #expect(row.difference == 100)
        #expect(report.exceptions.map(\.kind) == [.payoutMismatch])
        #expect(report.exceptions.first?.expected == .amount(1_000))
        // And its rows are the four, in order, whichever way they are made
        let ids = ["txn_po_1_0", "txn_po_1_1", "txn_po_1_2", "txn_po_1_3"]
        #expect(report.payoutTransactions.map(\.balanceTransactionID) == ids)
        #expect(streamed.map(\.balanceTransactionID) == ids)
        // And the rest is the whole range's report, less the ledger (no part here judges the range's transactions)
        var whole = Self.reconcile([payout])
        whole.ledger = []
        #expect(report == whole)
    }

    @Test func aPayoutOfMoreThanItsTransactionsIsAMismatch() throws {
        // Given a payout of 11.00 whose transactions net 10.00, in yen-free dollars
        let report = Self.reconcile([Payout("po_1", amount: 1_100, paidOut: [600, 400])])
        // Then the difference is +1.00 and a payout_mismatch names the payout and its own balance transaction
        #expect(report.payouts.first?.difference == 100)
        let exception = try #require(report.exceptions.first)
        #expect(exception.kind == .payoutMismatch)
        #expect(exception.objectID == "po_1")
        #expect(exception.relatedID == "txn_po_1")
        #expect(exception.expected == .amount(1_000))
        #expect(exception.actual == .amount(1_100))
        #expect(exception.message.contains("11.00 usd") && exception.message.contains("1.00 usd"))
        #expect(report.findingCounts == [FindingCountRow(kind: "payout_mismatch", new: 1)])
    }

    @Test(arguments: ["failed", "canceled"])
    func aPayoutThatDidNotReachTheBankIsAFinding(_ status: String) throws {
        // Given a payout that failed or was canceled, its transactions adding up
        let report = Self.reconcile([
            Payout("po_1", amount: 1_000, paidOut: [1_000], status: PayoutStatus(rawValue: status))
        ])
        // Then it is listed with its status and reported once, as payout_failed
        #expect(report.payouts.first?.status.rawValue == status)
        #expect(report.payouts.first?.difference == 0)
        let exception = try #require(report.exceptions.first)
        #expect(report.exceptions.count == 1)
        #expect(exception.kind == .payoutFailed)
        #expect(exception.expected == .amount(1_000))
        #expect(exception.actual == .amount(0))
        #expect(exception.relatedID == (status == "failed" ? "txn_po_1_failure" : nil))
        #expect(exception.message.contains(status))
    }

    @Test func aManualPayoutIsListedWithoutFiguresAndNeverAMismatch() throws {
        // Given a manual payout (an Instant Payout: Stripe itemises nothing for it) and an automatic one created
        // after the range
        let manual = Payout("po_manual", amount: 1_000, paidOut: [], automatic: false)
        let later = Payout("po_later", amount: 1_000, paidOut: [1_000], created: Self.to + 6 * 3_600)
        // When reconciled
        let report = Self.reconcile([manual, later])
        // Then the manual payout has its row, typed manual, with no figures, and no finding; the later one nothing
        let row = try #require(report.payouts.first)
        #expect(report.payouts.count == 1)
        #expect(row.payoutID == "po_manual" && !row.automatic)
        #expect(row.balanceTransactions == nil && row.netOfTransactions == nil && row.difference == nil)
        #expect(report.payoutTransactions.isEmpty)
        #expect(report.exceptions.isEmpty)
    }

    @Test func aManualPayoutThatFailedIsAPayoutFailed() throws {
        // Given a manual payout that failed
        let manual = Payout("po_manual", amount: 1_000, paidOut: [], status: .failed, automatic: false)
        // When reconciled
        let report = Self.reconcile([manual])
        // Then it is a payout_failed, never a mismatch
        #expect(report.exceptions.map(\.kind) == [.payoutFailed])
        #expect(report.payouts.first?.automatic == false)
    }

    @Test func aPayoutWhoseTransactionsWereNeverListedSaysToExtractAgain() throws {
        // Given a payout the history holds without any ?payout= listing
        let report = Self.reconcile([Payout("po_1", amount: 1_000, paidOut: [1_000], listed: false)])
        // Then it is a mismatch whose message says what to do
        let exception = try #require(report.exceptions.first)
        #expect(exception.kind == .payoutMismatch)
        #expect(exception.message.contains("run the extraction for this range again"))
        #expect(report.payouts.first?.balanceTransactions == 0)
    }

    @Test func aPayoutListingTransactionsTheHistoryLacksNamesTheFirstByIDAndCountsEachOnce() throws {
        // Given a payout of 10.00 whose listing names two transactions the history lacks, the later id first, and
        // lists one of them and one the history holds twice
        var payout = Payout("po_1", amount: 1_000, paidOut: [600])
        let absent = ["txn_po_1_z", "txn_po_1_m"].map {
            PayoutTransactionLink(payoutID: "po_1", balanceTransactionID: $0)
        }
        payout.links = absent + payout.links + [absent[0], payout.links[1]]
        // When reconciled
        let report = Self.reconcile([payout])
        // Then the mismatch counts each absent transaction once and names the first by id; the one held counts once
        let exception = try #require(report.exceptions.first)
        #expect(exception.kind == .payoutMismatch)
        #expect(exception.message.contains("lists 2 balance transaction(s) the history lacks, such as txn_po_1_m,"))
        #expect(report.payouts.first?.balanceTransactions == 1)
        #expect(report.payoutTransactions.map(\.balanceTransactionID) == ["txn_po_1_0"])
    }

    @Test func payoutRowsComeByCreationThenIdAndTheirTransactionsInThatOrder() {
        // Given two payouts in jpy and bhd, given in reverse order
        let yen = Payout("po_b", amount: 877, paidOut: [877], currency: .jpy, created: Self.from + 7_200)
        let dinar = Payout("po_a", amount: 8_770, paidOut: [8_000, 770], currency: .bhd, created: Self.from + 7_200)
        let first = Payout("po_c", amount: 100, paidOut: [100], created: Self.from + 3_600)
        // When reconciled
        let report = Self.reconcile([yen, dinar, first])
        // Then payouts sort by creation, then id, and the transactions follow the payouts
        #expect(report.payouts.map(\.payoutID) == ["po_c", "po_a", "po_b"])
        #expect(report.payoutTransactions.map(\.payoutID) == ["po_c", "po_a", "po_a", "po_b"])
        #expect(report.exceptions.isEmpty)
    }
}
