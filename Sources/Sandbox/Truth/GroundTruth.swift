import Foundation
import ReconCore

/// What SPEC §4 and §5 say each report must contain for a range of the world, computed from what the generator
/// meant to create (its tables), never by reading back the JSON it serves. Amounts are minor units; rows are
/// sorted by id; `created` values are Unix seconds.
public struct GroundTruth: Codable, Sendable, Equatable {
    /// The range `[from, to)` in Unix seconds, the moment the reconciliation runs, and the skipped-transfer grace.
    public var from: Int64
    public var to: Int64
    public var asOf: Int64
    public var skippedTransferGrace: Int64
    public var platformFees: [PlatformFee]
    public var skippedTransfers: [SkippedTransfer]
    public var unreversedDisputes: [UnreversedDispute]
    public var exceptions: [Exception]
    public var ledger: [LedgerRow]
    public var summary: [SummaryRow]
    /// One statement per destination account and currency (`connected_accounts.csv`), sorted by account, then
    /// currency.
    public var connectedAccounts: [ConnectedAccount] = []
    /// The automatic payouts created in the range (`payouts.csv`), sorted by id.
    public var payouts: [Payout] = []
    /// The balance transactions those payouts paid out (`payout_transactions.csv`), sorted by payout, then
    /// balance transaction id.
    public var payoutTransactions: [PayoutTransaction] = []

    enum CodingKeys: String, CodingKey {
        case from, to
        case asOf = "as_of"
        case skippedTransferGrace = "skipped_transfer_grace"
        case platformFees = "platform_fees"
        case skippedTransfers = "skipped_transfers"
        case unreversedDisputes = "unreversed_disputes"
        case exceptions, ledger, summary
        case connectedAccounts = "connected_accounts"
        case payouts
        case payoutTransactions = "payout_transactions"
    }

    /// One destination charge created in the range (`platform_fees.csv`).
    public struct PlatformFee: Codable, Sendable, Equatable {
        public var chargeID: String
        public var created: Int64
        public var currency: Currency
        public var amount: Int64
        public var amountRefunded: Int64
        public var destinationAccount: String?
        /// `application_fee`, `transfer_amount` or `full_transfer`.
        public var feeStyle: String
        public var transferID: String?
        public var transferAmount: Int64
        public var transferReversed: Int64
        public var applicationFeeID: String?
        public var applicationFeeAmount: Int64
        public var applicationFeeRefunded: Int64
        public var destinationPlatformFee: Int64
        /// In `settlementCurrency`.
        public var stripeFee: Int64
        public var settlementCurrency: Currency
        /// In `settlementCurrency`.
        public var platformNet: Int64

        enum CodingKeys: String, CodingKey {
            case chargeID = "charge_id"
            case created, currency, amount
            case amountRefunded = "amount_refunded"
            case destinationAccount = "destination_account"
            case feeStyle = "fee_style"
            case transferID = "transfer_id"
            case transferAmount = "transfer_amount"
            case transferReversed = "transfer_reversed"
            case applicationFeeID = "application_fee_id"
            case applicationFeeAmount = "application_fee_amount"
            case applicationFeeRefunded = "application_fee_refunded"
            case destinationPlatformFee = "destination_platform_fee"
            case stripeFee = "stripe_fee"
            case settlementCurrency = "settlement_currency"
            case platformNet = "platform_net"
        }
    }

    /// A skipped transfer (`skipped_transfers.csv`).
    public struct SkippedTransfer: Codable, Sendable, Equatable {
        public var chargeID: String
        public var created: Int64
        public var currency: Currency
        public var amount: Int64
        public var intendedDestination: String
        public var paymentIntentID: String
        public var amountOwed: Int64

        enum CodingKeys: String, CodingKey {
            case chargeID = "charge_id"
            case created, currency, amount
            case intendedDestination = "intended_destination"
            case paymentIntentID = "payment_intent_id"
            case amountOwed = "amount_owed"
        }
    }

