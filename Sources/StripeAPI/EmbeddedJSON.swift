/// The JSON (compacted, see ``JSONSlicer/compact(_:_:)``) of objects embedded in another object's JSON: an expanded
/// PaymentIntent inside a charge, the reversals inside a transfer, the balance transactions inside a dispute.
public enum EmbeddedJSON {
    /// The JSON of the object at `key` of `json`, when it is an object (expanded), else `nil`.
    public static func object(at key: String, in json: String) -> String? {
        let bytes = Array(json.utf8)
        guard let members = try? JSONSlicer.members(of: bytes), let range = members[key], !range.isEmpty,
            bytes[range.lowerBound] == UInt8(ascii: "{")
        else { return nil }
        return JSONSlicer.compact(bytes, range)
    }

    /// The JSON of each element of the array at `path` (`["reversals", "data"]`, `["balance_transactions"]`).
    public static func elements(at path: [String], in json: String) -> [String] {
        let bytes = Array(json.utf8)
        var range = 0..<bytes.count
        for key in path {
            guard let members = try? JSONSlicer.members(of: bytes, in: range), let next = members[key] else {
                return []
            }
            range = next
        }
        guard !range.isEmpty, bytes[range.lowerBound] == UInt8(ascii: "["),
            let elements = try? JSONSlicer.elements(of: bytes, in: range)
        else { return [] }
        return elements.map { JSONSlicer.compact(bytes, $0) }
    }
}
