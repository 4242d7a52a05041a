import ReconCore
import StripeAPI
import Testing

@testable import Extract

/// How a list stream ranks among its endpoint's requests: the streams with the most pages left go first, so that a
/// list's pieces end together (docs/EXTRACTION.md).
@Suite("List streams' precedence")
struct ListStreamTests {
    static let hour: Int64 = 3_600

    @Test("a stream's pages left are its density so far over the part of its window not paged yet")
    func pagesLeftFromWhatItListed() {
        // Given a four-hour window whose newest hour held the 100 objects paged so far
        var stream = ListStream(range: .balanceTransactions, window: 0..<(4 * Self.hour))
        stream.listed = 100
        stream.oldestCreated = 3 * Self.hour
        // Then three more pages are expected, and it ranks as 3
        #expect(stream.remainingPages == 3)
        #expect(stream.precedence == 3)
        // And once its window is cut to its newest two hours, one page is left
        stream.window = (2 * Self.hour)..<(4 * Self.hour)
        #expect(stream.remainingPages == 1)
    }

    @Test(
        "a window nothing is known of goes before the pieces, which rank by the density they were cut with; a payout's list before all"
    )
    func piecesAndPayouts() {
        var piece = ListStream(range: .balanceTransactions, window: 0..<Self.hour)
        #expect(piece.remainingPages == nil && piece.precedence == RequestBudget.ahead - 1, "its first page cuts it")
        piece.density = 0.1  // 360 objects in its hour: 3.6 pages
        #expect(piece.precedence == 4)
        var payout = ListStream(kind: .balanceTransactions, filter: [("payout", "po_1")])
        payout.ahead = true
        #expect(payout.precedence == RequestBudget.ahead)
        #expect(ListStream(kind: .balanceTransactions, filter: [("payout", "po_2")]).precedence == 0)
    }
}
