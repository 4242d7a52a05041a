import ReconCore

// Query parameters a request may send, and `expand[]` checked against what each kind can expand.

extension Router {
    // MARK: Parameters

    func checkParameters(_ query: [(String, String)], allowed: Set<String>) throws(RequestFailure) {
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

    func expansion(_ query: [(String, String)], list: Bool, kind: ObjectKind) throws(RequestFailure)
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
}
