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
}
