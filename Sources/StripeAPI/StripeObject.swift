/// A Stripe API object that connect-recon models: it has an `id` and a fixed `object` name.
///
/// Conforming types decode Stripe's JSON (https://docs.stripe.com/api) with explicit coding keys, ignore
/// fields they do not know, accept optional fields that are missing or `null`, and fail with a
/// `DecodingError` when an identity or money field (`id`, `amount`, `currency`, `created`) is missing or
/// `null`: an object without them cannot be reconciled.
///
/// The models' `Decodable` is synthesized. A model's first stored property, `object: ObjectTypeCheck<Self>`,
/// fails the decoding when the `object` member names another type; its `metadata`, if any, is a
/// ``StripeMetadata``, empty when missing or `null`.
public protocol StripeObject: Decodable, Equatable, Sendable, Identifiable where ID == String {
    /// The value of the object's `object` field, for example `"charge"`.
    static var objectType: String { get }
}
