import ReconCore

/// The kinds of object whose outcome arrives after the night they were created (docs/EXTRACTION.md, "Late outcomes"),
/// with the one SQL definition of each kind's state: which objects of the look-back window are not final, and the state
/// a read compares (`late_reads.state_before` against the state the history holds after the read). The statuses
/// come from ``LateOutcomePolicy``, so the rules' statuses and these queries cannot disagree.
public enum LateOutcomeKind: String, CaseIterable, Sendable {
    case charge
    case refund
    case dispute
    case payout

    /// The object kind (`late_reads.kind` is its raw value).
    public var objectKind: ObjectKind {
        switch self {
        case .charge: .charge
        case .refund: .refund
        case .dispute: .dispute
        case .payout: .payout
        }
    }

    var table: String { objectKind.entry.table }

    /// Whether the charge `t` succeeded with a part the rules read still missing: its balance transaction, the
    /// transfer a destination charge asked for, or the application fee it asked for (Stripe attaches them later
    /// under asynchronous capture). The SQL of ``ChargeFacts/lacksAPartToCome(intent:)``, held to it by
    /// `LateOutcomeDefinitionTests` on both databases.
    private static let chargePartMissing: String = {
        let (transfer, fee) = (GraphColumns.chargeTransfer, GraphColumns.chargeFee)
        return """
            (t.balance_transaction_id IS NULL
             OR (t.\(transfer) IS NULL AND (t.transfer_destination IS NOT NULL
                 OR EXISTS (SELECT 1 FROM payment_intents p WHERE p.id = t.payment_intent_id
                            AND p.transfer_destination IS NOT NULL)))
             OR (t.application_fee_amount IS NOT NULL AND t.\(fee) IS NULL))
            """
    }()

    /// Whether the object `t` was younger than the grace period (the `?` parameter) when the run that last read it
    /// started.
    static let youngAtLastRead =
        "t.created > COALESCE((SELECT r.started_at FROM runs r WHERE r.id = t.last_seen_run), 0) - CAST(? AS BIGINT)"

    /// The condition (on the kind's table as `t`) of an object that is not final. `?` parameters, in order:
    /// the grace period of asynchronous capture (charges); the run's "now" (payouts).
    var notFinal: String {
        switch self {
        case .charge:
            """
            (t.status NOT IN \(SQLList.of(LateOutcomePolicy.finalChargeStatuses.map(\.rawValue)))
             OR (t.status = 'succeeded' AND \(Self.chargePartMissing) AND \(Self.youngAtLastRead)))
            """
        case .refund:
            "COALESCE(t.status, 'succeeded') NOT IN \(SQLList.of(LateOutcomePolicy.finalRefundStatuses.map(\.rawValue)))"
        case .dispute:
            "t.status NOT IN \(SQLList.of(LateOutcomePolicy.finalDisputeStatuses.map(\.rawValue)))"
        case .payout:
            """
            t.automatic AND (t.status NOT IN \(SQLList.of(LateOutcomePolicy.finalPayoutStatuses.map(\.rawValue)))
             OR COALESCE(t.reconciliation_status, 'completed') <> 'completed'
             OR (t.status = 'paid' AND t.arrival_date > CAST(? AS BIGINT) - \(LateOutcomePolicy.paidPayoutFailureWindow)))
            """
        }
    }

    /// The parameters of ``notFinal``.
    func notFinalArguments(now: Int64, grace: Int64) -> [SQLValue] {
        switch self {
        case .charge: [.integer(grace)]
        case .payout: [.integer(now)]
        case .refund, .dispute: []
        }
    }

    /// The state a read compares (on the kind's table as `t`), as text. A charge that succeeded with a part missing
    /// while it was young (`young`, a condition on `t` with one `?` parameter) is `succeeded|young`: once the grace
    /// period is over, or the part came, its state changed, since the rules now judge it as they could not before.
    func state(youngWhen young: String) -> String {
        switch self {
        case .charge:
            "t.status || CASE WHEN t.status = 'succeeded' AND \(Self.chargePartMissing) AND \(young) "
                + "THEN '|young' ELSE '' END"
        case .refund: "COALESCE(t.status, '')"
        case .dispute: "t.status"
        case .payout: "t.status || '|' || COALESCE(t.reconciliation_status, 'completed')"
        }
    }

    /// The parameters of ``state(youngWhen:)``: the young condition's one parameter (charges only).
    func stateArguments(young: SQLValue) -> [SQLValue] {
        self == .charge ? [young] : []
    }
}
