import Foundation

/// A seeded, deterministic Stripe Connect platform: charges, PaymentIntents, transfers and their reversals,
/// application fees and their refunds, refunds, disputes, daily automatic payouts and balance transactions over
/// `[start, end)`.
///
/// The range sits inside a longer history: refunds, disputes and reversals come days or weeks after their charges,
/// so a charge near the world's end is refunded or disputed only after it, as the world's "now" has not reached
/// those events yet.
///
/// The same world can be served as of an earlier moment (``init(seed:charges:start:end:asOf:)``,
/// ``served(asOf:)``): what Stripe would have served then, with the same ids.
///
/// The same seed and options always give the same objects and byte-identical JSON. The world is generated
/// compactly (about 100 bytes per object) and rendered per request, so a million charges fit in memory.
public struct SandboxWorld: Sendable {
    /// The generator's tables, for the ground truth (SandboxTruth), which reads what the world meant to create.
    package let storage: WorldStorage

    /// Generates the world over `[start, start + days × 86400 s)`. `charges` is the number of platform charges;
    /// related objects come on top. `asOf`: serve it as of that moment (see
    /// ``init(seed:charges:start:end:asOf:transferGroupShare:movesByHand:otherMoney:)``).
    public init(
        seed: UInt64, charges: Int, start: Date, days: Int, asOf: Date? = nil, transferGroupShare: Double = 0,
        movesByHand: Bool = false, otherMoney: Bool = false
    ) {
        let end = start.addingTimeInterval(Double(max(days, 1)) * 86_400)
        self.init(
            seed: seed, charges: charges, start: start, end: end, asOf: asOf, transferGroupShare: transferGroupShare,
            movesByHand: movesByHand, otherMoney: otherMoney)
    }

    /// Generates the world over `[start, end)`; `end`, the world's "now", need not be a midnight. An `end` less than
    /// two hours after `start` is moved to two hours after it.
    ///
    /// With `asOf` (`start < asOf <= end`, else moved into that interval), the same world is served as Stripe would
    /// have served it at that moment: every random draw is that of the whole world, objects created at or after
    /// `asOf` do not exist, and the others are in their state as of it (a bank debit not settled yet is `pending`, a
    /// refund that fails later is in its earlier status, a dispute decided later shows the status it had, a payout
    /// that fails later is `paid` or still travelling, `amount_refunded` and the nested lists count only what came
    /// before). An object created before `asOf` has the same id in both and the same JSON unless its state changed
    /// since. ``end`` is then `asOf`, and ``plannedEnd`` the end the world was generated up to. `nil` serves it as of
    /// its end.
    ///
    /// `transferGroupShare` (0…1): the share of the randomly drawn charges made separately transferred charges
    /// (docs/RULES.md, "Separate charges and transfers"): no destination, a `transfer_group` (or transfers naming
    /// them as `source_transaction` only), one to three transfers to different accounts, some created a day or more
    /// later, sometimes refunds and disputes with or without the platform's hand reversals. They are drawn from a
    /// random stream of their own: at 0 (the default) the world is the one it always was, and the guaranteed scenarios
    /// hold a few such charges whatever the share.
    ///
    /// `movesByHand`: the late outcomes also hold money the platform moves by hand during the last day for charges of
    /// the day before (``ChargePlan/lateMovesByHand()``, docs/RULES.md "Money moved by hand, across time"); without it
    /// (the default) the world is the one it always was.
    ///
    /// `otherMoney`: the world also holds the platform's other money (docs/RULES.md, "The platform's other money"):
    /// Stripe's costs outside charges, billed daily, late and monthly (``WorldStripeCost``); without it (the default)
    /// the world is the one it always was.
    public init(
        seed: UInt64, charges: Int, start: Date, end: Date, asOf: Date? = nil, transferGroupShare: Double = 0,
        movesByHand: Bool = false, otherMoney: Bool = false
    ) {
        let startSeconds = Int64(start.timeIntervalSince1970.rounded(.down))
        let endSeconds = max(Int64(end.timeIntervalSince1970.rounded(.down)), startSeconds + 7_200)
        let world = WorldBuilder(
            seed: seed, chargeCount: max(charges, 0), start: startSeconds, end: endSeconds,
            transferGroupShare: transferGroupShare, movesByHand: movesByHand, otherMoney: otherMoney
        )
        .build()
        storage = asOf.map { world.servedAsOf(Self.moment($0, inside: world)) } ?? world
    }

    private init(storage: WorldStorage) { self.storage = storage }

    /// The same world served as of `moment`, moved into `(start, end]` (an earlier moment than this world's own
    /// ``end``; nothing is generated again).
    public func served(asOf moment: Date) -> SandboxWorld {
        SandboxWorld(storage: storage.servedAsOf(Self.moment(moment, inside: storage)))
    }

    /// `moment` in whole seconds, moved into `(start, end]`.
    private static func moment(_ moment: Date, inside storage: WorldStorage) -> Int64 {
        min(max(Int64(moment.timeIntervalSince1970.rounded(.down)), storage.start + 1), storage.end)
    }

    public var seed: UInt64 { storage.seed }
    /// The first instant of the world.
    public var start: Date { Date(timeIntervalSince1970: TimeInterval(storage.start)) }
    /// The end of the world as served (exclusive): every object served was created before it; it is the world's
    /// "now". For a world served as of an earlier moment, that moment.
    public var end: Date { Date(timeIntervalSince1970: TimeInterval(storage.end)) }
    /// The end the world was generated up to: ``end``, unless the world is served as of an earlier moment.
    public var plannedEnd: Date { Date(timeIntervalSince1970: TimeInterval(storage.plannedEnd)) }
    /// A day before ``plannedEnd``: the world served as of this moment shows the late-outcome scenarios
    /// (``SandboxScenario/lateSkippedTransfer`` …) in their earlier state, the world served as of its end in the
    /// later one.
    public var earlierMoment: Date { plannedEnd.addingTimeInterval(-86_400) }

    /// Number of objects per list endpoint resource, plus the nested kinds.
    public var counts: [String: Int] {
        [
            "charges": storage.charges.count,
            "payment_intents": storage.charges.count - storage.charges.payingAccount.count,
            "transfers": storage.transfers.count, "transfer_reversals": storage.reversals.count,
            "application_fees": storage.fees.count, "fee_refunds": storage.feeRefunds.count,
            "refunds": storage.refunds.count, "disputes": storage.disputes.count,
            "balance_transactions": storage.balanceTransactions.count, "payouts": storage.payouts.count,
        ]
    }

    /// All objects, every kind counted once.
    public var objectCount: Int { counts.values.reduce(0, +) }

    /// The ids of the objects that show `scenario`, oldest first (charge ids, except where ``SandboxScenario`` says
    /// otherwise). In a world served as of an earlier moment, those created before it, which show the scenario by
    /// ``plannedEnd``.
    public func ids(for scenario: SandboxScenario) -> [String] {
        (storage.scenarios[scenario] ?? []).map { storage.ids.id($0.kind, Int($0.index)) }
    }

    /// The connected accounts of the world.
    public var accountIDs: [String] { (0..<storage.accountCount).map { storage.ids.id(.account, $0) } }

    /// The JSON Stripe would return for `GET /v1/<resource>/<id>` (for tests and tools), or `nil` when no such
    /// object exists.
    public func renderedObject(id: String) -> Data? {
        let renderer = Renderer(storage: storage)
        guard let object = renderer.lookup(id: id) else { return nil }
        let writer = JSONWriter(ids: storage.ids)
        renderer.render(object, to: writer, expand: ExpandTree())
        return Data(writer.bytes)
    }
}
