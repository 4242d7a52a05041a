/// What the reconciler reads: the facts of a range and of every object it refers to, as the history holds
/// them. No network, no database, no clock: `asOf` is the moment the run treats as now.
@dynamicMemberLookup
public struct ReconciliationInput: Sendable {
    /// `[from, to)` in Unix seconds: which objects are "created in the range".
    public var from: Int64
    public var to: Int64
    /// The run's "now", for the skipped-transfer grace period.
    public var asOf: Int64
    /// Charges younger than this at `asOf` are not yet skipped transfers.
    public var skippedTransferGrace: Int64

    /// The range's objects and everything they refer to (any creation time), and what `?payout=` listed for its
    /// payouts (each link's balance transaction among the objects). Its lists read as the input's own:
    /// `input.charges` is `input.objects.charges`. Payouts: those created in the range are reported on (automatic
    /// ones only).
    public var objects: ObjectLists
    /// Referenced objects Stripe answered 404 for: (kind, id).
    public var missingObjects: [(kind: ObjectKind, id: String)]
    /// The range's ledger, added up by the history instead of handed over transaction by transaction: one row per
    /// currency, ledger balance type and reporting category, each once, none of whose totals overflowed.
    public var ledgerTotals: [LedgerRow] = []
    /// The range's balance transactions that are Stripe's costs outside charges (``StripeCost``), read beside
    /// ``ledgerTotals`` by the part holding those (which holds no balance transactions to find them among).
    public var stripeCostTransactions: [BalanceTransactionFacts] = []
    /// The range's losses covered for connected accounts (`connect_collection_transfer` transactions, with the account
    /// each collected for): one part holds them, the last.
    public var collectionTransfers: [CollectionTransfer] = []
    /// The charges of the look-back window before the range that are still pending, per currency (one part holds
    /// them: the ledger's).
    public var pendingCharges: [PendingChargeTotal] = []
    /// What the range's roll-forward needs (one part holds it: the last).
    public var balance: BalanceInputs?
    /// Earlier ranges whose Stripe report this run found published since their own run: compared as late outcomes
    /// (the part holding ``balance`` holds them).
    public var lateBalanceComparisons: [LateBalanceComparison] = []
    /// The objects of the look-back window judged as late outcomes (docs/RULES.md: their outcome arrived since the
    /// history last held them; they get findings, not `platform_fees` or `payouts` rows). When the input is the whole
    /// range (`judged == nil`), the rules judge these beside the range's objects; a part names them in `judged`.
    public var lateOutcomes = JudgedObjects()
    /// When the input is one part of a range: the objects this part reports on. `nil`: the input is the whole
    /// range, and every object created in it is reported on.
    public var judged: JudgedObjects?

    public init(
        from: Int64, to: Int64, asOf: Int64, skippedTransferGrace: Int64, objects: ObjectLists = ObjectLists(),
        missingObjects: [(kind: ObjectKind, id: String)] = [], judged: JudgedObjects? = nil
    ) {
        self.from = from
        self.to = to
        self.asOf = asOf
        self.skippedTransferGrace = skippedTransferGrace
        self.objects = objects
        self.missingObjects = missingObjects
        self.judged = judged
    }

    /// The input's list of `T`, read and written as its own (`input.charges`).
    public subscript<T>(dynamicMember list: WritableKeyPath<ObjectLists, T>) -> T {
        get { objects[keyPath: list] }
        _modify { yield &objects[keyPath: list] }
    }

    /// How many facts the input holds.
    public var objectCount: Int { objects.count }

    /// How many late outcomes the input judges: objects it judges that were created before the range.
    public var lateOutcomeCount: Int {
        guard let judged else { return lateOutcomes.count }
        return judged.kinds.reduce(0) { total, kind in
            total + objects.count(of: kind, in: judged[kind], createdBefore: from)
        }
    }

    /// Whether the input holds nothing but balance transactions, or the ledger's totals: a ledger part.
    /// (Its pending charges are totals, not facts.)
    public var isLedgerOnly: Bool { objects.kinds.allSatisfy { $0 == .balanceTransaction } }
}

/// The objects one part of a range reports on (see ``ReconciliationInput/judged``).
///
/// A range too large to hold at once is reconciled in parts: each part holds the objects it reports on plus
/// everything they refer to (its context), and every object created in the range is judged in exactly one
/// part. Objects of the context are looked up, never reported on, so an object two parts both need is read
/// twice but counted once.
public struct JudgedObjects: Sendable, Equatable {
    /// The ids judged, per kind. Charges created in the range: their `platform_fees` row, skipped transfer and
    /// checks; or, as late outcomes (``ReconciliationInput/lateOutcomes``, a late part), charges of earlier days:
    /// their findings only. So for refunds, disputes and payouts. Transfers, application fees, refunds and disputes
    /// created in the range: their checks and findings. Balance transactions created in the range: the ledger.
    /// Payouts created in the range: their `payouts` and `payout_transactions` rows and their findings.
    private var ids: [ObjectKind: Set<String>] = [:]
    /// Payouts whose paid-out balance transactions are too many for one part: this part holds some of them (by
    /// creation time, then id) and later parts the rest; the payout is judged in the part holding its last ones.
    public var payoutsContinued: Set<String> = []
    /// Whether this part reports the input's `missingObjects`.
    public var missingObjects: Bool

    /// Judges the objects `ids` of `kind`, and the missing objects when `missingObjects`.
    public init(_ kind: ObjectKind? = nil, _ ids: Set<String> = [], missingObjects: Bool = false) {
        if let kind, !ids.isEmpty { self.ids[kind] = ids }
        self.missingObjects = missingObjects
    }

    /// The judged ids of `kind`.
    public subscript(kind: ObjectKind) -> Set<String> {
        get { ids[kind] ?? [] }
        set { ids[kind] = newValue.isEmpty ? nil : newValue }
    }

    /// The kinds with judged ids, in the catalogue's order.
    public var kinds: [ObjectKind] { ObjectKind.allCases.filter { ids[$0] != nil } }

    /// How many objects are judged, of every kind.
    public var count: Int { ids.values.reduce(0) { $0 + $1.count } }

    /// Whether `object` is among the judged.
    public func contains<Object: KindObject>(_ object: Object) -> Bool {
        contains(Object.kind, id: object.id)
    }

    /// Whether the object of `kind` with `id` is among the judged.
    public func contains(_ kind: ObjectKind, id: String) -> Bool {
        ids[kind]?.contains(id) ?? false
    }
}
