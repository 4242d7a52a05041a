/// Reads raw JSON bytes where the decoder cannot help: the message of a value the decoder refused.
enum JSONSlicer {
    /// The range of the string starting at `start` (quotes included), `nil` when it does not end.
    static func stringEnd(_ bytes: [UInt8], _ start: Int) -> Range<Int>? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { return nil }
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return start..<(index + 1)
            default: index += 1
            }
        }
        return nil
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
                guard let string = stringEnd(bytes, index), string.upperBound <= range.upperBound else {
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
