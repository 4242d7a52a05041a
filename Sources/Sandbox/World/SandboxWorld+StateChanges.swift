import ReconCore

/// An object whose JSON differs between two moments of one world.
public struct SandboxStateChange: Sendable, Hashable {
    public var kind: ObjectKind
    /// Its id, the same at both moments.
    public var id: String

    public init(kind: ObjectKind, id: String) {
        self.kind = kind
        self.id = id
    }
}

extension SandboxWorld {
    /// The ids of every object of `kind` served, oldest first.
    public func ids(of kind: ObjectKind) -> [String] {
        (0..<storage.count(of: kind)).map { storage.ids.id(kind.idKind, $0) }
    }

    /// The objects created before `earlier`'s ``end`` whose JSON (as a retrieve without expansions returns it)
    /// differs in this world: the late outcomes between the two moments, and the aggregates and balance transaction
    /// statuses they move. Sorted by kind (in ``ObjectKind`` order), then creation. `earlier` must be the same world
    /// (seed, charges, start, planned end) served as of a moment no later than this one's.
    ///
    /// Renders every object of `earlier` twice: for tests on worlds of a few thousand charges.
    public func stateChanges(since earlier: SandboxWorld) -> [SandboxStateChange] {
        precondition(
            earlier.seed == seed && earlier.storage.start == storage.start
                && earlier.storage.plannedEnd == storage.plannedEnd
                && earlier.storage.plannedChargeCount == storage.plannedChargeCount && earlier.end <= end,
            "stateChanges(since:) compares two moments of one world, the earlier one first")
        let before = Renderer(storage: earlier.storage)
        let after = Renderer(storage: storage)
        var changes: [SandboxStateChange] = []
        for kind in ObjectKind.allCases {
            for index in 0..<earlier.storage.count(of: kind) {
                let object = ObjectRef(kind, index)
                let old = JSONWriter(ids: storage.ids)
                before.render(object, to: old, expand: ExpandTree())
                let new = JSONWriter(ids: storage.ids)
                after.render(object, to: new, expand: ExpandTree())
                if old.bytes != new.bytes {
                    changes.append(SandboxStateChange(kind: kind, id: storage.ids.id(kind.idKind, index)))
                }
            }
        }
        return changes
    }
}

extension WorldStorage {
    /// The number of objects of `kind`.
    func count(of kind: ObjectKind) -> Int {
        switch kind {
        case .charge, .paymentIntent: charges.count
        case .transfer: transfers.count
        case .transferReversal: reversals.count
        case .applicationFee: fees.count
        case .feeRefund: feeRefunds.count
        case .refund: refunds.count
        case .dispute: disputes.count
        case .balanceTransaction: balanceTransactions.count
        case .payout: payouts.count
        }
    }
}
