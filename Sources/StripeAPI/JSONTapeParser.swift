import Foundation

extension JSONTape {
    /// Reads a document's bytes once, left to right, into nodes (see ``JSONTape``), checking the grammar as it goes.
    struct Parser {
        var nodes: [Node] = []
        private var index = 0

        /// Nesting deeper than this is refused: no Stripe object comes near it, and the parse recurses.
        static let maximumDepth = 512

        init() {}

        mutating func parseDocument(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) {
            index = 0
            skipSpace(bytes)
            try value(bytes, depth: 0)
            skipSpace(bytes)
            guard index == bytes.count else { throw fail("unexpected bytes after the document") }
        }

        private func fail(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

        private mutating func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>) {
            while index < bytes.count {
                let byte = bytes[index]
                guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
                index += 1
            }
        }

        private mutating func value(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) throws(Failure) {
            guard index < bytes.count else { throw fail("the document ends where a value was expected") }
            switch bytes[index] {
            case UInt8(ascii: "{"): try object(bytes, depth: depth + 1)
            case UInt8(ascii: "["): try array(bytes, depth: depth + 1)
            case UInt8(ascii: "\""): try string(bytes)
            case UInt8(ascii: "t"): try literal(bytes, "true", .true)
            case UInt8(ascii: "f"): try literal(bytes, "false", .false)
            case UInt8(ascii: "n"): try literal(bytes, "null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(bytes)
            case let byte where byte >= 0x80:
                throw fail("a byte \(hex(byte)) outside a string, where JSON allows only ASCII")
            default: throw fail("unexpected character where a value was expected")
            }
        }

        private mutating func open(_ kind: Kind, depth: Int) throws(Failure) -> Int {
            guard depth <= Self.maximumDepth else { throw fail("nesting deeper than \(Self.maximumDepth) levels") }
            nodes.append(Node(kind: kind, start: UInt32(index), end: 0, next: 0))
            index += 1
            return nodes.count - 1
        }

        private mutating func close(_ node: Int) {
            index += 1
            nodes[node].end = UInt32(index)
            nodes[node].next = UInt32(nodes.count)
        }

        private mutating func object(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) throws(Failure) {
            let node = try open(.object, depth: depth)
            skipSpace(bytes)
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return close(node) }
            var keys = KeySet()
            defer { nodes[node].mayRepeatKeys = keys.mayRepeat }
            while true {
                skipSpace(bytes)
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw fail("an object's member must start with a string key")
                }
                try string(bytes)
                if !keys.mayRepeat { note(nodes.count - 1, of: node, in: &keys, bytes) }
                skipSpace(bytes)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw fail("expected ':' after an object's key")
                }
                index += 1
                skipSpace(bytes)
                try value(bytes, depth: depth)
                skipSpace(bytes)
                guard index < bytes.count else { throw fail("the document ends inside an object") }
                if bytes[index] == UInt8(ascii: "}") { return close(node) }
                guard bytes[index] == UInt8(ascii: ",") else { throw fail("expected ',' or '}' in an object") }
                index += 1
            }
        }

        /// Notes the key at node `key` of the object at node `object` in `keys`: a 256-bit filter of each key's
        /// length and end bytes answers most keys with one test, and only a key the filter has seen the like of is
        /// compared with the object's earlier keys.
        private func note(_ key: Int, of object: Int, in keys: inout KeySet, _ bytes: UnsafeBufferPointer<UInt8>) {
            let node = nodes[key]
            guard node.kind == .string else {
                keys.mayRepeat = true
                return
            }
            let start = Int(node.start) + 1
            let count = Int(node.end) - 1 - start
            let ends = count == 0 ? 0 : UInt64(bytes[start]) << 8 | UInt64(bytes[start + count - 1]) << 16
            let hash = Int(
                truncatingIfNeeded: ((UInt64(truncatingIfNeeded: count) | ends) &* 0x9E37_79B9_7F4A_7C15) >> 56)
            let bit = UInt64(1) << (hash & 63)
            let seen = keys.filter[hash >> 6] & bit != 0
            keys.filter[hash >> 6] |= bit
            guard seen, let base = bytes.baseAddress else { return }
            var earlier = object + 1
            while earlier < key {
                let other = nodes[earlier]
                if Int(other.end - other.start) - 2 == count,
                    memcmp(base + start, base + Int(other.start) + 1, count) == 0
                {
                    keys.mayRepeat = true
                    return
                }
                earlier = Int(nodes[earlier + 1].next)
            }
        }

        private mutating func array(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) throws(Failure) {
            let node = try open(.array, depth: depth)
            skipSpace(bytes)
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { return close(node) }
            while true {
                skipSpace(bytes)
                try value(bytes, depth: depth)
                skipSpace(bytes)
                guard index < bytes.count else { throw fail("the document ends inside an array") }
                if bytes[index] == UInt8(ascii: "]") { return close(node) }
                guard bytes[index] == UInt8(ascii: ",") else { throw fail("expected ',' or ']' in an array") }
                index += 1
            }
        }

        private mutating func scalar(_ kind: Kind, from start: Int) {
            let end = UInt32(index)
            nodes.append(Node(kind: kind, start: UInt32(start), end: end, next: UInt32(nodes.count + 1)))
        }

        /// Steps over the string at `index` (a quote), checking its escapes and that its bytes are UTF-8, in the one
        /// pass: printable ASCII, by far the most of Stripe's text, costs no more tests per byte than the grammar alone.
        private mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) {
            let start = index
            index += 1
            var escaped = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return scalar(escaped ? .escapedString : .string, from: start)
                }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    try escape(bytes)
                    continue
                }
                // One test for both rare cases: a control character (refused) or a byte beyond ASCII.
                if byte &- 0x20 >= 0x60 {
                    guard byte >= 0x80 else { throw fail("a control character inside a string") }
                    try utf8Sequence(bytes)
                    continue
                }
                index += 1
            }
            index = start
            throw fail("a string that never ends")
        }

        /// Steps over the UTF-8 sequence of one character beyond ASCII at `index`, refusing what is not UTF-8 (RFC 3629,
        /// the Unicode Standard's table 3-7) as `JSONSerialization` and `JSONDecoder` refuse it; the failure names
        /// the sequence's first byte.
        private mutating func utf8Sequence(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) {
            let lead = bytes[index]
            let count: Int
            // The range the second byte must fall in: narrower than 0x80...0xBF after the leads whose shortest form
            // would be shorter (overlong), would be a surrogate (0xED) or would pass U+10FFFF (0xF4).
            let second: ClosedRange<UInt8>
            switch lead {
            case 0xC2...0xDF: (count, second) = (2, 0x80...0xBF)
            case 0xE0: (count, second) = (3, 0xA0...0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (count, second) = (3, 0x80...0xBF)
            case 0xED: (count, second) = (3, 0x80...0x9F)
            case 0xF0: (count, second) = (4, 0x90...0xBF)
            case 0xF1...0xF3: (count, second) = (4, 0x80...0xBF)
            case 0xF4: (count, second) = (4, 0x80...0x8F)
            case 0x80...0xBF: throw invalidUTF8("a continuation byte \(hex(lead)) with no lead byte before it")
            case 0xC0, 0xC1: throw invalidUTF8("an overlong encoding (lead byte \(hex(lead)))")
            default: throw invalidUTF8("the byte \(hex(lead)), which never appears in UTF-8")
            }
            guard index + 1 < bytes.count, (0x80...0xBF).contains(bytes[index + 1]) else {
                throw invalidUTF8("a sequence cut short after its lead byte \(hex(lead))")
            }
            guard second.contains(bytes[index + 1]) else {
                let what =
                    switch lead {
                    case 0xED: "a surrogate code point encoded in UTF-8"
                    case 0xF4: "a code point beyond U+10FFFF"
                    default: "an overlong encoding"
                    }
                throw invalidUTF8("\(what) (\(hex(lead)) \(hex(bytes[index + 1])))")
            }
            for offset in 2..<count where index + offset >= bytes.count || bytes[index + offset] & 0xC0 != 0x80 {
                throw invalidUTF8("a sequence cut short after \(offset) of its \(count) bytes")
            }
            index += count
        }

        private func invalidUTF8(_ what: String) -> Failure { fail("invalid UTF-8 in a string: \(what)") }

        private func hex(_ byte: UInt8) -> String {
            "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }

        /// Checks the escape at `index` (a backslash) and steps over it. A `\u` escape of a high surrogate must be
        /// followed at once by one of a low surrogate, the pair naming one character beyond the Basic Multilingual
        /// Plane; a surrogate escape on its own is refused, as Foundation refuses it (RFC 8259 leaves it undefined).
        private mutating func escape(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) {
            guard index + 1 < bytes.count else { throw fail("a string that never ends") }
            switch bytes[index + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 2
            case UInt8(ascii: "u"):
                let unit = try codeUnit(bytes, at: index)
                switch unit {
                case 0xD800...0xDBFF:
                    guard index + 7 < bytes.count, bytes[index + 6] == UInt8(ascii: "\\"),
                        bytes[index + 7] == UInt8(ascii: "u")
                    else { throw fail("a high surrogate escape not followed by a low surrogate escape") }
                    let low = try codeUnit(bytes, at: index + 6)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw fail("a high surrogate escape followed by an escape that is not a low surrogate")
                    }
                    index += 12
                case 0xDC00...0xDFFF:
                    throw fail("a low surrogate escape with no high surrogate escape before it")
                default:
                    index += 6
                }
            default:
                throw fail("an unknown escape in a string")
            }
        }

        /// The code unit of the `\uXXXX` escape at `at` (its backslash).
        private func codeUnit(_ bytes: UnsafeBufferPointer<UInt8>, at: Int) throws(Failure) -> UInt32 {
            var unit: UInt32 = 0
            for offset in 2...5 {
                guard at + offset < bytes.count, let digit = JSONStringEscapes.hexValue(bytes[at + offset]) else {
                    throw Failure(offset: at, reason: "'\\u' must be followed by four hexadecimal digits")
                }
                unit = unit << 4 | digit
            }
            return unit
        }

        private mutating func literal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString, _ kind: Kind)
            throws(Failure)
        {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count,
                (0..<count).allSatisfy({ bytes[index + $0] == text.utf8Start[$0] })
            else { throw fail("unexpected characters where a value was expected") }
            let start = index
            index += count
            scalar(kind, from: start)
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
        private mutating func number(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) {
            let start = index
            func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw fail("a number without digits") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if isDigit(index) { throw fail("a number with a leading zero") }
            } else {
                while isDigit(index) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard isDigit(index) else { throw fail("a number with no digits after its decimal point") }
                while isDigit(index) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard isDigit(index) else { throw fail("a number with no digits in its exponent") }
                while isDigit(index) { index += 1 }
            }
            scalar(.number, from: start)
        }
    }

    /// The keys of one object as the parse reads them, to tell whether one is written twice (see
    /// ``Parser/note(_:of:in:_:)``).
    struct KeySet {
        /// One bit per hash of a key's length and end bytes, 256 of them (Stripe's objects have up to about 60 keys).
        var filter = SIMD4<UInt64>()
        /// Whether a key may be written twice: it is (compared byte for byte), or a key has an escape, which could
        /// spell an earlier key differently.
        var mayRepeat = false
    }
}
