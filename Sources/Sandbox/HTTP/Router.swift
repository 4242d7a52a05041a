import Foundation

/// An HTTP response before it is written.
struct SandboxResponse: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: [UInt8]
    /// Objects the body holds because the request expanded them (each costs the per-expanded-object latency).
    var expandedObjects = 0
}

/// The list endpoints and their filters.
enum ListResource: String, CaseIterable, Sendable {
    case charges
    case paymentIntents = "payment_intents"
    case applicationFees = "application_fees"
    case transfers
    case balanceTransactions = "balance_transactions"
    case disputes, refunds, payouts

    var kind: ObjectKind {
        switch self {
        case .charges: .charge
        case .paymentIntents: .paymentIntent
        case .applicationFees: .applicationFee
        case .transfers: .transfer
        case .balanceTransactions: .balanceTransaction
        case .disputes: .dispute
        case .refunds: .refund
        case .payouts: .payout
        }
    }

    var filters: Set<String> {
        switch self {
        case .charges: ["payment_intent", "transfer_group", "customer"]
        case .paymentIntents: ["customer"]
        case .applicationFees: ["charge"]
        case .transfers: ["destination", "transfer_group"]
        case .balanceTransactions: ["source", "type", "currency", "payout"]
        case .disputes: ["charge", "payment_intent"]
        case .refunds: ["charge", "payment_intent"]
        case .payouts: Router.payoutFilters
        }
    }
}

extension ObjectKind {
    var idKind: StripeIDKind {
        switch self {
        case .charge: .charge
        case .paymentIntent: .paymentIntent
        case .transfer: .transfer
        case .transferReversal: .transferReversal
        case .applicationFee: .applicationFee
        case .feeRefund: .feeRefund
        case .refund: .refund
        case .dispute: .dispute
        case .balanceTransaction: .balanceTransaction
        case .payout: .payout
        }
    }
}

/// A request after routing: the endpoint it names (for statistics and per-endpoint rate limits) and, when it
/// can already be answered (bad key, write method, unknown URL), that answer.
struct PreparedRequest: Sendable {
    var endpoint: String
    var early: SandboxResponse?
    var segments: [String]
    var query: [(String, String)]
}

/// Stripe's API semantics over the world: authentication, routing, list and retrieve, errors.
struct Router: Sendable {
    let storage: WorldStorage
    let renderer: Renderer
    /// Resources restricted keys may not read (403).
    let restrictedKeyForbiddenResources: Set<String>

    init(storage: WorldStorage, restrictedKeyForbiddenResources: Set<String> = []) {
        self.storage = storage
        self.renderer = Renderer(storage: storage)
        self.restrictedKeyForbiddenResources = restrictedKeyForbiddenResources
    }

    // MARK: Routing

    func prepare(method: String, uri: String, authorization: String?) -> PreparedRequest {
        let (path, queryString) = Router.split(uri)
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map {
            Router.percentDecode(Substring($0))
        }
        let query = Router.parseQuery(queryString)
        let endpoint = Router.endpointName(method: method, segments: segments)
        var prepared = PreparedRequest(endpoint: endpoint, early: nil, segments: segments, query: query)
        if let failure = authenticate(authorization) {
            prepared.early = failure
        } else if let forbidden = forbid(authorization, segments: segments) {
            prepared.early = forbidden
        } else if method != "GET" {
            prepared.early = error(
                405, type: "invalid_request_error",
                message: "The connect-recon sandbox is read-only: \(method.prefix(10)) requests are not supported. "
                    + "It serves only GET requests on Stripe's list and retrieve endpoints.",
                extraHeaders: [("Allow", "GET")])
        } else if endpoint == "unknown" {
            prepared.early = error(
                404, type: "invalid_request_error",
                message: "Unrecognized request URL (GET: \(path.prefix(200))). Please see https://stripe.com/docs "
                    + "or we can help at https://support.stripe.com/.")
        }
        return prepared
    }

