/// A balance transaction's `reporting_category`: Stripe's accounting grouping, which it recommends over `type`
/// (https://docs.stripe.com/reports/reporting-categories).
///
/// Stripe's API description types it as a plain string, not an enum, so this set is open: the known values are
/// the docs page's, plus two seen in real data.
public struct ReportingCategory: StripeEnum {
    /// The raw string, as Stripe writes it.
    public let rawValue: String

    /// Wraps any string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    // MARK: Known values

    /// Capital advances.
    public static let advance = ReportingCategory(rawValue: "advance")
    /// Funding of Capital advances.
    public static let advanceFunding = ReportingCategory(rawValue: "advance_funding")
    /// Repayments of anticipated payments.
    public static let anticipationRepayment = ReportingCategory(rawValue: "anticipation_repayment")
    /// Charges and payments (types `charge`, `payment`).
    public static let charge = ReportingCategory(rawValue: "charge")
    /// Delayed payments that failed (type `payment_failure_refund`).
    public static let chargeFailure = ReportingCategory(rawValue: "charge_failure")
    /// Stripe Climate orders.
    public static let climateOrderPurchase = ReportingCategory(rawValue: "climate_order_purchase")
    /// Refunded Stripe Climate orders.
    public static let climateOrderRefund = ReportingCategory(rawValue: "climate_order_refund")
    /// Funds collected from connected accounts with negative balances.
    public static let connectCollectionTransfer = ReportingCategory(rawValue: "connect_collection_transfer")
    /// Funds reserved for connected accounts' negative balances (type `reserve_transaction`).
    public static let connectReservedFunds = ReportingCategory(rawValue: "connect_reserved_funds")
    public static let contribution = ReportingCategory(rawValue: "contribution")
    /// Funds withdrawn for a dispute, with the dispute fee (type `adjustment`).
    public static let dispute = ReportingCategory(rawValue: "dispute")
    /// Funds returned after a won dispute (type `adjustment`).
    public static let disputeReversal = ReportingCategory(rawValue: "dispute_reversal")
    /// Stripe fees billed from the balance (type `stripe_fee`).
    public static let fee = ReportingCategory(rawValue: "fee")
    public static let issuingAuthorizationHold = ReportingCategory(rawValue: "issuing_authorization_hold")
    /// Issuing hold releases.
    public static let issuingAuthorizationRelease = ReportingCategory(rawValue: "issuing_authorization_release")
    public static let issuingDisbursement = ReportingCategory(rawValue: "issuing_disbursement")
    public static let issuingDispute = ReportingCategory(rawValue: "issuing_dispute")
    public static let issuingDisputeFraudLiabilityDebit = ReportingCategory(
        rawValue: "issuing_dispute_fraud_liability_debit")
    public static let issuingDisputeProvisionalCredit = ReportingCategory(
        rawValue: "issuing_dispute_provisional_credit")
    /// Reversed Issuing dispute provisional credits.
    public static let issuingDisputeProvisionalCreditReversal = ReportingCategory(
        rawValue: "issuing_dispute_provisional_credit_reversal")
    public static let issuingTransaction = ReportingCategory(rawValue: "issuing_transaction")
    /// Card network costs passed through (seen in real data; not on the docs page).
    public static let networkCost = ReportingCategory(rawValue: "network_cost")
    public static let otherAdjustment = ReportingCategory(rawValue: "other_adjustment")
    /// The uncaptured remainder of a partially captured charge (type `refund`).
    public static let partialCaptureReversal = ReportingCategory(rawValue: "partial_capture_reversal")
    public static let paymentNetworkReserveHold = ReportingCategory(rawValue: "payment_network_reserve_hold")
    public static let paymentNetworkReserveRelease = ReportingCategory(rawValue: "payment_network_reserve_release")
    public static let payout = ReportingCategory(rawValue: "payout")
    public static let payoutMinimumBalanceHold = ReportingCategory(rawValue: "payout_minimum_balance_hold")
    public static let payoutMinimumBalanceRelease = ReportingCategory(rawValue: "payout_minimum_balance_release")
    /// Canceled or failed payouts.
    public static let payoutReversal = ReportingCategory(rawValue: "payout_reversal")
    /// Application fees the platform collected (type `application_fee`).
    public static let platformEarning = ReportingCategory(rawValue: "platform_earning")
    /// Refunded application fees (type `application_fee_refund`).
    public static let platformEarningRefund = ReportingCategory(rawValue: "platform_earning_refund")
    /// Refunds (types `refund`, `payment_refund`).
    public static let refund = ReportingCategory(rawValue: "refund")
    /// Failed refunds.
    public static let refundFailure = ReportingCategory(rawValue: "refund_failure")
    /// Revenue shares (seen in real data; not on the docs page).
    public static let revenueShare = ReportingCategory(rawValue: "revenue_share")
    /// Funds reserved for risk (type `reserved_funds`).
    public static let riskReservedFunds = ReportingCategory(rawValue: "risk_reserved_funds")
    /// Tax on Stripe fees.
    public static let tax = ReportingCategory(rawValue: "tax")
    /// Top-ups.
    public static let topup = ReportingCategory(rawValue: "topup")
    /// Reversed top-ups.
    public static let topupReversal = ReportingCategory(rawValue: "topup_reversal")
    /// Transfers to connected accounts.
    public static let transfer = ReportingCategory(rawValue: "transfer")
    /// Transfer reversals, cancellations and failures (types `transfer_refund`, `transfer_cancel`,
    /// `transfer_failure`).
    public static let transferReversal = ReportingCategory(rawValue: "transfer_reversal")
    /// Customer funds not yet matched to a payment.
    public static let unreconciledCustomerFunds = ReportingCategory(rawValue: "unreconciled_customer_funds")

    /// The values of https://docs.stripe.com/reports/reporting-categories plus `network_cost` and `revenue_share`.
    public static let knownValues: [ReportingCategory] = [
        advance, advanceFunding, anticipationRepayment, charge, chargeFailure, climateOrderPurchase,
        climateOrderRefund, connectCollectionTransfer, connectReservedFunds, contribution, dispute, disputeReversal,
        fee, issuingAuthorizationHold, issuingAuthorizationRelease, issuingDisbursement, issuingDispute,
        issuingDisputeFraudLiabilityDebit, issuingDisputeProvisionalCredit, issuingDisputeProvisionalCreditReversal,
        issuingTransaction, networkCost, otherAdjustment, partialCaptureReversal, paymentNetworkReserveHold,
        paymentNetworkReserveRelease, payout, payoutMinimumBalanceHold, payoutMinimumBalanceRelease, payoutReversal,
        platformEarning, platformEarningRefund, refund, refundFailure, revenueShare, riskReservedFunds, tax, topup,
        topupReversal, transfer, transferReversal, unreconciledCustomerFunds,
    ]
}
