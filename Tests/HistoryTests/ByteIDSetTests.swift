import Testing

@testable import History

/// ``ByteIDSet``: the range's charge ids, against which the orphans' pass tells a row's charge by its bytes, and the
/// ids a part holds while its context is read.
@Suite struct ByteIDSetTests {
    private func insert(_ id: String, into set: inout ByteIDSet) {
        Array(id.utf8).withUnsafeBufferPointer { set.insert($0) }
    }

    private func contains(_ id: String, _ set: ByteIDSet) -> Bool {
        Array(id.utf8).withUnsafeBufferPointer { set.contains($0) }
    }

    @Test func holdsExactlyTheIdsGivenByTheirBytes() {
        var set = ByteIDSet()
        insert("ch_1sAGLHtHg4A00001HwvRG1om", into: &set)
        insert("ch_1", into: &set)
        insert("ch_1sAGLHtHg4A00001HwvRG1om", into: &set)
        #expect(set.count == 2)
        #expect(contains("ch_1sAGLHtHg4A00001HwvRG1om", set))
        #expect(contains("ch_1", set))
        // A prefix, a longer id, another last byte, another case, and nothing are not held
        #expect(!contains("ch_1sAGLHtHg4A00001HwvRG1o", set))
        #expect(!contains("ch_1sAGLHtHg4A00001HwvRG1omm", set))
        #expect(!contains("ch_1sAGLHtHg4A00001HwvRG1on", set))
        #expect(!contains("CH_1", set))
        #expect(!contains("", set))
        // Composed and decomposed "é" are equal strings but other bytes
        insert("ch_caf\u{E9}", into: &set)
        #expect(contains("ch_caf\u{E9}", set))
        #expect(!contains("ch_cafe\u{301}", set))
        insert("", into: &set)
        #expect(contains("", set))
    }

    @Test(arguments: [0, 1_000, 50_000])
    func holdsEveryIdAfterGrowingAndNoneOfTheOthers(capacity: Int) {
        // Given far more ids than its first slots (or as many as it was made for), ids of one platform that differ
        // in their last characters
        var set = ByteIDSet(capacity: capacity)
        let ids = (0..<50_000).map { "ch_1sAGLHtHg4A0000\(String($0, radix: 36))" }
        for id in ids { insert(id, into: &set) }
        // Then each is held once, and ids never given are not
        #expect(set.count == ids.count)
        #expect(ids.allSatisfy { contains($0, set) })
        #expect(!(50_000..<60_000).contains { contains("ch_1sAGLHtHg4A0000\(String($0, radix: 36))", set) })
        #expect(!ids.contains { contains("py_" + $0.dropFirst(3), set) })
    }

    @Test func insertingTellsWhetherTheIdIsNewWhetherGivenAsBytesOrAsAString() {
        var set = ByteIDSet()
        let long = "txn_1sAGLHtHg4A000000WC608uG"
        let first = set.insert(long)
        let again = set.insert(long)
        // The same id given as bytes is held already; a short id (a string's inline storage) is new once
        let asBytes = Array(long.utf8).withUnsafeBufferPointer { set.insert($0) }
        let short = set.insert("txn_1")
        let shortAgain = set.insert("txn_1")
        #expect(first && !again && !asBytes && short && !shortAgain)
        #expect(set.contains("txn_1") && contains("txn_1", set))
        #expect(!set.contains("txn_2"))
        // A string made of another's slice is compared by its own bytes
        #expect(set.contains(String("xtxn_1".dropFirst())))
        #expect(set.count == 2)
    }
}
