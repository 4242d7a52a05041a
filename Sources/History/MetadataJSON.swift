import Foundation

/// A charge's `metadata` as the history keeps it: one JSON object of strings (keys sorted), `NULL` when empty.
enum MetadataJSON {
    /// The JSON text of `metadata`; `nil` for an empty one.
    static func text(_ metadata: [String: String]) -> String? {
        guard !metadata.isEmpty,
            let data = try? JSONSerialization.data(withJSONObject: metadata, options: [.sortedKeys])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The metadata `text` holds: the string values of a JSON object (anything else reads as empty: no rule can
    /// use it).
    static func metadata(_ text: String?) -> [String: String] {
        guard let text, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        else { return [:] }
        return object.compactMapValues { $0 as? String }
    }
}
