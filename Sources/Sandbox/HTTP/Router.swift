import Foundation
import ReconCore

/// Stripe's API semantics over the world: authentication, routing, list and retrieve, errors.
struct Router: Sendable {
    let storage: WorldStorage
    let renderer: Renderer
    /// Resources restricted keys may not read (403).
    let restrictedKeyForbiddenResources: Set<String>
    /// Balance transactions the lists leave out (``SandboxOptions/hiddenBalanceTransactions``), by index.
    let hiddenBalanceTransactions: Set<Int>
    /// The Reporting API's runs (the one state kept between requests).
    let reportRuns: ReportRunTable
    /// Minor units added to lines of the report files (``SandboxOptions/reportLineOffsets``).
    let reportLineOffsets: [String: Int64]

    init(
        storage: WorldStorage, restrictedKeyForbiddenResources: Set<String> = [],
        hiddenBalanceTransactions: Set<String> = [],
        reportRuns: ReportRunTable = ReportRunTable(failRuns: false, neverFinish: false),
        reportLineOffsets: [String: Int64] = [:]
    ) {
        self.reportLineOffsets = reportLineOffsets
        self.storage = storage
        self.renderer = Renderer(storage: storage)
        self.restrictedKeyForbiddenResources = restrictedKeyForbiddenResources
        self.hiddenBalanceTransactions = Set(
            hiddenBalanceTransactions.compactMap { storage.ids.index(of: $0, kind: .balanceTransaction) })
        self.reportRuns = reportRuns
    }

    // MARK: Routing

    /// Parses the request line, names its endpoint and answers at once what needs no data: a missing or bad
    /// key, a forbidden resource, a write method (but the one POST, creating a report run) or an unknown URL.
    func route(method: String, uri: String, authorization: String?, body: [UInt8] = []) -> RoutedRequest {
        let (path, queryString) = QueryString.split(uri)
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map {
            QueryString.percentDecode(Substring($0))
        }
        let query = QueryString.parse(queryString)
        let endpoint = Router.endpointName(method: method, segments: segments)
        var routed = RoutedRequest(endpoint: endpoint, early: nil, segments: segments, query: query, body: body)
        if let failure = authenticate(authorization) {
            routed.early = failure
        } else if let forbidden = forbid(authorization, segments: segments) {
            routed.early = forbidden
        } else if method != "GET" && endpoint != Router.createReportRunEndpoint {
            routed.early = error(
                405, type: "invalid_request_error",
                message: "The connect-recon sandbox is read-only: \(method.prefix(10)) requests are not supported. "
                    + "It serves only GET requests on Stripe's list and retrieve endpoints (and POST "
                    + "/v1/reporting/report_runs).",
                extraHeaders: [("Allow", "GET")])
        } else if endpoint == "unknown" {
            routed.early = error(
                404, type: "invalid_request_error",
                message: "Unrecognized request URL (GET: \(path.prefix(200))). Please see https://stripe.com/docs "
                    + "or we can help at https://support.stripe.com/.")
        }
        return routed
    }

    static func endpointName(method: String, segments: [String]) -> String {
        if segments == ["v1", "balance"] { return "\(method) /v1/balance" }
        if segments.count >= 2, segments[0] == "v1", segments[1] == "reporting" || segments[1] == "files" {
            return reportingEndpointName(method: method, segments: segments)
        }
        guard segments.count >= 2, segments[0] == "v1", let resource = ListResource(rawValue: segments[1]) else {
            return "unknown"
        }
        let base = "\(method) /v1/\(resource.rawValue)"
        switch (resource, segments.count) {
        case (_, 2): return base
        case (_, 3): return base + "/:id"
        case (.transfers, 4) where segments[3] == "reversals": return base + "/:id/reversals"
        case (.transfers, 5) where segments[3] == "reversals": return base + "/:id/reversals/:id"
        case (.applicationFees, 4) where segments[3] == "refunds": return base + "/:id/refunds"
        case (.applicationFees, 5) where segments[3] == "refunds": return base + "/:id/refunds/:id"
        case (.charges, 4) where segments[3] == "refunds": return base + "/:id/refunds"
        default: return "unknown"
        }
    }

