/// Finds the exact bytes of values inside a JSON document without decoding it, so each object of a list page
/// can be stored exactly as Stripe sent it and decoded on its own.
///
/// It validates only structure (strings, nesting); the values themselves are checked by the decoder later.
enum JSONSlicer {
    enum Failure: Error, Equatable {
        case notAnObject
        case unterminated
        case unexpected(offset: Int)
    }

    /// The top-level object's members: key → byte range of the value.
    static func members(of bytes: [UInt8]) throws(Failure) -> [String: Range<Int>] {
        var result: [String: Range<Int>] = [:]
        for member in try orderedMembers(of: bytes, in: 0..<bytes.count) { result[member.key] = member.value }
        return result
    }

    /// One member of an object: its key, the byte range of the key (quotes included) and of the value.
    struct Member {
        var key: String
        var keyRange: Range<Int>
        var value: Range<Int>
    }

    /// The members of the object at `range`, in the order they are written.
    static func orderedMembers(of bytes: [UInt8], in range: Range<Int>) throws(Failure) -> [Member] {
        var index = skipSpace(bytes, range.lowerBound)
        guard index < range.upperBound, bytes[index] == UInt8(ascii: "{") else { throw .notAnObject }
        index += 1
        var result: [Member] = []
        while true {
            index = skipSpace(bytes, index)
            guard index < range.upperBound else { throw .unterminated }
            if bytes[index] == UInt8(ascii: "}") { return result }
            let keyRange = try stringEnd(bytes, index)
            let key = String(decoding: bytes[(keyRange.lowerBound + 1)..<(keyRange.upperBound - 1)], as: UTF8.self)
            index = skipSpace(bytes, keyRange.upperBound)
            guard index < range.upperBound, bytes[index] == UInt8(ascii: ":") else {
                throw .unexpected(offset: index)
            }
            index = skipSpace(bytes, index + 1)
            let end = try valueEnd(bytes, index)
            result.append(Member(key: key, keyRange: keyRange, value: index..<end))
            index = skipSpace(bytes, end)
            guard index < range.upperBound else { throw .unterminated }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] != UInt8(ascii: "}") {
                throw .unexpected(offset: index)
            }
        }
    }

    /// The byte ranges of the elements of the array at `range`.
    static func elements(of bytes: [UInt8], in range: Range<Int>) throws(Failure) -> [Range<Int>] {
        var index = skipSpace(bytes, range.lowerBound)
        guard index < range.upperBound, bytes[index] == UInt8(ascii: "[") else { throw .unexpected(offset: index) }
        index += 1
        var result: [Range<Int>] = []
        while true {
            index = skipSpace(bytes, index)
            guard index < range.upperBound else { throw .unterminated }
            if bytes[index] == UInt8(ascii: "]") { return result }
            let end = try valueEnd(bytes, index)
            result.append(index..<end)
            index = skipSpace(bytes, end)
            guard index < range.upperBound else { throw .unterminated }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] != UInt8(ascii: "]") {
                throw .unexpected(offset: index)
            }
        }
    }

    // MARK: - Scanning

    private static func skipSpace(_ bytes: [UInt8], _ start: Int) -> Int {
        var index = start
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
        {
            index += 1
        }
        return index
    }

    /// The range of the string starting at `start` (quotes included).
    static func stringEnd(_ bytes: [UInt8], _ start: Int) throws(Failure) -> Range<Int> {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { throw .unexpected(offset: start) }
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return start..<(index + 1)
            default: index += 1
            }
        }
        throw .unterminated
    }

    /// The end (exclusive) of the value starting at `start`.
    private static func valueEnd(_ bytes: [UInt8], _ start: Int) throws(Failure) -> Int {
        guard start < bytes.count else { throw .unterminated }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return try stringEnd(bytes, start).upperBound
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = try stringEnd(bytes, index).upperBound
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            throw .unterminated
        default:
            // number, true, false, null: up to the next delimiter
            var index = start
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20
                    || byte == 0x0A || byte == 0x0D || byte == 0x09
                {
                    break
                }
                index += 1
            }
            guard index > start else { throw .unexpected(offset: start) }
            return index
        }
    }
}

extension JSONSlicer {
    /// The JSON at `range` with the white space between tokens removed; strings are untouched.
    ///
    /// Stripe pretty-prints, and an object embedded in another is indented deeper than the same object
    /// listed on its own: compacting makes both the same bytes, so a change means a change of content.
    static func compact(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(range.count)
        var index = range.lowerBound
        var inString = false
        while index < range.upperBound {
            let byte = bytes[index]
            if inString {
                output.append(byte)
                if byte == UInt8(ascii: "\\"), index + 1 < range.upperBound {
                    output.append(bytes[index + 1])
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
                output.append(byte)
            } else if byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09 {
                output.append(byte)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}

extension JSONSlicer {
    /// The first integer in the JSON at `range` too large for `Int64`, with the key it belongs to: the decoder
    /// only says "not valid JSON" for it, which helps nobody find the field.
    static func oversizedInteger(_ bytes: [UInt8], _ range: Range<Int>) -> (key: String, literal: String)? {
        var index = range.lowerBound
        var lastString = ""
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard let string = try? stringEnd(bytes, index), string.upperBound <= range.upperBound else {
                    return nil
                }
                lastString = String(decoding: bytes[(string.lowerBound + 1)..<(string.upperBound - 1)], as: UTF8.self)
                index = string.upperBound
                continue
            }
            if byte == UInt8(ascii: "-") || byte.isDigit {
                var end = index + 1
                while end < range.upperBound,
                    bytes[end].isDigit || bytes[end] == UInt8(ascii: ".")
                        || bytes[end] == UInt8(ascii: "e") || bytes[end] == UInt8(ascii: "E")
                        || bytes[end] == UInt8(ascii: "+")
                        || bytes[end] == UInt8(ascii: "-")
                {
                    end += 1
                }
                let literal = String(decoding: bytes[index..<end], as: UTF8.self)
                if literal.allSatisfy({ $0.isNumber || $0 == "-" }), Int64(literal) == nil {
                    return (lastString, literal)
                }
                index = end
                continue
            }
            index += 1
        }
        return nil
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= 0x30 && self <= 0x39 }
}

extension JSONSlicer {
    /// The members of the object at `range` of `bytes`.
    static func members(of bytes: [UInt8], in range: Range<Int>) throws(Failure) -> [String: Range<Int>] {
        var result: [String: Range<Int>] = [:]
        for member in try orderedMembers(of: bytes, in: range) { result[member.key] = member.value }
        return result
    }
}
