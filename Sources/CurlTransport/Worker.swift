import CCurl
import Foundation
import StripeAPI

// MARK: A worker thread and one transfer

/// The body of one worker thread: it owns one easy handle for its whole life and runs requests on it one by one.
///
/// `curl_easy_perform` blocks, so it runs here and never on Swift's cooperative pool.
enum Worker {
    static func run(queue: PendingRequestQueue, configuration: CurlTransportConfiguration) {
        serve(queue: queue, configuration: configuration)
        // The handle was a local of `serve`: it is freed by now.
        queue.workerExited()
    }

    private static func serve(queue: PendingRequestQueue, configuration: CurlTransportConfiguration) {
        guard let handle = EasyHandle() else {
            queue.workerStarted(successfully: false)
            return
        }
        queue.workerStarted(successfully: true)
        while let pending = queue.next() {
            // A request cancelled while queued was already answered; don't spend a request on it.
            if pending.isCancelled { continue }
            let result = perform(pending, on: handle, configuration: configuration, queue: queue)
            pending.finish(result)
        }
    }

    /// Runs one request on `handle`; leaves the handle reset (no pointers into the request) but its connection cached.
    static func perform(
        _ pending: PendingRequest, on handle: borrowing EasyHandle, configuration: CurlTransportConfiguration,
        queue: PendingRequestQueue
    ) -> Result<HTTPResponse, TransportError> {
        let transfer = CurlTransfer(pending: pending, queue: queue)
        // Reset drops every option and pointer of the previous request but keeps live connections,
        // the DNS cache and TLS sessions.
        defer { curl_easy_reset(handle.raw) }
        return withExtendedLifetime(transfer) { () -> Result<HTTPResponse, TransportError> in
            do throws(TransportError) {
                try configure(handle, for: pending, transfer: transfer, configuration: configuration)
            } catch {
                return .failure(error)
            }
            handle.clearErrorText()
            let code = curl_easy_perform(handle.raw)
            guard code == CURLE_OK else {
                return .failure(failure(for: code, handle: handle, pending: pending))
            }
            var status = 0
            guard ccurl_easy_getinfo_long(handle.raw, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK, status > 0 else {
                return .failure(.connectionFailed("\(pending.prepared.label): no HTTP status line was received"))
            }
            return .success(HTTPResponse(status: status, headers: transfer.headers, body: transfer.body))
        }
    }

    // MARK: Options

    private static func configure(
        _ handle: borrowing EasyHandle, for pending: PendingRequest, transfer: CurlTransfer,
        configuration: CurlTransportConfiguration
    ) throws(TransportError) {
        let raw = handle.raw
        let context = Unmanaged.passUnretained(transfer).toOpaque()

        func check(_ code: CURLcode, _ option: String) throws(TransportError) {
            guard code == CURLE_OK else {
                let text = curl_easy_strerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
                throw .invalidRequest("\(pending.prepared.label): libcurl refused \(option): \(text)")
            }
        }
        func set(_ option: CURLoption, _ value: Int, _ name: String) throws(TransportError) {
            try check(ccurl_easy_setopt_long(raw, option, value), name)
        }
        func set(_ option: CURLoption, _ value: String, _ name: String) throws(TransportError) {
            try check(ccurl_easy_setopt_string(raw, option, value), name)
        }

        try check(ccurl_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, handle.errorBuffer), "CURLOPT_ERRORBUFFER")
        try check(ccurl_easy_setopt_curlu(raw, CURLOPT_CURLU, pending.prepared.url.raw), "CURLOPT_CURLU")
        switch pending.prepared.method {
        case .get:
            try set(CURLOPT_HTTPGET, 1, "CURLOPT_HTTPGET")
        case .post:
            // POSTFIELDSIZE first, so that COPYPOSTFIELDS copies exactly the body's bytes (NULs included) into
            // curl's own buffer, which outlives this call and is freed by the next reset.
            let body = pending.prepared.body ?? []
            try set(CURLOPT_POST, 1, "CURLOPT_POST")
            try set(CURLOPT_POSTFIELDSIZE, body.count, "CURLOPT_POSTFIELDSIZE")
            let code = body.withUnsafeBytes { bytes -> CURLcode in
                // An empty body still needs a valid pointer: curl copies zero bytes from it.
                var empty: UInt8 = 0
                guard let base = bytes.baseAddress else {
                    return ccurl_easy_setopt_pointer(raw, CURLOPT_COPYPOSTFIELDS, &empty)
                }
                return ccurl_easy_setopt_pointer(raw, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: base))
            }
            try check(code, "CURLOPT_COPYPOSTFIELDS")
        }
        // No signals: curl runs on many threads; timeouts must not use SIGALRM.
        try set(CURLOPT_NOSIGNAL, 1, "CURLOPT_NOSIGNAL")
        try set(CURLOPT_CONNECTTIMEOUT_MS, configuration.connectTimeout.curlMilliseconds, "CURLOPT_CONNECTTIMEOUT_MS")
        try set(CURLOPT_TIMEOUT_MS, configuration.requestTimeout.curlMilliseconds, "CURLOPT_TIMEOUT_MS")
        // http and https only; the http-only-to-loopback rule was checked in PreparedRequest.
        try set(CURLOPT_PROTOCOLS_STR, "http,https", "CURLOPT_PROTOCOLS_STR")
        // Never follow a redirect: it could carry the Authorization header to another host.
        try set(CURLOPT_FOLLOWLOCATION, 0, "CURLOPT_FOLLOWLOCATION")
        try set(CURLOPT_MAXREDIRS, 0, "CURLOPT_MAXREDIRS")
        // TLS is always verified; there is no option to turn it off.
        try set(CURLOPT_SSL_VERIFYPEER, 1, "CURLOPT_SSL_VERIFYPEER")
        try set(CURLOPT_SSL_VERIFYHOST, 2, "CURLOPT_SSL_VERIFYHOST")
        try set(CURLOPT_SSLVERSION, CURL_SSLVERSION_TLSv1_2, "CURLOPT_SSLVERSION")
        // "" = offer every encoding this libcurl decodes (gzip, deflate, br, zstd) and decode the body.
        try set(CURLOPT_ACCEPT_ENCODING, "", "CURLOPT_ACCEPT_ENCODING")
        try set(CURLOPT_USERAGENT, configuration.userAgent, "CURLOPT_USERAGENT")
        try check(ccurl_easy_setopt_slist(raw, CURLOPT_HTTPHEADER, pending.prepared.headers.raw), "CURLOPT_HTTPHEADER")
        try set(CURLOPT_TCP_KEEPALIVE, 1, "CURLOPT_TCP_KEEPALIVE")
        try set(CURLOPT_TCP_KEEPIDLE, 30, "CURLOPT_TCP_KEEPIDLE")
        try set(CURLOPT_TCP_KEEPINTVL, 15, "CURLOPT_TCP_KEEPINTVL")
        try set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1, "CURLOPT_SUPPRESS_CONNECT_HEADERS")
        if pending.prepared.isLoopback {
            // A loopback request never goes through a proxy from the environment (http_proxy and friends).
            try set(CURLOPT_PROXY, "", "CURLOPT_PROXY")
        }

        try check(
            ccurl_easy_setopt_write_function(raw, CURLOPT_WRITEFUNCTION, CurlTransfer.receiveBody),
            "CURLOPT_WRITEFUNCTION")
        try check(ccurl_easy_setopt_pointer(raw, CURLOPT_WRITEDATA, context), "CURLOPT_WRITEDATA")
        try check(
            ccurl_easy_setopt_write_function(raw, CURLOPT_HEADERFUNCTION, CurlTransfer.receiveHeader),
            "CURLOPT_HEADERFUNCTION")
        try check(ccurl_easy_setopt_pointer(raw, CURLOPT_HEADERDATA, context), "CURLOPT_HEADERDATA")
        try set(CURLOPT_NOPROGRESS, 0, "CURLOPT_NOPROGRESS")
        try check(
            ccurl_easy_setopt_xferinfo_function(raw, CURLOPT_XFERINFOFUNCTION, CurlTransfer.progress),
            "CURLOPT_XFERINFOFUNCTION")
        try check(ccurl_easy_setopt_pointer(raw, CURLOPT_XFERINFODATA, context), "CURLOPT_XFERINFODATA")
    }

    // MARK: Errors

    private static func failure(for code: CURLcode, handle: borrowing EasyHandle, pending: PendingRequest)
        -> TransportError
    {
        if code == CURLE_ABORTED_BY_CALLBACK {
            // Only our progress callback aborts: the caller was cancelled (and already answered) or shutdown.
            return .invalidRequest(
                "\(pending.prepared.label): aborted because the transport was shut down or the caller cancelled")
        }
        let curlText = handle.errorText ?? curl_easy_strerror(code).map { String(cString: $0) } ?? "unknown error"
        let detail = pending.prepared.redactor.scrub(
            "\(pending.prepared.label): \(curlText) (curl error \(code.rawValue))")
        return CurlErrorMapping.transportError(for: code, detail: detail)
    }
}

