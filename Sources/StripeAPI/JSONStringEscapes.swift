/// The escapes of JSON strings (RFC 8259 §7): `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t` and `\uXXXX`, with
/// surrogate pairs for characters beyond the Basic Multilingual Plane.
enum JSONStringEscapes {
    /// The value of a hexadecimal digit, `nil` for any other byte.
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The text of a string's content (between its quotes) whose escapes and UTF-8 the parse has checked: every
    /// surrogate escape is one of a pair (U+FFFD below only stands in for what the parse never lets through).
    static func unescape(_ content: ArraySlice<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(content.count)
        var index = content.startIndex
        while index < content.endIndex {
            let byte = content[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < content.endIndex else {
                output.append(byte)
                index += 1
                continue
            }
            let escaped = content[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = codeUnit(content, at: index)
                index += 4
                if (0xD800...0xDBFF).contains(scalar), index + 5 < content.endIndex,
                    content[index] == UInt8(ascii: "\\"), content[index + 1] == UInt8(ascii: "u")
                {
                    let low = codeUnit(content, at: index + 2)
                    if (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        index += 6
                    }
                }
                output.append(contentsOf: String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
            default: output.append(escaped)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func codeUnit(_ content: ArraySlice<UInt8>, at index: Int) -> UInt32 {
        guard index + 4 <= content.endIndex else { return 0xFFFD }
        return (0..<4).reduce(UInt32(0)) { $0 << 4 | (hexValue(content[index + $1]) ?? 0) }
    }
}
