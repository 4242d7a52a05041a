import ReconCore
import StripeAPI

/// A list paged with a cursor, over a time window (range lists, follow-up windows) or unbounded (lists by
/// parent or by charge).
struct ListStream: Sendable {
    var kind: ListKind
    var window: Range<Int64>?
    var cursor: String?
    /// For follow-up lists: the path (`/v1/transfers/tr_1/reversals`), endpoint and extra filter.
    var path: String?
    var endpoint: String?
    var filter: [(String, String)] = []
    /// `expand[]` of every page.
    var expansions: [String] = []
    /// One of the range's lists: its windows are checkpointed and counted in ``RangeLists``.
    var isRange = false
    /// A window of the look-back before the range, read again for late outcomes.
    var isLateRead = false
    /// Items paged so far, with the window's upper bound: the stream's density.
    var listed = 0
    /// Stop after this many pages (the first page of a payout's list, which shows whether it is long); `nil`: page
    /// to the end.
    var pageLimit: Int?
    /// Pages fetched so far.
    var pages = 0
    /// Whether the last page fetched said more follow (`has_more`).
    var hasMore = false
    /// The creation times of the newest and oldest objects paged so far (lists come newest first).
    var newestCreated: Int64?
    var oldestCreated: Int64?
    /// Whether a dense window may be split, and the pages a piece should be expected to hold at least.
    var splits = true
    var minimumPagesPerPiece = ListPager.minimumPagesPerPiece
    /// Whether its pages take their endpoint's next slot before other streams' (``RequestBudget``): a payout's list,
    /// which the run would otherwise wait for at its end.
    var ahead = false
    /// Objects per second of its window, as far as known before its first page: the density of the list it was cut
    /// from, or of the span before the range in the history.
    var density: Double?

    /// A window of one of the range's lists.
    init(range kind: ListKind, window: Range<Int64>) {
        self.kind = kind
        self.window = window
        expansions = kind.rangeExpansions
        isRange = true
    }

    /// A window of the look-back before the range, read again with the range list's expansions: the late outcomes
    /// of a kind whose objects to read again are more than the window's pages (docs/EXTRACTION.md).
    init(lateReads kind: ListKind, window: Range<Int64>) {
        self.kind = kind
        self.window = window
        expansions = kind.rangeExpansions
        isLateRead = true
    }

    /// The same stream without the expansions `dropped` names, nor the paths under them (Stripe expands a path's
    /// parents with it: `data.transfer.balance_transaction` alone would still bring the transfer).
    func dropping(_ dropped: Set<String>) -> ListStream {
        guard !dropped.isEmpty else { return self }
        var stream = self
        stream.expansions.removeAll { path in
            dropped.contains { path == $0 || path.hasPrefix($0 + ".") }
        }
        return stream
    }

    /// Objects per second of the part of its window it paged (from the window's upper bound down to the oldest
    /// object paged); `nil` before it listed anything.
    var pagedDensity: Double? {
        guard listed > 0, let window, let oldest = oldestCreated else { return nil }
        return Double(listed) / Double(max(1, window.upperBound - oldest))
    }

    /// The pages its window is expected to hold from where it stands: the density it listed (or was cut with) over
    /// the part of its window not paged yet; `nil` for a list without a window or with nothing known of it.
    var remainingPages: Double? {
        guard let window else { return nil }
        if let paged = pagedDensity, let oldest = oldestCreated {
            return paged * Double(max(0, oldest - window.lowerBound)) / 100
        }
        return density.map { $0 * Double(window.upperBound - window.lowerBound) / 100 }
    }

    /// Its order among its endpoint's requests waiting for the budget (``RequestBudget/acquire(endpoint:precedence:)``):
    /// a payout's list first; then a window nothing is known of yet, whose first page tells how to cut it; then the
    /// streams with the most pages left, so that a list's pieces end together; lists without a window last.
    var precedence: Int {
        if ahead { return RequestBudget.ahead }
        guard window != nil else { return 0 }
        guard let pages = remainingPages else { return RequestBudget.ahead - 1 }
        return Int(min(max(pages, 0).rounded(.up), 1_000_000))
    }

    /// The resource its objects count under in the tally and the progress.
    var resource: String {
        isRange ? kind.rawValue : isLateRead ? ExtractionSummary.lateReadsResource : "follow-up lists"
    }

    /// A follow-up list.
    init(
        kind: ListKind, window: Range<Int64>? = nil, path: String? = nil, endpoint: String? = nil,
        filter: [(String, String)] = []
    ) {
        self.kind = kind
        self.window = window
        self.path = path
        self.endpoint = endpoint
        self.filter = filter
    }

    /// The same list over another window, from its start. A piece is split again only into pieces of several
    /// pages: the fine first split fans a short list out at once, while the tails of a long one are not cut
    /// into many half-empty pages.
    func piece(_ window: Range<Int64>) -> ListStream {
        var piece = self
        piece.window = window
        piece.cursor = nil
        piece.listed = 0
        piece.minimumPagesPerPiece = max(minimumPagesPerPiece, ListPager.piecePages)
        return piece
    }
}
