import ReconCore

/// A reversal (`trr_…`) of a transfer, pulling funds back from the connected account to the platform:
/// https://docs.stripe.com/api/transfer_reversals/object.
///
/// A refund with `reverse_transfer` creates one linked through ``sourceRefund``; a reversal the platform made
/// itself (for example to recover a dispute) has no ``sourceRefund``.
public struct TransferReversal: StripeObject {
    /// `"transfer_reversal"`.
    public static let objectType = "transfer_reversal"

    /// The `object` member, checked against ``objectType`` before any other member is read.
    private let object: ObjectTypeCheck<TransferReversal>
    /// The reversal's id.
    public let id: String
    /// The amount reversed, in minor units of ``currency``.
    public let amount: Int64
    /// The reversal's balance transaction on the platform.
    public let balanceTransaction: ExpandableID?
    /// When the reversal was created, in Unix seconds.
    public let created: Int64
    /// The reversal's currency.
    public let currency: Currency
    /// The refund (`pyr_…`) the reversal created on the connected account's payment.
    public let destinationPaymentRefund: ExpandableID?
    /// The platform's key-value metadata (for example `dispute_id` on a recovery); empty when Stripe sent none
    /// or `null`.
    @StripeMetadata public var metadata: [String: String]
    /// The refund that caused the reversal, if any.
    public let sourceRefund: ExpandableID?
    /// The transfer that was reversed.
    public let transfer: ExpandableID

    // MARK: Reconciliation

    /// Whether a refund caused this reversal (`source_refund != null`). docs/RULES.md counts only reversals *not*
    /// linked to a refund as dispute recoveries.
    public var isLinkedToRefund: Bool { sourceRefund != nil }

    private enum CodingKeys: String, CodingKey {
        case object
        case id
        case amount
        case balanceTransaction = "balance_transaction"
        case created
        case currency
        case destinationPaymentRefund = "destination_payment_refund"
        case metadata
        case sourceRefund = "source_refund"
        case transfer
    }
}
