/// The transfer an account debit was made with, as the debit's expanded `source_transfer` showed it (docs/RULES.md,
/// "The platform's other money"). A platform that debits a connected account with a transfer made on that account
/// (Stripe's "transfer approach") labels the transfer, not the `py_…` Stripe makes on the platform: its `metadata` and
/// `transfer_group` are then the debit's only link to what it recovers. Read once per debit that names nothing itself,
/// by a follow-up; the history keeps it beside the charge's row, never in it.
public struct DebitSourceTransfer: Sendable, Hashable {
    /// The transfer's id; `nil` when the debit had no `source_transfer`.
    public var transferID: String?
    /// The transfer's `metadata`; empty when it had none, or when Stripe sent the transfer as its id alone.
    public var metadata: [String: String]
    /// The transfer's `transfer_group`; `nil` for none.
    public var transferGroup: String?

    public init(transferID: String?, metadata: [String: String] = [:], transferGroup: String? = nil) {
        self.transferID = transferID
        self.metadata = metadata
        self.transferGroup = transferGroup
    }
}
