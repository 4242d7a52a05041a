/// How a destination charge pays the platform (docs/RULES.md).
public enum FeeStyle: String, Sendable, Codable, CaseIterable {
    /// `application_fee_amount`: the full amount is transferred, an ApplicationFee moves the fee back.
    case applicationFee = "application_fee"
    /// `transfer_data[amount]`: only that amount is transferred; the rest is the Destination Platform Fee.
    case transferAmount = "transfer_amount"
    /// Neither: the full amount is transferred and the platform keeps nothing.
    case fullTransfer = "full_transfer"
}

/// Whether a finding is new in this run or was already reported by an earlier run.
public enum FindingStatus: String, Sendable, Codable {
    case new
    case open
}
