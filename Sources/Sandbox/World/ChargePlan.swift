import ReconCore

/// What the generator means to create for one charge. Most plans are drawn at random; a fixed list of plans
/// (``ChargePlan/guaranteed()``) puts every SPEC §4 situation in any world of a few hundred charges.
struct ChargePlan {
    enum Outcome { case succeeded, pending, failed }
    enum Anomaly {
        case none, feeMissing, feeMismatch, transferAmountMismatch, transferCurrencyMismatch
        case transferDestinationMismatch, sourceNotDestination, missingChargeBT, missingTransferBT, missingFeeBT
    }
    enum Recovery { case none, full, partial }

    struct Refund {
        /// Share of the charge amount in per mille; 1000 refunds whatever is left.
        var perMille: Int64
        var reverseTransfer: Bool
        var refundApplicationFee: Bool
        /// Seconds after the charge settled (or after the previous refund).
        var delay: ClosedRange<Int64> = 600...(5 * 86_400)
        /// Seconds from a refund that left the application fee alone to the platform refunding the fee's share
        /// separately (`POST /v1/application_fees/{id}/refunds`); `nil` when it never does.
        var feeRefundDelay: ClosedRange<Int64>?
    }

    struct Dispute {
        var status: WorldDisputeStatus
        var recovery: Recovery = .none
        var repaid: Bool = false
        /// Seconds from the charge (or its last refund, or the previous dispute) to the dispute.
        var delay: ClosedRange<Int64> = 43_200...(8 * 86_400)
        /// Seconds from a won dispute to the reinstatement of its funds.
        var decision: ClosedRange<Int64> = (3 * 86_400)...(10 * 86_400)
        /// Seconds from the dispute to the transfer reversal that recovers its funds from the connected account.
        var recoveryDelay: ClosedRange<Int64> = 3_600...(2 * 86_400)
    }

    var method = PaymentMethodKind.card
    var outcome = Outcome.succeeded
    /// How the destination charge pays the platform; `nil` for a plain charge (no destination).
    var style: FeeStyle?
    var skipped = false
    var currency: WorldCurrency?
    var amount: Int64?
    /// The application fee (application-fee style) or the retained part (transfer-amount style).
    var retained: Int64?
    var refunds: [Refund] = []
    var disputes: [Dispute] = []
    var anomaly = Anomaly.none
    var tags: [SandboxScenario] = []
}
