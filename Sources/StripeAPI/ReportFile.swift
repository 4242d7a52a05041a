/// A File object as a report run's `result` holds it (https://docs.stripe.com/api/files/object), or its id alone
/// when Stripe sends it unexpanded.
public struct ReportFile: Hashable, Sendable, Decodable {
    /// The file's id, `file_…`.
    public let id: String
    /// Where its contents are downloaded with the API key, for example
    /// `https://files.stripe.com/v1/files/file_…/contents`; `nil` when the file came as an id only or without one.
    public let url: String?
    /// Its size in bytes, when given.
    public let size: Int64?
    /// `csv`, …, when given.
    public let type: String?

    public init(id: String, url: String?, size: Int64? = nil, type: String? = nil) {
        self.id = id
        self.url = url
        self.size = size
        self.type = type
    }

    private enum CodingKeys: String, CodingKey {
        case id
        case object
        case url
        case size
        case type
    }

    /// Decodes a JSON string (the id), or a `file` object.
    public init(from decoder: any Decoder) throws {
        if let id = try? decoder.singleValueContainer().decode(String.self) {
            self.init(id: id, url: nil)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let object = try container.decodeIfPresent(String.self, forKey: .object), object != "file" {
            throw DecodingError.dataCorruptedError(
                forKey: .object, in: container, debugDescription: "expected a 'file' object, found '\(object)'")
        }
        self.init(
            id: try container.decode(String.self, forKey: .id),
            url: try container.decodeIfPresent(String.self, forKey: .url),
            size: try container.decodeIfPresent(Int64.self, forKey: .size),
            type: try container.decodeIfPresent(String.self, forKey: .type))
    }
}
