/// The range's list streams still paging, per list: tells when every list but the balance transactions has
/// ended, the moment the follow-ups can be planned while that longest list still pages.
actor RangeLists {
    private var streams: [ListKind: Int]
    private var planned = false
    private var payoutListsPlanned = false

    /// `streams`: the windows each list starts with.
    init(streams: [ListKind: Int]) { self.streams = streams }

    /// A stream of `kind` was added (a window split).
    func started(_ kind: ListKind) { streams[kind, default: 0] += 1 }

    /// A stream of `kind` ended. `true` once, for the stream that ended the last list but the balance
    /// transactions.
    func ended(_ kind: ListKind) -> Bool {
        streams[kind, default: 1] -= 1
        return othersEnded()
    }

    /// `true` once, when the payouts list has no stream left: the lists of what each payout paid out can start.
    func payoutListsDue() -> Bool {
        guard !payoutListsPlanned, streams[.payouts, default: 0] <= 0 else { return false }
        payoutListsPlanned = true
        return true
    }

    /// `true` once, when every list but the balance transactions has no stream left.
    func othersEnded() -> Bool {
        guard !planned, streams.allSatisfy({ $0.key == .balanceTransactions || $0.value <= 0 }) else { return false }
        planned = true
        return true
    }
}
