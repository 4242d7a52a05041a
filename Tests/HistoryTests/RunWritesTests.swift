import Foundation
import Testing

@testable import History
@testable import ReconCore

/// ``RunWrites``: an object met again in the same run with the same JSON is left out of the page writes, once the
/// transaction that stored it committed.
struct RunWritesTests {
    private func charges(_ json: [String: String]) -> [StoredObject<ChargeFacts>] {
        json.keys.sorted().map { id in
            var object = charge(id)
            object.rawJSON = json[id] ?? ""
            return object
        }
    }

    private func ids(_ objects: [StoredObject<ChargeFacts>]) -> [String] { objects.map(\.facts.id) }

    @Test("a committed object with the same JSON is left out; a changed one, another run's, or a failed write's is not")
    func leavesOutWhatThisRunStored() {
        let written = RunWrites()
        let page = charges(["ch_a": #"{"id":"ch_a","amount":1}"#, "ch_b": #"{"id":"ch_b","amount":2}"#])
        // Within the transaction that writes them, and after it committed, they are written once
        #expect(ids(written.unwritten(page, run: 1)) == ["ch_a", "ch_b"])
        #expect(ids(written.unwritten(page, run: 1)).isEmpty)
        written.commit()
        #expect(ids(written.unwritten(page, run: 1)).isEmpty)
        // One changed since (another JSON, even of the same length) is written again
        let changed = charges(["ch_a": #"{"id":"ch_a","amount":3}"#, "ch_b": #"{"id":"ch_b","amount":2}"#])
        #expect(ids(written.unwritten(changed, run: 1)) == ["ch_a"])
        written.commit()
        // A transaction that failed stored nothing: its objects are written again
        let more = charges(["ch_c": #"{"id":"ch_c"}"#])
        #expect(ids(written.unwritten(more, run: 1)) == ["ch_c"])
        written.discard()
        #expect(ids(written.unwritten(more, run: 1)) == ["ch_c"])
        // Another run records its own sightings
        #expect(ids(written.unwritten(changed, run: 2)) == ["ch_a", "ch_b"])
    }
}
