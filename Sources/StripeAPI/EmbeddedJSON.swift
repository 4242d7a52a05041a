/// An object's JSON, sliced once, to read the objects embedded in it: an expanded PaymentIntent inside a charge,
/// the reversals inside a transfer, the balance transactions inside a dispute. Each embedded object comes back as
/// its own JSON (compacted, see ``JSONSlicer/compact(_:_:)``).
public struct EmbeddedJSON {
    private let bytes: [UInt8]
    /// The top-level members; empty when the JSON is not an object.
    private let members: [String: Range<Int>]

    public init(_ json: String) {
        bytes = Array(json.utf8)
        members = (try? JSONSlicer.members(of: bytes)) ?? [:]
    }

    /// The JSON of the object at `key`, when it is an object (expanded), else `nil`.
    public func object(at key: String) -> String? {
        guard let range = members[key], !range.isEmpty, bytes[range.lowerBound] == UInt8(ascii: "{") else {
            return nil
        }
        return JSONSlicer.compact(bytes, range)
    }

    /// The JSON of each element of the array at `path` (`["reversals", "data"]`, `["balance_transactions"]`).
    public func elements(at path: [String]) -> [String] {
        guard let first = path.first, var range = members[first] else { return [] }
        for key in path.dropFirst() {
            guard let next = (try? JSONSlicer.members(of: bytes, in: range))?[key] else { return [] }
            range = next
        }
        guard !range.isEmpty, bytes[range.lowerBound] == UInt8(ascii: "["),
            let elements = try? JSONSlicer.elements(of: bytes, in: range)
        else { return [] }
        return elements.map { JSONSlicer.compact(bytes, $0) }
    }

    /// Whether compacted `json` may hold an object or a non-empty array at one of `keys`: `"key":{` or
    /// `"key":[{` occurs in it. A cheap test before slicing: most objects embed nothing.
    public static func mayEmbed(_ keys: [String], in json: String) -> Bool {
        var json = json
        return json.withUTF8 { bytes in
            keys.contains { key in
                let pattern = Array("\"\(key)\":".utf8)
                var start = 0
                while let found = Self.firstIndex(of: pattern, in: bytes, from: start) {
                    let next = found + pattern.count
                    if next < bytes.count {
                        let value = bytes[next]
                        if value == UInt8(ascii: "{") { return true }
                        if value == UInt8(ascii: "["), next + 1 < bytes.count, bytes[next + 1] == UInt8(ascii: "{") {
                            return true
                        }
                    }
                    start = found + 1
                }
                return false
            }
        }
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        var index = start
        let last = bytes.count - pattern.count
        while index <= last {
            if bytes[index] == first {
                var matched = 1
                while matched < pattern.count, bytes[index + matched] == pattern[matched] { matched += 1 }
                if matched == pattern.count { return index }
            }
            index += 1
        }
        return nil
    }
}
