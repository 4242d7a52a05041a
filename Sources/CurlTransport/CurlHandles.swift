import CCurl
import StripeAPI

// MARK: Owners of libcurl handles
//
// Each C handle lives in a `~Copyable` owner whose `deinit` frees it: it cannot be copied, so it is freed
// exactly once, and never while something still borrows it.

/// The process-wide `curl_global_init`, run exactly once (a `static let` is lazy, once and thread-safe).
enum CurlGlobal {
    static let initResult: CURLcode = ccurl_global_init_all()
}

/// One easy handle plus the `CURLOPT_ERRORBUFFER` it writes into.
///
/// A worker thread creates one, reuses it for every request it runs (so curl keeps the connection alive)
/// and frees it when the thread ends. Never used by two threads at once.
struct EasyHandle: ~Copyable {
    let raw: UnsafeMutableRawPointer
    /// `CURL_ERROR_SIZE` bytes, NUL-terminated text of the last failure.
    let errorBuffer: UnsafeMutablePointer<CChar>

    init?() {
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
        let size = ccurl_error_size()
        errorBuffer = .allocate(capacity: size)
        errorBuffer.initialize(repeating: 0, count: size)
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// curl's text for the last failure, or nil when it left none.
    var errorText: String? {
        errorBuffer.pointee == 0 ? nil : String(cString: errorBuffer)
    }

    func clearErrorText() { errorBuffer.pointee = 0 }
}

/// A URL parsed by curl's own parser (`curl_url`).
///
/// The transport checks the scheme and host of exactly this parse and hands the same object to the easy
/// handle (`CURLOPT_CURLU`), so the URL that is checked is the URL that is fetched.
struct CurlURL: ~Copyable {
    let raw: OpaquePointer

    /// Parses `text`, refusing URLs that carry a user name or password; throws `invalidRequest` with curl's reason.
    init(parsing text: String) throws(TransportError) {
        guard let raw = curl_url() else { throw .invalidRequest("libcurl could not allocate a URL handle") }
        let flags = ccurl_url_flag_disallow_user() | ccurl_url_flag_non_support_scheme()
        let code = curl_url_set(raw, CURLUPART_URL, text, flags)
        guard code == CURLUE_OK else {
            curl_url_cleanup(raw)
            // The URL itself is not repeated: it might carry credentials (that is one reason parsing fails).
            let reason = curl_url_strerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
            throw .invalidRequest("the URL is not usable: \(reason)")
        }
        self.raw = raw
    }

    deinit { curl_url_cleanup(raw) }

    /// One part of the URL as curl sees it, or nil when the URL has no such part.
    func part(_ part: CURLUPart) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(raw, part, &value, 0) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }
}

/// A `curl_slist` of header lines.
struct HeaderList: ~Copyable {
    private(set) var raw: UnsafeMutablePointer<curl_slist>?

    init() { raw = nil }

    deinit { curl_slist_free_all(raw) }

    /// Appends one line; false if curl could not allocate it (the list so far stays owned and valid).
    mutating func append(_ line: String) -> Bool {
        guard let head = curl_slist_append(raw, line) else { return false }
        raw = head
        return true
    }
}
