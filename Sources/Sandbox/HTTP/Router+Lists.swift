import ReconCore

// List endpoints: paging parameters, `created` bounds, nested lists and the list envelope.

extension Router {
    // MARK: Lists

    private static let pagingParameters: Set<String> = ["limit", "starting_after", "ending_before"]
    private static let createdParameters: Set<String> = [
        "created", "created[gt]", "created[gte]", "created[lt]", "created[lte]",
    ]

    func list(_ resource: ListResource, query: [(String, String)]) throws(RequestFailure) -> SandboxResponse {
        try checkParameters(
            query, allowed: Router.pagingParameters.union(Router.createdParameters).union(resource.filters))
        var page = try pageRequest(query, itemKind: resource.kind)
        if resource == .balanceTransactions, let payout = query.last(where: { $0.0 == "payout" })?.1,
            let index = storage.ids.index(of: payout, kind: .payout), index < storage.payouts.count,
            !storage.payouts.automatic[index]
        {
            // Stripe itemises automatic payouts only.
            throw RequestFailure(
                response: error(
                    400, type: "invalid_request_error",
                    message: "Balance transaction history can only be filtered on automatic transfers, not manual.",
                    param: "payout"))
        }
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

    func nestedList(
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
                for index in result.items { renderer.render(ObjectRef(kind, index), to: writer, expand: expand) }
            }
            writer.field("has_more", result.hasMore)
            writer.field("url", url)
        }
        return SandboxResponse(status: 200, body: writer.bytes, expandedObjects: writer.expandedObjects)
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
}
