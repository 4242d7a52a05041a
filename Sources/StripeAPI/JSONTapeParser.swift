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
            while true {
                skipSpace(bytes)
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw fail("an object's member must start with a string key")
                }
                try string(bytes)
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
                guard byte >= 0x20 else { throw fail("a control character inside a string") }
                index += 1
            }
            index = start
            throw fail("a string that never ends")
        }

        /// Checks the escape at `index` (a backslash) and steps over it.
        private mutating func escape(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) {
            guard index + 1 < bytes.count else { throw fail("a string that never ends") }
            switch bytes[index + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 2
            case UInt8(ascii: "u"):
                guard index + 5 < bytes.count,
                    (2...5).allSatisfy({ JSONStringEscapes.hexValue(bytes[index + $0]) != nil })
                else { throw fail("'\\u' must be followed by four hexadecimal digits") }
                index += 6
            default:
                throw fail("an unknown escape in a string")
            }
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
}
