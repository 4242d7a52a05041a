/// A request target's path and query, split and percent-decoded as a form-encoded query (`+` is a space).
enum QueryString {
    /// `/v1/charges?limit=3` → (`/v1/charges`, `limit=3`).
    static func split(_ uri: String) -> (path: String, query: String) {
        guard let mark = uri.firstIndex(of: "?") else { return (uri, "") }
        return (String(uri[..<mark]), String(uri[uri.index(after: mark)...]))
    }

    /// `a=1&b=x%20y` → [(a, 1), (b, x y)]; a name without `=` gets an empty value.
    static func parse(_ query: String) -> [(String, String)] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecode(parts[0])
            let value = parts.count > 1 ? percentDecode(parts[1]) : ""
            return (name, value)
        }
    }

    /// `%41` → `A`, `+` → space; a malformed escape is kept as it is.
    static func percentDecode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = iterator.next(), let low = iterator.next(), let h = hex(high), let l = hex(low) else {
                    bytes.append(byte)
                    continue
                }
                bytes.append(h << 4 | l)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
