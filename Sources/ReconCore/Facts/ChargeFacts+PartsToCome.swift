extension ChargeFacts {
    /// Whether the charge lacks a part the rules read that Stripe attaches after the charge succeeded (asynchronous
    /// capture): its balance transaction, the transfer a destination charge asked for (by its own
    /// `transfer_data.destination` or its PaymentIntent's), or the application fee it asked for. While such a charge is
    /// younger than the grace period the rules wait for the part (docs/RULES.md), and the look-back reads it again
    /// (docs/EXTRACTION.md). `LateOutcomeKind` writes the same condition in SQL; `LateOutcomeDefinitionTests` holds the
    /// two to the same answers.
    public func lacksAPartToCome(intent: PaymentIntentFacts?) -> Bool {
        balanceTransactionID == nil
            || (transferID == nil && (destinationAccountID != nil || intent?.destinationAccountID != nil))
            || (applicationFeeAmount != nil && applicationFeeID == nil)
    }
}
