/// A link of an account debit that names nothing the history holds (docs/RULES.md, "The platform's other money"): no
/// charge, PaymentIntent, refund, dispute or transfer group of that id. The debit recovers nothing by it; the Run
/// sheet says so.
public struct UnmatchedDebitLink: Sendable, Hashable {
    /// The debit (`py_…`).
    public var debitID: String
    /// What it names.
    public var link: String

    public init(debitID: String, link: String) {
        self.debitID = debitID
        self.link = link
    }
}