/// What curl's callbacks write into during one transfer. Passed to C as an unretained pointer; the worker keeps
/// it alive (`withExtendedLifetime`) for the whole `curl_easy_perform`.
final class CurlTransfer {
    let pending: PendingRequest
    let queue: PendingRequestQueue
    var headers: [String: String] = [:]
    var body = Data()
    private var lastHeaderName: String?

    init(pending: PendingRequest, queue: PendingRequestQueue) {
        self.pending = pending
        self.queue = queue
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> CurlTransfer? {
        context.map { Unmanaged<CurlTransfer>.fromOpaque($0).takeUnretainedValue() }
    }

    /// `CURLOPT_WRITEFUNCTION`: appends body bytes (already decoded when the body was gzip'd).
    static let receiveBody: ccurl_write_callback = { data, size, count, context in
        let length = size * count
        guard let transfer = CurlTransfer.from(context) else { return 0 }
        if let data, length > 0 {
            transfer.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
        }
        return length
    }

    /// `CURLOPT_HEADERFUNCTION`: called once per header line, status lines and blank lines included.
    static let receiveHeader: ccurl_write_callback = { data, size, count, context in
        let length = size * count
        guard let transfer = CurlTransfer.from(context) else { return 0 }
        if let data, length > 0 {
            let bytes = UnsafeRawBufferPointer(start: data, count: length)
            transfer.headerLine(String(decoding: bytes, as: UTF8.self))
        }
        return length
    }

    /// `CURLOPT_XFERINFOFUNCTION`: non-zero aborts the transfer (`CURLE_ABORTED_BY_CALLBACK`). curl calls it
    /// often while data flows and about once a second while waiting.
    static let progress: curl_xferinfo_callback = { context, _, _, _, _ in
        guard let transfer = CurlTransfer.from(context) else { return 0 }
        let stop = transfer.queue.isShuttingDown || transfer.pending.isCancelled
        return stop ? 1 : 0
    }

    func headerLine(_ rawLine: String) {
        let line = rawLine.trimmingCharacters(in: CharacterSet(charactersIn: "\r\n"))
        if line.hasPrefix("HTTP/") {
            // A new response begins (after a 1xx or a proxy's CONNECT answer): keep only the final one's headers.
            headers = [:]
            lastHeaderName = nil
            return
        }
        guard !line.isEmpty else { return }
        if line.first == " " || line.first == "\t" {
            // An obsolete folded continuation of the previous field.
            if let name = lastHeaderName, let value = headers[name] {
                headers[name] = value + " " + line.trimmingCharacters(in: .whitespaces)
            }
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        guard !name.isEmpty else { return }
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        headers[name] = value
        lastHeaderName = name
    }
}

/// Which ``TransportError`` each libcurl failure is.
enum CurlErrorMapping {
    static func transportError(for code: CURLcode, detail: String) -> TransportError {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(detail)
        case CURLE_PARTIAL_FILE, CURLE_BAD_CONTENT_ENCODING:
            return .truncated(detail)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ENGINE_NOTFOUND,
            CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_INITFAILED,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            return .tlsFailure(detail)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_NOT_BUILT_IN, CURLE_BAD_FUNCTION_ARGUMENT,
            CURLE_UNKNOWN_OPTION, CURLE_FAILED_INIT, CURLE_TOO_MANY_REDIRECTS, CURLE_LOGIN_DENIED:
            return .invalidRequest(detail)
        default:
            // COULDNT_RESOLVE_HOST, COULDNT_RESOLVE_PROXY, COULDNT_CONNECT, WEIRD_SERVER_REPLY, SEND_ERROR,
            // RECV_ERROR, GOT_NOTHING, HTTP2, HTTP2_STREAM, INTERFACE_FAILED, PROXY, QUIC_CONNECT_ERROR,
            // UNRECOVERABLE_POLL, OUT_OF_MEMORY, … : the connection did not deliver; another attempt may.
            return .connectionFailed(detail)
        }
    }
}