    /// An unreversed dispute (`unreversed_disputes.csv`), amounts in the dispute's currency.
    public struct UnreversedDispute: Codable, Sendable, Equatable {
        public var disputeID: String
        public var chargeID: String
        public var created: Int64
        public var currency: Currency
        public var disputeAmount: Int64
        public var disputeStatus: String
        public var destinationAccount: String?
        public var transferID: String?
        public var recoverable: Int64
        public var recovered: Int64
        public var unrecovered: Int64

        enum CodingKeys: String, CodingKey {
            case disputeID = "dispute_id"
            case chargeID = "charge_id"
            case created, currency
            case disputeAmount = "dispute_amount"
            case disputeStatus = "dispute_status"
            case destinationAccount = "destination_account"
            case transferID = "transfer_id"
            case recoverable, recovered, unrecovered
        }
    }

    /// The exception kinds, spelled as the reports spell them.
    public enum ExceptionKind: String, Codable, Sendable, CaseIterable, Comparable {
        case applicationFeeMissing = "application_fee_missing"
        case applicationFeeAmountMismatch = "application_fee_amount_mismatch"
        case transferAmountMismatch = "transfer_amount_mismatch"
        case transferCurrencyMismatch = "transfer_currency_mismatch"
        case transferDestinationMismatch = "transfer_destination_mismatch"
        case transferSourceNotDestinationCharge = "transfer_source_not_destination_charge"
        case missingBalanceTransaction = "missing_balance_transaction"
        case refundWithoutTransferReversal = "refund_without_transfer_reversal"
        case wonDisputeNotRepaid = "won_dispute_not_repaid"
        case payoutMismatch = "payout_mismatch"
        case payoutFailed = "payout_failed"

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// An expected or actual value of an exception: an amount (minor units) or a text such as a currency or an
    /// account id. Encoded as a JSON number or string.
    public enum Value: Codable, Sendable, Equatable {
        case amount(Int64)
        case text(String)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let amount = try? container.decode(Int64.self) {
                self = .amount(amount)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .amount(let amount): try container.encode(amount)
            case .text(let text): try container.encode(text)
            }
        }
    }

    /// One exception (`exceptions.csv`). See ``SandboxWorld/groundTruth(for:asOf:skippedTransferGrace:)`` for
    /// what each kind names as object, related object, expected and actual.
    public struct Exception: Codable, Sendable, Equatable {
        public var kind: ExceptionKind
        public var objectID: String
        public var relatedID: String?
        public var currency: Currency
        public var expected: Value?
        public var actual: Value?

        enum CodingKeys: String, CodingKey {
            case kind
            case objectID = "object_id"
            case relatedID = "related_id"
            case currency, expected, actual
        }
    }

    /// Balance transactions created in the range, per currency and reporting category (`ledger.csv`).
    public struct LedgerRow: Codable, Sendable, Equatable {
        public var currency: Currency
        public var reportingCategory: String
        public var count: Int
        public var gross: Int64
        public var fee: Int64
        public var net: Int64

        enum CodingKeys: String, CodingKey {
            case currency
            case reportingCategory = "reporting_category"
            case count, gross, fee, net
        }
    }

    /// Totals per currency (`summary.csv`). Charge figures count in the charge's currency, `stripeFee` in the
    /// settlement currency (so no row ever adds two currencies), dispute figures in the dispute's currency.
    public struct SummaryRow: Codable, Sendable, Equatable {
        public var currency: Currency
        public var destinationCharges: Int
        public var gross: Int64
        public var refunded: Int64
        public var destinationPlatformFee: Int64
        public var stripeFee: Int64
        public var skippedTransfers: Int
        public var amountOwed: Int64
        public var unreversedDisputes: Int
        public var unrecovered: Int64

        init(currency: Currency) {
            self.currency = currency
            destinationCharges = 0
            gross = 0
            refunded = 0
            destinationPlatformFee = 0
            stripeFee = 0
            skippedTransfers = 0
            amountOwed = 0
            unreversedDisputes = 0
            unrecovered = 0
        }