    static func endpointName(method: String, segments: [String]) -> String {
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

    func respond(_ request: PreparedRequest) -> SandboxResponse {
        if let early = request.early { return early }
        let segments = request.segments
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

    private func find(_ id: String, kind: ObjectKind, param: String) throws(RequestFailure) -> ObjectRef {
        guard let object = renderer.lookup(id: id), object.kind == kind else { throw missing(kind, id, param: param) }
        return object
    }

    private func missing(_ kind: ObjectKind, _ id: String, param: String, status: Int = 404) -> RequestFailure {
        RequestFailure(
            response: error(
                status, type: "invalid_request_error", code: "resource_missing",
                message: "No such \(kind.rawValue): '\(id.prefix(100))'", param: param,
                docURL: "https://stripe.com/docs/error-codes/resource-missing"))
    }

    // MARK: Lists

    private static let pagingParameters: Set<String> = ["limit", "starting_after", "ending_before"]
    private static let createdParameters: Set<String> = [
        "created", "created[gt]", "created[gte]", "created[lt]", "created[lte]",
    ]

    private func list(_ resource: ListResource, query: [(String, String)]) throws(RequestFailure) -> SandboxResponse {
        try checkParameters(
            query, allowed: Router.pagingParameters.union(Router.createdParameters).union(resource.filters))
        var page = try pageRequest(query, itemKind: resource.kind)
        for (name, value) in query {
            guard let bound = Router.createdParameters.contains(name) ? name : nil else { continue }
            guard let number = Int64(value) else {
                throw RequestFailure(
                    response: error(
                        400, type: "invalid_request_error", message: "Invalid integer: \(value.prefix(40))",
                        param: bound))
            }
            switch bound {
            case "created":
                page.createdGTE = max(page.createdGTE ?? .min, number)
                page.createdLTE = min(page.createdLTE ?? .max, number)
            case "created[gt]": page.createdGT = max(page.createdGT ?? .min, number)
            case "created[gte]": page.createdGTE = max(page.createdGTE ?? .min, number)
            case "created[lt]": page.createdLT = min(page.createdLT ?? .max, number)
            default: page.createdLTE = min(page.createdLTE ?? .max, number)
            }
        }
        let expand = try expansion(query, list: true, kind: resource.kind)
        let (candidates, predicate) = filters(resource, query)
        let created = createdColumn(resource.kind)
        let result = Paging.page(created: created, candidates: candidates, matches: predicate, request: page)
        return listResponse(result, kind: resource.kind, url: "/v1/\(resource.rawValue)", expand: expand)
    }

    private func nestedList(
        _ resource: ListResource, parentID: String, query: [(String, String)]
    ) throws(RequestFailure) -> SandboxResponse {
        try checkParameters(query, allowed: Router.pagingParameters)
        let parent = try find(parentID, kind: resource.kind, param: "id")
        let (items, childKind, url): (ArraySlice<Int32>, ObjectKind, String) =
            switch parent {
            case .transfer(let t):
                (storage.transfers.reversals.items(of: t), .transferReversal, "/v1/transfers/\(parentID)/reversals")
            case .applicationFee(let f):
                (storage.fees.refunds.items(of: f), .feeRefund, "/v1/application_fees/\(parentID)/refunds")
            case .charge(let c):
                (storage.charges.refunds.items(of: c), .refund, "/v1/charges/\(parentID)/refunds")
            default: ([], .refund, "")
            }
        let page = try pageRequest(query, itemKind: childKind)
        let expand = try expansion(query, list: true, kind: childKind)
        let result = Paging.page(
            created: createdColumn(childKind), candidates: Array(items), matches: nil, request: page)
        return listResponse(result, kind: childKind, url: url, expand: expand)
    }

    private func listResponse(
        _ result: (items: [Int], hasMore: Bool), kind: ObjectKind, url: String, expand: ExpandTree
    ) -> SandboxResponse {
        let writer = JSONWriter(ids: storage.ids, capacity: 4096 + result.items.count * 3000)
        writer.object {
            writer.field("object", "list")
            writer.arrayField("data") {
                for index in result.items { renderer.render(Router.object(kind, index), to: writer, expand: expand) }
            }
            writer.field("has_more", result.hasMore)
            writer.field("url", url)
        }
        return SandboxResponse(status: 200, body: writer.bytes, expandedObjects: writer.expandedObjects)
    }

    static func object(_ kind: ObjectKind, _ index: Int) -> ObjectRef {
        switch kind {
        case .charge: .charge(index)
        case .paymentIntent: .paymentIntent(index)
        case .transfer: .transfer(index)
        case .transferReversal: .transferReversal(index)
        case .applicationFee: .applicationFee(index)
        case .feeRefund: .feeRefund(index)
        case .refund: .refund(index)
        case .dispute: .dispute(index)
        case .balanceTransaction: .balanceTransaction(index)
        case .payout: .payout(index)
        }
    }

    private func createdColumn(_ kind: ObjectKind) -> [Int64] {
        switch kind {
        case .charge, .paymentIntent: storage.charges.created
        case .transfer: storage.transfers.created
        case .transferReversal: storage.reversals.created
        case .applicationFee: storage.fees.created
        case .feeRefund: storage.feeRefunds.created
        case .refund: storage.refunds.created
        case .dispute: storage.disputes.created
        case .balanceTransaction: storage.balanceTransactions.created
        case .payout: storage.payouts.created
        }
    }

    private func pageRequest(_ query: [(String, String)], itemKind: ObjectKind) throws(RequestFailure) -> PageRequest {
        var page = PageRequest()
        let value = { (name: String) in query.last(where: { $0.0 == name })?.1 }
        if let text = value("limit") {
            guard let limit = Int(text) else {
                throw RequestFailure(
                    response: error(
                        400, type: "invalid_request_error", message: "Invalid integer: \(text.prefix(40))",
                        param: "limit"))
            }
            guard limit >= 1 else {
                throw RequestFailure(
                    response: error(
                        400, type: "invalid_request_error", message: "This value must be greater than or equal to 1.",
                        param: "limit"))
            }
            guard limit <= 100 else {
                throw RequestFailure(
                    response: error(
                        400, type: "invalid_request_error", message: "This value must be less than or equal to 100.",
                        param: "limit"))
            }
            page.limit = limit
        }
        let after = value("starting_after").flatMap { $0.isEmpty ? nil : $0 }
        let before = value("ending_before").flatMap { $0.isEmpty ? nil : $0 }
        if after != nil, before != nil {
            throw RequestFailure(
                response: error(
                    400, type: "invalid_request_error",
                    message: "You may only specify one of these parameters: ending_before, starting_after.",
                    param: "ending_before"))
        }
        if let after { page.startingAfter = try cursor(after, kind: itemKind, param: "starting_after") }
        if let before { page.endingBefore = try cursor(before, kind: itemKind, param: "ending_before") }
        return page
    }

    private func cursor(_ id: String, kind: ObjectKind, param: String) throws(RequestFailure) -> Int {
        guard let object = renderer.lookup(id: id), object.kind == kind else {
            throw missing(kind, id, param: param, status: 400)
        }
        switch object {
        case .charge(let i), .paymentIntent(let i), .transfer(let i), .transferReversal(let i),
            .applicationFee(let i), .feeRefund(let i), .refund(let i), .dispute(let i), .balanceTransaction(let i),
            .payout(let i):
            return i
        }
    }

    /// The candidates (few, from an index) and/or the predicate (scanned) of a list's filters.
    private func filters(
        _ resource: ListResource, _ query: [(String, String)]
    ) -> (candidates: [Int32]?, predicate: ((Int) -> Bool)?) {
        var candidates: [Int32]?
        var predicates: [(Int) -> Bool] = []
        func restrict(_ values: [Int32]) {
            let sorted = values.filter { $0 >= 0 }.sorted()
            candidates = candidates.map { current in sorted.filter { current.contains($0) } } ?? sorted
        }
        let s = storage
        for (name, value) in query where resource.filters.contains(name) {
            switch (resource, name) {
            case (.charges, "payment_intent"), (.paymentIntents, "payment_intent"):
                restrict(index(value, .paymentIntent).map { [Int32($0)] } ?? [])
            case (.charges, "transfer_group"):
                restrict(groupCharge(value).map { [Int32($0)] } ?? [])
            case (.transfers, "transfer_group"):
                restrict(groupCharge(value).map { [s.charges.transfer[$0]] } ?? [])
            case (.transfers, "destination"):
                let account = index(value, .account).flatMap { $0 < s.accountCount ? Int16($0) : nil } ?? -2
                predicates.append { s.transfers.destination[$0] == account }
            case (.balanceTransactions, "source"):
                restrict(balanceTransactions(of: value))
            case (.balanceTransactions, "type"):
                predicates.append { s.balanceTransactions.type[$0].type == value }
            case (.balanceTransactions, "currency"):
                let code = value.lowercased()
                predicates.append { s.balanceTransactions.currency[$0].code == code }
            case (.applicationFees, "charge"):
                let charge = index(value, .charge) ?? index(value, .connectedPayment)
                restrict(charge.map { $0 < s.charges.count ? [s.charges.fee[$0]] : [] } ?? [])
            case (.disputes, "charge"), (.refunds, "charge"):
                restrict(children(resource, ofCharge: index(value, .charge)))
            case (.disputes, "payment_intent"), (.refunds, "payment_intent"):
                restrict(children(resource, ofCharge: index(value, .paymentIntent)))
            case (.balanceTransactions, "payout"):
                restrict(payoutTransactions(value))
            case (.payouts, _):
                if let predicate = payoutPredicate(name, value) { predicates.append(predicate) }
            default:
                restrict([])  // customer: the world has none
            }
        }
        let predicate: ((Int) -> Bool)? =
            predicates.isEmpty ? nil : { index in predicates.allSatisfy { $0(index) } }
        return (candidates, predicate)
    }

    private func index(_ id: String, _ kind: StripeIDKind) -> Int? { storage.ids.index(of: id, kind: kind) }

    private func groupCharge(_ group: String) -> Int? {
        guard group.hasPrefix("group_"), let pi = index(String(group.dropFirst(6)), .paymentIntent),
            pi < storage.charges.count, storage.charges.intentDestination[pi] >= 0
        else { return nil }
        return pi
    }

    private func children(_ resource: ListResource, ofCharge charge: Int?) -> [Int32] {
        guard let charge, charge < storage.charges.count else { return [] }
        return Array(
            resource == .disputes
                ? storage.charges.disputes.items(of: charge) : storage.charges.refunds.items(of: charge))
    }

    private func balanceTransactions(of id: String) -> [Int32] {
        let s = storage
        guard let object = renderer.lookup(id: id) else { return [] }
        switch object {
        case .charge(let i): return [s.charges.balanceTransaction[i], s.charges.failureBalanceTransaction[i]]
        case .transfer(let i): return [s.transfers.balanceTransaction[i]]
        case .transferReversal(let i): return [s.reversals.balanceTransaction[i]]
        case .applicationFee(let i): return [s.fees.balanceTransaction[i]]
        case .feeRefund(let i): return [s.feeRefunds.balanceTransaction[i]]
        case .refund(let i): return [s.refunds.balanceTransaction[i]]
        case .dispute(let i): return [s.disputes.withdrawal[i], s.disputes.reinstatement[i]]
        case .payout(let i): return [s.payouts.balanceTransaction[i], s.payouts.failureBalanceTransaction[i]]
        case .paymentIntent, .balanceTransaction: return []
        }
    }

    // MARK: Parameters

    private func checkParameters(_ query: [(String, String)], allowed: Set<String>) throws(RequestFailure) {
        for (name, _) in query where !allowed.contains(name) && !Router.isExpand(name) {
            throw RequestFailure(
                response: error(
                    400, type: "invalid_request_error", message: "Received unknown parameter: \(name.prefix(60))",
                    param: String(name.prefix(60))))
        }
    }

    private static func isExpand(_ name: String) -> Bool {
        guard name.hasPrefix("expand[") && name.hasSuffix("]") else { return false }
        return name.dropFirst(7).dropLast().allSatisfy(\.isNumber)
    }

    private func expansion(_ query: [(String, String)], list: Bool, kind: ObjectKind) throws(RequestFailure)
        -> ExpandTree
    {
        var tree = ExpandTree()
        for (name, value) in query where Router.isExpand(name) {
            var path = value.split(separator: ".", omittingEmptySubsequences: false)
            guard !path.contains(where: \.isEmpty) else { throw cannotExpand(value) }
            // Stripe counts every level, a list's `data` included: `data.refunds.data.balance_transaction` is 4.
            guard path.count <= Router.maximumExpansionDepth else { throw tooDeep(value) }
            if list {
                guard path.first == "data", path.count > 1 else { throw cannotExpand(value) }
                path.removeFirst()
            }
            tree.insert(path)
        }
        if let invalid = tree.invalidPath(for: kind) {
            throw cannotExpand(list ? "data." + invalid : invalid)
        }
        return tree
    }

    /// Stripe's limit on the levels of one expansion.
    static let maximumExpansionDepth = 4

    private func tooDeep(_ path: String) -> RequestFailure {
        RequestFailure(
            response: error(
                400, type: "invalid_request_error",
                message: "You cannot expand more than \(Router.maximumExpansionDepth) levels of a property. "
                    + "Property: \(path.prefix(80))",
                param: "expand"))
    }

    private func cannotExpand(_ path: String) -> RequestFailure {
        RequestFailure(
            response: error(
                400, type: "invalid_request_error", message: "This property cannot be expanded (\(path.prefix(80))).",
                param: "expand"))
    }

    // MARK: Authentication

    private func authenticate(_ header: String?) -> SandboxResponse? {
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
    private func forbid(_ header: String?, segments: [String]) -> SandboxResponse? {
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

    // MARK: Errors and parsing

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

    static func split(_ uri: String) -> (path: String, query: String) {
        guard let mark = uri.firstIndex(of: "?") else { return (uri, "") }
        return (String(uri[..<mark]), String(uri[uri.index(after: mark)...]))
    }

    static func parseQuery(_ query: String) -> [(String, String)] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecode(parts[0])
            let value = parts.count > 1 ? percentDecode(parts[1]) : ""
            return (name, value)
        }
    }

    static func percentDecode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = iterator.next(), let low = iterator.next(), let h = hex(high), let l = hex(low) else {
                    bytes.append(byte)
                    continue
                }
                bytes.append(h << 4 | l)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A request that cannot be answered with data, carrying Stripe's error response.
struct RequestFailure: Error {
    var response: SandboxResponse
}
