import Testing

@testable import History

/// ``TextInterner``: the texts a part's reader makes, one string for the same bytes.
@Suite struct TextInternerTests {
    /// The string the interner makes of `text`'s bytes.
    private func interned(_ text: String, by interner: TextInterner) -> String {
        Array(text.utf8).withUnsafeBufferPointer { interner.text($0) }
    }

    /// Where a native string keeps its bytes: the same address for the same storage.
    private func storage(_ text: String) -> UnsafeRawPointer? {
        var text = text
        return text.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func theSameLongTextIsOneStringAndOtherTextsAreTheirOwn() {
        let interner = TextInterner()
        let first = interned("ch_1sAGLHtHg4A00001HwvRG1om", by: interner)
        let again = interned("ch_1sAGLHtHg4A00001HwvRG1om", by: interner)
        let other = interned("ch_1sAGLHtHg4A00001HwvRG1on", by: interner)
        #expect(first == "ch_1sAGLHtHg4A00001HwvRG1om")
        #expect(again == first)
        #expect(storage(again) == storage(first))
        #expect(other == "ch_1sAGLHtHg4A00001HwvRG1on")
        #expect(storage(other) != storage(first))
        // A text a string holds inline is made as it is, and equal
        #expect(interned("usd", by: interner) == "usd")
        #expect(interned("", by: interner) == "")
    }

    @Test func moreTextsThanItHoldsAreStillEachTheirOwnText() {
        // Given more distinct texts than the interner holds, each asked for twice
        let interner = TextInterner()
        let texts = (0..<(TextInterner.limit + 1_000)).map { "txn_1sAGLHtHg4A0000\(String($0, radix: 36))" }
        for text in texts { #expect(interned(text, by: interner) == text) }
        // Then each comes back as itself, the latest ones as the strings made before
        for text in texts { #expect(interned(text, by: interner) == text) }
        let last = interned(texts[texts.count - 1], by: interner)
        #expect(storage(interned(texts[texts.count - 1], by: interner)) == storage(last))
    }

    @Test func invalidUTF8IsRepairedAsStringDecodingRepairsIt() {
        let interner = TextInterner()
        let bytes: [UInt8] = Array("ch_1sAGLHtHg4A00001Hwv".utf8) + [0xFF, 0xFE] + Array("RG1om".utf8)
        let made = bytes.withUnsafeBufferPointer { interner.text($0) }
        #expect(made == String(decoding: bytes, as: UTF8.self))
        #expect(bytes.withUnsafeBufferPointer { interner.text($0) } == made)
    }
}
