/// The body of a Stripe error response: `{"error": {"type": …, "code": …, "message": …, …}}`.
///
/// Only `type` is required; every other field may be missing or `null`. See https://docs.stripe.com/api/errors.
public struct StripeErrorBody: Decodable, Equatable, Sendable {
    /// The kind of error.
    public let type: StripeErrorType
    /// A short machine-readable code, for example `resource_missing` or `lock_timeout`.
    public let code: String?
    /// For card errors, the issuer's decline code.
    public let declineCode: String?
    /// A link to Stripe's documentation of ``code``.
    public let docURL: String?
    /// Stripe's human-readable explanation.
    public let message: String?
    /// The request parameter at fault, if any.
    public let param: String?
    /// A link to the request in the Dashboard's logs.
    public let requestLogURL: String?

    private enum EnvelopeKeys: String, CodingKey {
        case error
    }

    private enum CodingKeys: String, CodingKey {
        case type
        case code
        case declineCode = "decline_code"
        case docURL = "doc_url"
        case message
        case param
        case requestLogURL = "request_log_url"
    }

    /// Decodes the `error` member of the body. Written by hand because the fields are one level down: synthesized
    /// `Decodable` reads a type's own level, and callers decode a `StripeErrorBody` from the whole response body.
    public init(from decoder: any Decoder) throws {
        let envelope = try decoder.container(keyedBy: EnvelopeKeys.self)
        let c = try envelope.nestedContainer(keyedBy: CodingKeys.self, forKey: .error)
        type = try c.decode(StripeErrorType.self, forKey: .type)
        code = try c.decodeIfPresent(String.self, forKey: .code)
        declineCode = try c.decodeIfPresent(String.self, forKey: .declineCode)
        docURL = try c.decodeIfPresent(String.self, forKey: .docURL)
        message = try c.decodeIfPresent(String.self, forKey: .message)
        param = try c.decodeIfPresent(String.self, forKey: .param)
        requestLogURL = try c.decodeIfPresent(String.self, forKey: .requestLogURL)
    }
}
