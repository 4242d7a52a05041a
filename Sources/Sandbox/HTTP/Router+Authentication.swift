import Foundation

// API keys: which ones the sandbox accepts, the 403 of restricted keys, and keys masked in error messages.

extension Router {
    // MARK: Authentication

    func authenticate(_ header: String?) -> SandboxResponse? {
        guard let header, !header.isEmpty else {
            return error(
                401, type: "invalid_request_error",
                message: "You did not provide an API key. You need to provide your API key in the Authorization "
                    + "header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See "
                    + "https://stripe.com/docs/api#authentication for details, or we can help at "
                    + "https://support.stripe.com/.")
        }
        let key: String
        if header.lowercased().hasPrefix("bearer ") {
            key = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        } else if header.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8)
        {
            key = String(text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        } else {
            key = header
        }
        if Router.isAcceptedKey(key) { return nil }
        return error(
            401, type: "invalid_request_error",
            message: "Invalid API Key provided: \(Router.mask(key)). The connect-recon sandbox accepts any "
                + "test-mode secret or restricted key (sk_test_… or rk_test_…).")
    }

    /// A restricted key (`rk_test_…`) gets Stripe's 403 for the resources the options withhold from it.
    func forbid(_ header: String?, segments: [String]) -> SandboxResponse? {
        guard !restrictedKeyForbiddenResources.isEmpty, let header,
            header.lowercased().hasPrefix("bearer rk_test_"), segments.count >= 2,
            restrictedKeyForbiddenResources.contains(segments[1])
        else { return nil }
        let key = String(header.dropFirst(7))
        let permission = "rak_" + segments[1].replacingOccurrences(of: "_", with: "") + "_read"
        return error(
            403, type: "invalid_request_error",
            message: "The provided key '\(Router.mask(key))' does not have the required permissions for this endpoint. "
                + "Having the '\(permission)' permission would allow this request to continue.")
    }

    static func isAcceptedKey(_ key: String) -> Bool {
        (key.hasPrefix("sk_test_") || key.hasPrefix("rk_test_")) && key.count > 8
            && key.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// `sk_test_****1234`: the key's type prefix and its last four characters at most, never the whole key.
    static func mask(_ key: String) -> String {
        let characters = Array(
            key.unicodeScalars.map { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F ? Character($0) : "?" })
        var prefixLength = 0
        var underscores = 0
        for (offset, character) in characters.prefix(8).enumerated() where character == "_" {
            underscores += 1
            prefixLength = offset + 1
            if underscores == 2 { break }
        }
        let hidden = characters.count - prefixLength
        let tail = hidden >= 12 ? 4 : 0
        return String(characters.prefix(prefixLength)) + "****" + String(characters.suffix(tail))
    }
}