        enum CodingKeys: String, CodingKey {
            case currency
            case destinationCharges = "destination_charges"
            case gross, refunded
            case destinationPlatformFee = "destination_platform_fee"
            case stripeFee = "stripe_fee"
            case skippedTransfers = "skipped_transfers"
            case amountOwed = "amount_owed"
            case unreversedDisputes = "unreversed_disputes"
            case unrecovered
        }
    }

    /// What one connected account got and owes in one currency (`connected_accounts.csv`): the sums of the
    /// range's destination charges to it (`transferred`: their transfers' amounts, `reversed`: what was reversed
    /// of them, `applicationFees`: fee amounts less fee refunds), its skipped transfers (by intended
    /// destination) and its unreversed disputes (by the transfer's destination).
    public struct ConnectedAccount: Codable, Sendable, Equatable {
        public var destinationAccount: String?
        public var currency: Currency
        public var destinationCharges = 0
        public var gross: Int64 = 0
        public var refunded: Int64 = 0
        public var transferred: Int64 = 0
        public var reversed: Int64 = 0
        public var applicationFees: Int64 = 0
        public var destinationPlatformFee: Int64 = 0
        public var skippedTransfers = 0
        public var amountOwed: Int64 = 0
        public var unreversedDisputes = 0
        public var unrecovered: Int64 = 0

        init(destinationAccount: String?, currency: Currency) {
            self.destinationAccount = destinationAccount
            self.currency = currency
        }

        enum CodingKeys: String, CodingKey {
            case destinationAccount = "destination_account"
            case currency
            case destinationCharges = "destination_charges"
            case gross, refunded, transferred, reversed
            case applicationFees = "application_fees"
            case destinationPlatformFee = "destination_platform_fee"
            case skippedTransfers = "skipped_transfers"
            case amountOwed = "amount_owed"
            case unreversedDisputes = "unreversed_disputes"
            case unrecovered
        }
    }

    /// An automatic payout created in the range (`payouts.csv`): `balanceTransactions` and `netOfTransactions`
    /// count what it paid out, without its own balance transaction; `difference = amount − netOfTransactions`.
    public struct Payout: Codable, Sendable, Equatable {
        public var payoutID: String
        public var created: Int64
        public var arrivalDate: Int64
        public var currency: Currency
        public var amount: Int64
        public var status: String
        public var balanceTransactions: Int
        public var netOfTransactions: Int64
        public var difference: Int64

        enum CodingKeys: String, CodingKey {
            case payoutID = "payout_id"
            case created
            case arrivalDate = "arrival_date"
            case currency, amount, status
            case balanceTransactions = "balance_transactions"
            case netOfTransactions = "net_of_transactions"
            case difference
        }
    }

    /// A balance transaction paid out by one of the range's payouts (`payout_transactions.csv`).
    public struct PayoutTransaction: Codable, Sendable, Equatable {
        public var payoutID: String
        public var balanceTransactionID: String
        public var created: Int64
        public var availableOn: Int64
        public var currency: Currency
        public var gross: Int64
        public var fee: Int64
        public var net: Int64
        public var reportingCategory: String
        public var sourceID: String?

        enum CodingKeys: String, CodingKey {
            case payoutID = "payout_id"
            case balanceTransactionID = "balance_transaction_id"
            case created
            case availableOn = "available_on"
            case currency, gross, fee, net
            case reportingCategory = "reporting_category"
            case sourceID = "source_id"
        }
    }

    // MARK: JSON

    /// The ground truth as JSON: sorted keys, rows in their stable order, pretty-printed.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes ``jsonData()`` to `url` atomically.
    public func write(to url: URL) throws {
        try jsonData().write(to: url, options: .atomic)
    }

    /// Reads a ground truth written by ``write(to:)``.
    public static func read(from data: Data) throws -> GroundTruth {
        try JSONDecoder().decode(GroundTruth.self, from: data)
    }
}
