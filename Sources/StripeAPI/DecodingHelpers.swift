// MARK: - Decoding helpers shared by the models

extension KeyedDecodingContainer {
    /// Stripe's `metadata`: a string-to-string map that some objects send as `null` or leave out; both
    /// mean "no metadata".
    func decodeMetadata(forKey key: Key) throws -> [String: String] {
        try decodeIfPresent([String: String].self, forKey: key) ?? [:]
    }

    /// Fails when the `object` field names another object type: decoding a transfer as a charge is a bug in
    /// the caller (wrong endpoint, wrong expansion), and must not produce a half-filled value. A missing
    /// `object` field is accepted.
    func requireObjectType(_ expected: String, forKey key: Key) throws {
        guard let actual = try decodeIfPresent(String.self, forKey: key), actual != expected else { return }
        throw DecodingError.dataCorruptedError(
            forKey: key, in: self, debugDescription: "expected a '\(expected)' object, found '\(actual)'")
    }
}
