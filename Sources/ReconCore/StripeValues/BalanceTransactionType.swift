/// A balance transaction's `type`
/// (https://docs.stripe.com/api/balance_transactions/object#balance_transaction_object-type; meanings at
/// https://docs.stripe.com/reports/balance-transaction-types). Open: Stripe has added fifteen values and removed
/// four since 2023, and a value it adds tomorrow still decodes.
///
/// For accounting, group by ``ReportingCategory`` instead: that is what Stripe recommends.
public struct BalanceTransactionType: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// An adjustment, for example a dispute withdrawal or reinstatement (see `reporting_category`).
    public static let adjustment = BalanceTransactionType(rawValue: "adjustment")
    /// Capital advance.
    public static let advance = BalanceTransactionType(rawValue: "advance")
    /// Funding of a Capital advance.
    public static let advanceFunding = BalanceTransactionType(rawValue: "advance_funding")
    /// Repayment of an anticipated payment.
    public static let anticipationRepayment = BalanceTransactionType(rawValue: "anticipation_repayment")
    /// An application fee collected by the platform (`fee_…` source).
    public static let applicationFee = BalanceTransactionType(rawValue: "application_fee")
    /// A refund of an application fee (`fr_…` source).
    public static let applicationFeeRefund = BalanceTransactionType(rawValue: "application_fee_refund")
    /// A card charge (`ch_…` source).
    public static let charge = BalanceTransactionType(rawValue: "charge")
    /// A Stripe Climate order.
    public static let climateOrderPurchase = BalanceTransactionType(rawValue: "climate_order_purchase")
    /// A refunded Stripe Climate order.
    public static let climateOrderRefund = BalanceTransactionType(rawValue: "climate_order_refund")
    /// Funds collected from a connected account with a negative balance.
    public static let connectCollectionTransfer = BalanceTransactionType(rawValue: "connect_collection_transfer")
    /// A contribution (Stripe Climate).
    public static let contribution = BalanceTransactionType(rawValue: "contribution")
    public static let feeCreditFunding = BalanceTransactionType(rawValue: "fee_credit_funding")
    public static let inboundTransfer = BalanceTransactionType(rawValue: "inbound_transfer")
    /// A reversed inbound transfer.
    public static let inboundTransferReversal = BalanceTransactionType(rawValue: "inbound_transfer_reversal")
    /// Issuing: funds held for an authorization.
    public static let issuingAuthorizationHold = BalanceTransactionType(rawValue: "issuing_authorization_hold")
    /// Issuing: an authorization hold released.
    public static let issuingAuthorizationRelease = BalanceTransactionType(rawValue: "issuing_authorization_release")
    public static let issuingDispute = BalanceTransactionType(rawValue: "issuing_dispute")
    public static let issuingTransaction = BalanceTransactionType(rawValue: "issuing_transaction")
    public static let obligationOutbound = BalanceTransactionType(rawValue: "obligation_outbound")
    public static let obligationReversalInbound = BalanceTransactionType(rawValue: "obligation_reversal_inbound")
    /// A payment with a non-card payment method (`py_…` or `ch_…` source).
    public static let payment = BalanceTransactionType(rawValue: "payment")
    /// A delayed payment method failed after it was credited.
    public static let paymentFailureRefund = BalanceTransactionType(rawValue: "payment_failure_refund")
    /// Funds held in reserve by the payment network.
    public static let paymentNetworkReserveHold = BalanceTransactionType(rawValue: "payment_network_reserve_hold")
    /// Funds released from the payment network's reserve.
    public static let paymentNetworkReserveRelease = BalanceTransactionType(rawValue: "payment_network_reserve_release")
    /// A refund of a non-card payment.
    public static let paymentRefund = BalanceTransactionType(rawValue: "payment_refund")
    /// A payment taken back by the banking partner.
    public static let paymentReversal = BalanceTransactionType(rawValue: "payment_reversal")
    /// Customer funds not yet matched to a payment.
    public static let paymentUnreconciled = BalanceTransactionType(rawValue: "payment_unreconciled")
    /// A payout to a bank account.
    public static let payout = BalanceTransactionType(rawValue: "payout")
    /// A canceled payout.
    public static let payoutCancel = BalanceTransactionType(rawValue: "payout_cancel")
    /// A failed payout.
    public static let payoutFailure = BalanceTransactionType(rawValue: "payout_failure")
    /// Funds held to keep a minimum balance after payouts.
    public static let payoutMinimumBalanceHold = BalanceTransactionType(rawValue: "payout_minimum_balance_hold")
    /// Funds released from the minimum-balance hold.
    public static let payoutMinimumBalanceRelease = BalanceTransactionType(rawValue: "payout_minimum_balance_release")
    /// A card refund (`re_…` source).
    public static let refund = BalanceTransactionType(rawValue: "refund")
    /// A refund that failed and returned to the balance.
    public static let refundFailure = BalanceTransactionType(rawValue: "refund_failure")
    /// Funds placed in a reserve.
    public static let reserveHold = BalanceTransactionType(rawValue: "reserve_hold")
    /// Funds released from a reserve.
    public static let reserveRelease = BalanceTransactionType(rawValue: "reserve_release")
    /// Connect: funds reserved to cover a connected account's negative balance.
    public static let reserveTransaction = BalanceTransactionType(rawValue: "reserve_transaction")
    /// Funds Stripe reserved for risk.
    public static let reservedFunds = BalanceTransactionType(rawValue: "reserved_funds")
    /// A payment to Stripe debited from the balance.
    public static let stripeBalancePaymentDebit = BalanceTransactionType(rawValue: "stripe_balance_payment_debit")
    /// A reversed payment to Stripe.
    public static let stripeBalancePaymentDebitReversal = BalanceTransactionType(
        rawValue: "stripe_balance_payment_debit_reversal")
    /// A Stripe fee billed from the balance (for example Connect or Radar fees).
    public static let stripeFee = BalanceTransactionType(rawValue: "stripe_fee")
    /// Network costs Stripe bills a platform on IC+ pricing, up to two months after the day they name. Present in data
    /// but absent from the published enum, so not among ``knownValues``.
    public static let networkCost = BalanceTransactionType(rawValue: "network_cost")
    /// Stripe's currency conversion fee.
    public static let stripeFxFee = BalanceTransactionType(rawValue: "stripe_fx_fee")
    /// Tax on Stripe fees.
    public static let taxFee = BalanceTransactionType(rawValue: "tax_fee")
    public static let taxFund = BalanceTransactionType(rawValue: "tax_fund")
    /// A top-up of the balance.
    public static let topup = BalanceTransactionType(rawValue: "topup")
    /// A reversed top-up.
    public static let topupReversal = BalanceTransactionType(rawValue: "topup_reversal")
    /// A transfer to a connected account (`tr_…` source).
    public static let transfer = BalanceTransactionType(rawValue: "transfer")
    /// A canceled transfer.
    public static let transferCancel = BalanceTransactionType(rawValue: "transfer_cancel")
    /// A failed transfer.
    public static let transferFailure = BalanceTransactionType(rawValue: "transfer_failure")
    /// A transfer reversal: funds pulled back from a connected account (`trr_…` source).
    public static let transferRefund = BalanceTransactionType(rawValue: "transfer_refund")

    /// The 50 values of API version 2026-07-29.dahlia.
    public static let knownValues: [BalanceTransactionType] = [
        adjustment, advance, advanceFunding, anticipationRepayment, applicationFee, applicationFeeRefund, charge,
        climateOrderPurchase, climateOrderRefund, connectCollectionTransfer, contribution, feeCreditFunding,
        inboundTransfer, inboundTransferReversal, issuingAuthorizationHold, issuingAuthorizationRelease,
        issuingDispute, issuingTransaction, obligationOutbound, obligationReversalInbound, payment,
        paymentFailureRefund, paymentNetworkReserveHold, paymentNetworkReserveRelease, paymentRefund, paymentReversal,
        paymentUnreconciled, payout, payoutCancel, payoutFailure, payoutMinimumBalanceHold,
        payoutMinimumBalanceRelease, refund, refundFailure, reserveHold, reserveRelease, reserveTransaction,
        reservedFunds, stripeBalancePaymentDebit, stripeBalancePaymentDebitReversal, stripeFee, stripeFxFee, taxFee,
        taxFund, topup, topupReversal, transfer, transferCancel, transferFailure, transferRefund,
    ]
}
