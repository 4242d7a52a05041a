/// One row of `connected_accounts.csv`: what one connected account got, and what it owes, in one currency, from
/// the range's destination charges, skipped transfers and unreversed disputes (docs/REPORTS.md). Amounts are minor
/// units of `currency`.
///
/// Every figure is a sum over the rows of the other reports that name the account, so the statement ties to them:
/// - `destinationCharges`, `gross`, `refunded`, `transferred`, `reversed`, `applicationFees` and
///   `destinationPlatformFee`: the `platform_fees` rows whose `destination_account` is the account (the count of
///   rows; sums of `amount`, `amount_refunded`, `transfer_amount`, `transfer_reversed`, the kept application fee
///   in the charge's currency (`application_fee_amount − application_fee_refunded`, converted at Stripe's rate
///   for a cross-border fee) and `destination_platform_fee`).
/// - `skippedTransfers`, `amountOwed`: the `skipped_transfers` rows whose `intended_destination` is the account.
/// - `unreversedDisputes`, `unrecovered`: the `unreversed_disputes` rows whose `destination_account` is the
///   account (a dispute created in the range may be on a charge of an earlier range).
/// - `accountDebits`: what the platform took back from the account by account debits created in the range
///   (docs/RULES.md, "The platform's other money").
/// - `lossesCovered`: what the platform paid Stripe in the range to cover the account's negative balance
///   (`connect_collection_transfer`).
///
/// Added up over the accounts, each column equals the `summary` row's column of the same name. For a charge
/// captured in full, `destinationPlatformFee = (gross − refunded) − (transferred − reversed) + applicationFees`
/// (docs/RULES.md's DPF, summed).
public struct ConnectedAccountRow: Sendable, Hashable, Codable {
    /// The connected account (`acct_…`); `nil` for destination charges whose account is unknown (their transfer
    /// and PaymentIntent are missing).
    public var destinationAccount: String?
    public var currency: Currency
    /// How many destination charges created in the range went to the account.
    public var destinationCharges: Int
    /// The charges' amounts.
    public var gross: Int64
    /// What was refunded of those charges.
    public var refunded: Int64
    /// What the charges' transfers sent to the account (`transfer_amount`).
    public var transferred: Int64
    /// What was taken back of those transfers (`transfer_reversed`: refunds and dispute recoveries).
    public var reversed: Int64
    /// What the account paid the platform in application fees, net of fee refunds, in the charge's currency.
    public var applicationFees: Int64
    /// What the platform kept of the account's charges (docs/RULES.md).
    public var destinationPlatformFee: Int64
    /// Charges whose transfer to the account Stripe skipped.
    public var skippedTransfers: Int
    /// What the platform still owes the account for them.
    public var amountOwed: Int64
    /// Disputes created in the range whose withdrawn funds the platform has not recovered from the account.
    public var unreversedDisputes: Int
    /// What the account still owes the platform for them.
    public var unrecovered: Int64
    /// What the platform debited from the account (succeeded account debits created in the range, less what was
    /// refunded of them).
    public var accountDebits: Int64
    /// What the platform paid Stripe to cover the account's negative balance (collection transfers created in the
    /// range).
    public var lossesCovered: Int64

    public init(
        destinationAccount: String?, currency: Currency, destinationCharges: Int = 0, gross: Int64 = 0,
        refunded: Int64 = 0, transferred: Int64 = 0, reversed: Int64 = 0, applicationFees: Int64 = 0,
        destinationPlatformFee: Int64 = 0, skippedTransfers: Int = 0, amountOwed: Int64 = 0,
        unreversedDisputes: Int = 0, unrecovered: Int64 = 0, accountDebits: Int64 = 0,
        lossesCovered: Int64 = 0
    ) {
        self.destinationAccount = destinationAccount
        self.currency = currency
        self.destinationCharges = destinationCharges
        self.gross = gross
        self.refunded = refunded
        self.transferred = transferred
        self.reversed = reversed
        self.applicationFees = applicationFees
        self.destinationPlatformFee = destinationPlatformFee
        self.skippedTransfers = skippedTransfers
        self.amountOwed = amountOwed
        self.unreversedDisputes = unreversedDisputes
        self.unrecovered = unrecovered
        self.accountDebits = accountDebits
        self.lossesCovered = lossesCovered
    }

    /// The report's order: by account (unknown last), then currency.
    public static func reportOrder(_ a: Self, _ b: Self) -> Bool {
        switch (a.destinationAccount, b.destinationAccount) {
        case (let x?, let y?) where x != y: x < y
        case (nil, .some): false
        case (.some, nil): true
        default: a.currency < b.currency
        }
    }
}
