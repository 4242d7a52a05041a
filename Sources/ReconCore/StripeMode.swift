/// Whether Stripe data is test-mode or live-mode data: the mode of an API key, of the objects a history holds, and
/// of a report. Stripe keeps the two apart, and so does connect-recon: a history holds one mode only.
/// See https://docs.stripe.com/keys#test-live-modes.
public enum StripeMode: String, Sendable, Hashable, CaseIterable, Codable {
    case test
    case live
}