    func respond(_ request: RoutedRequest) -> SandboxResponse {
        if let early = request.early { return early }
        let segments = request.segments
        if segments == ["v1", "balance"] {
            do {
                return try balance(query: request.query)
            } catch {
                return error.response
            }
        }
        if segments[1] == "reporting" || segments[1] == "files" { return respondReporting(request) }
        guard let resource = ListResource(rawValue: segments[1]) else { return notFoundURL(segments) }
        do {
            switch segments.count {
            case 2:
                return try list(resource, query: request.query)
            case 3:
                try checkParameters(request.query, allowed: [])
                let object = try find(segments[2], kind: resource.kind, param: "id")
                return try retrieve(object, query: request.query)
            case 4:
                return try nestedList(resource, parentID: segments[2], query: request.query)
            default:
                try checkParameters(request.query, allowed: [])
                let childKind: ObjectKind = resource == .transfers ? .transferReversal : .feeRefund
                let parent = try find(segments[2], kind: resource.kind, param: "id")
                let child = try find(segments[4], kind: childKind, param: "id")
                let belongs: Bool =
                    switch (parent, child) {
                    case (.transfer(let t), .transferReversal(let v)): storage.reversals.transfer[v] == Int32(t)
                    case (.applicationFee(let f), .feeRefund(let r)): storage.feeRefunds.fee[r] == Int32(f)
                    default: false
                    }
                guard belongs else { throw missing(childKind, segments[4], param: "id") }
                return try retrieve(child, query: request.query)
            }
        } catch let failure as RequestFailure {
            return failure.response
        } catch {
            return self.error(500, type: "api_error", message: "An unknown error occurred.")
        }
    }

    // MARK: Retrieve

    private func retrieve(_ object: ObjectRef, query: [(String, String)]) throws(RequestFailure) -> SandboxResponse {
        let expand = try expansion(query, list: false, kind: object.kind)
        let writer = JSONWriter(ids: storage.ids)
        renderer.render(object, to: writer, expand: expand)
        return SandboxResponse(status: 200, body: writer.bytes, expandedObjects: writer.expandedObjects)
    }

    func find(_ id: String, kind: ObjectKind, param: String) throws(RequestFailure) -> ObjectRef {
        guard let object = renderer.lookup(id: id), object.kind == kind else { throw missing(kind, id, param: param) }
        return object
    }

    func missing(_ kind: ObjectKind, _ id: String, param: String, status: Int = 404) -> RequestFailure {
        RequestFailure(
            response: error(
                status, type: "invalid_request_error", code: "resource_missing",
                message: "No such \(kind.rawValue): '\(id.prefix(100))'", param: param,
                docURL: "https://stripe.com/docs/error-codes/resource-missing"))
    }

    // MARK: Errors

    func error(
        _ status: Int, type: String, code: String? = nil, message: String, param: String? = nil,
        docURL: String? = nil, extraHeaders: [(String, String)] = []
    ) -> SandboxResponse {
        let writer = JSONWriter(ids: storage.ids, capacity: 512)
        writer.object {
            writer.field("error") {
                if let code { writer.field("code", code) }
                if let docURL { writer.field("doc_url", docURL) }
                writer.field("message", message)
                if let param { writer.field("param", param) }
                writer.field("type", type)
            }
        }
        return SandboxResponse(status: status, headers: extraHeaders, body: writer.bytes)
    }

    private func notFoundURL(_ segments: [String]) -> SandboxResponse {
        error(
            404, type: "invalid_request_error",
            message: "Unrecognized request URL (GET: /\(segments.joined(separator: "/").prefix(200))).")
    }
}
