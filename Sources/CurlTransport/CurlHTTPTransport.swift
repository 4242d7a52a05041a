import CCurl
import Foundation
import StripeAPI

/// An ``HTTPTransport`` on libcurl: a fixed set of worker threads, each with one reused easy handle.
///
/// - Concurrency: at most ``CurlTransportConfiguration/maxConcurrentRequests`` requests run at once, one per
///   dedicated worker thread (blocking `curl_easy_perform` never runs on Swift's cooperative pool). Further
///   calls wait in a FIFO queue; ``get(_:)`` suspends until a worker has the whole response.
/// - Connections: each worker keeps its connection alive between requests, so sequential requests from one
///   worker to one host share one TCP + TLS connection.
/// - Security: TLS is always verified; plain `http` is refused unless the host is loopback; only http and
///   https; redirects are never followed (a 3xx comes back as a response); header values (the API key)
///   never appear in an error.
/// - Responses: every HTTP status, 4xx and 5xx included, is a response, not an error. Header names are
///   lower-cased; after a `100 Continue` only the final response's headers are kept; gzip/deflate/br/zstd
///   bodies are decoded.
/// - Cancellation: a cancelled caller is answered at once with ``TransportError/invalidRequest(_:)`` whose
///   detail says "cancelled" (not retryable); a queued request is dropped, a running one is aborted within
///   about a second.
///
/// Call ``shutdown()`` when done (``deinit`` does it too).
public final class CurlHTTPTransport: HTTPTransport {
    /// The configuration this transport was made with.
    public let configuration: CurlTransportConfiguration
    private let queue: PendingRequestQueue

    /// Starts the worker threads, each with its own easy handle.
    ///
    /// Throws ``TransportError/invalidRequest(_:)`` for a configuration it cannot use, and
    /// ``TransportError/tlsFailure(_:)`` when libcurl cannot initialise or has no TLS support.
    public init(configuration: CurlTransportConfiguration) throws(TransportError) {
        do throws(TransportConfigurationError) {
            try configuration.validate()
        } catch {
            throw .invalidRequest("invalid CurlTransportConfiguration: \(error.message)")
        }
        guard CurlGlobal.initResult == CURLE_OK else {
            let text = curl_easy_strerror(CurlGlobal.initResult).map { String(cString: $0) } ?? "unknown error"
            throw .tlsFailure("libcurl could not be initialised (curl_global_init: \(text))")
        }
        guard CurlLibrary.supportsTLS else {
            throw .tlsFailure(
                "this libcurl (\(CurlLibrary.version)) was built without TLS support; https is impossible")
        }
        self.configuration = configuration
        queue = PendingRequestQueue()

        let count = configuration.maxConcurrentRequests
        for index in 0..<count {
            let queue = queue
            let thread = Thread { Worker.run(queue: queue, configuration: configuration) }
            thread.name = "curl-transport-\(index)"
            thread.start()
        }
        let failed = queue.waitForWorkersToStart(count: count)
        if failed > 0 {
            shutdown()
            throw .connectionFailed("libcurl could not create \(failed) of \(count) easy handles (out of memory?)")
        }
    }

    deinit {
        shutdown()
    }

    /// Sends a GET and returns the complete response (any status), or why none arrived.
    public func get(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        // Check and convert the request here, on the caller's task: a refused request never reaches a worker.
        let pending = PendingRequest(prepared: try PreparedRequest(request))
        let queue = queue
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: JobContinuation) in
                guard pending.attach(continuation) else { return }
                if !queue.submit(pending) {
                    pending.finish(.failure(Self.shutDownError(pending.prepared.label)))
                }
            }
        } onCancel: {
            pending.cancel()
        }
        return try result.get()
    }

    /// Stops the worker threads and frees their handles and connections. Requests still queued fail with
    /// ``TransportError/invalidRequest(_:)`` ("shut down"); running ones are aborted (within about a second).
    /// Blocks until every worker thread has ended. Safe to call more than once; later `get`s fail at once.
    public func shutdown() {
        for pending in queue.close() {
            pending.finish(.failure(Self.shutDownError(pending.prepared.label)))
        }
        queue.waitForWorkersToExit()
    }

    private static func shutDownError(_ label: String) -> TransportError {
        .invalidRequest("\(label): the HTTP transport was shut down")
    }
}

extension CurlLibrary {
    /// Whether this libcurl can speak TLS.
    static var supportsTLS: Bool {
        guard let info = ccurl_version_info() else { return false }
        return info.pointee.features & CURL_VERSION_SSL != 0
    }
}
