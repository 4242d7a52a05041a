import Foundation

/// A seeded, deterministic Stripe Connect platform: charges, PaymentIntents, transfers and their reversals,
/// application fees and their refunds, refunds, disputes, daily automatic payouts and balance transactions over
/// `[start, end)`.
///
/// The range sits inside a longer history: refunds, disputes and reversals come days or weeks after their charges,
/// so a charge near the world's end is refunded or disputed only after it, as the world's "now" has not reached
/// those events yet.
///
/// The same seed and options always give the same objects and byte-identical JSON. The world is generated
/// compactly (about 100 bytes per object) and rendered per request, so a million charges fit in memory.
public struct SandboxWorld: Sendable {
    /// The generator's tables, for the ground truth (SandboxTruth), which reads what the world meant to create.
    package let storage: WorldStorage

    /// Generates the world over `[start, start + days × 86400 s)`. `charges` is the number of platform charges;
    /// related objects come on top.
    public init(seed: UInt64, charges: Int, start: Date, days: Int) {
        let end = start.addingTimeInterval(Double(max(days, 1)) * 86_400)
        self.init(seed: seed, charges: charges, start: start, end: end)
    }

    /// Generates the world over `[start, end)`; `end`, the world's "now", need not be a midnight. An `end` less than
    /// two hours after `start` is moved to two hours after it.
    public init(seed: UInt64, charges: Int, start: Date, end: Date) {
        let startSeconds = Int64(start.timeIntervalSince1970.rounded(.down))
        let endSeconds = max(Int64(end.timeIntervalSince1970.rounded(.down)), startSeconds + 7_200)
        storage = WorldBuilder(seed: seed, chargeCount: max(charges, 0), start: startSeconds, end: endSeconds)
            .build()
    }

    public var seed: UInt64 { storage.seed }
    /// The first instant of the world.
    public var start: Date { Date(timeIntervalSince1970: TimeInterval(storage.start)) }
    /// The end of the world (exclusive): every object was created before it; it is the world's "now".
    public var end: Date { Date(timeIntervalSince1970: TimeInterval(storage.end)) }

    /// Number of objects per list endpoint resource, plus the nested kinds.
    public var counts: [String: Int] {
        [
            "charges": storage.charges.count, "payment_intents": storage.charges.count,
            "transfers": storage.transfers.count, "transfer_reversals": storage.reversals.count,
            "application_fees": storage.fees.count, "fee_refunds": storage.feeRefunds.count,
            "refunds": storage.refunds.count, "disputes": storage.disputes.count,
            "balance_transactions": storage.balanceTransactions.count, "payouts": storage.payouts.count,
        ]
    }

    /// All objects, every kind counted once.
    public var objectCount: Int { counts.values.reduce(0, +) }

    /// The ids of the objects that show `scenario`, oldest first (charge ids; transfer ids for
    /// ``SandboxScenario/separateTransfer``; payout ids for ``SandboxScenario/payoutFailed`` and
    /// ``SandboxScenario/payoutMismatch``).
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
