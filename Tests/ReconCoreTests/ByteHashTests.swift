import ReconCore
import Testing

/// ``ByteHash``: the hash of a text's bytes that the interner and the rules' lookups probe their tables with.
@Suite struct ByteHashTests {
    private func hash(ofBytes text: String) -> UInt64 {
        Array(text.utf8).withUnsafeBufferPointer { ByteHash.of($0) }
    }

    @Test func aTextHashesAsItsBytesWhereverItsStringKeepsThem() {
        // Ids of every length a text has: inline (up to 15 bytes), shorter than a word, longer than several
        let texts = ["", "a", "usd", "ch_1", "tr_1sAGLH", "ch_1sAGLHtHg4A0", "ch_1sAGLHtHg4A00001HwvRG1om"]
        for text in texts {
            // A string made from other strings, with storage of its own, hashes as the same bytes do
            let built = String(text.prefix(text.count / 2)) + String(text.dropFirst(text.count / 2))
            #expect(ByteHash.of(text) == hash(ofBytes: text))
            #expect(ByteHash.of(built) == ByteHash.of(text))
        }
    }

    @Test func idsThatDifferInOneCharacterHashApartInTheLowBits() {
        // Stripe's ids of one platform share their first bytes; a table's slot is the hash's low bits
        let ids = (0..<4_096).map { "txn_1sAGLHtHg4A000000\(String($0, radix: 36))" }
        let slots = Set(ids.map { ByteHash.of($0) & 0x1FFF })
        // 4,096 ids in 8,192 slots: about 3,200 distinct slots if the bits are uniform; far fewer if they are not
        #expect(slots.count > 2_800)
        // and apart in the high bits, the interner's tags (15 of them)
        #expect(Set(ids.map { ByteHash.of($0) >> 49 }).count > 3_500)
        // Texts shorter than a word, read a byte at a time, differ too
        #expect(ByteHash.of("usd") != ByteHash.of("eur"))
        #expect(ByteHash.of("ab") != ByteHash.of("ba"))
    }
}
