import Foundation

/// The one place where the JSON decoding of Stripe's responses is configured.
///
/// Used by the client and the tests alike, so that what the tests prove is what production decodes.
/// Keys are mapped by each model's explicit `CodingKeys` (no `.convertFromSnakeCase`); amounts and timestamps
/// are integers, so no date or number strategy is involved.
public enum StripeJSON {
    /// The decoder of connect-recon's models: ``JSONTapeDecoder``, which reads a response's bytes once and
    /// decodes each object from its place in them.
    public static func decoder() -> JSONTapeDecoder { JSONTapeDecoder() }

    /// Decodes `data` as a `T` with ``decoder()``.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decoder().decode(type, from: data)
    }

    /// What is wrong with a response that did not decode, in words: the missing key or bad value and where, or for
    /// bytes that are not JSON what is wrong and at which byte offset.
    public static func describe(_ error: any Error) -> String {
        if let failure = error as? JSONTape.Failure { return "not JSON: \(failure)" }
        guard let decodingError = error as? DecodingError else { return "\(error)" }
        if case .dataCorrupted(let context) = decodingError, let failure = context.underlyingError as? JSONTape.Failure
        {
            return "not JSON: \(failure)"
        }
        switch decodingError {
        case .keyNotFound(let key, let context):
            return "missing '\(key.stringValue)' at \(path(context))"
        case .valueNotFound(_, let context):
            return "null where a value is required at \(path(context))"
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            return "\(context.debugDescription) at \(path(context))"
        @unknown default:
            return "\(decodingError)"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let text = context.codingPath.map(\.stringValue).joined(separator: ".")
        return text.isEmpty ? "the top level" : text
    }
}
