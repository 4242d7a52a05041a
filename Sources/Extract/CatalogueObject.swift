import History
import ReconCore
import StripeAPI

/// The wire model of a catalogued kind (``ObjectKind/entry``): how an object decoded from Stripe's JSON becomes
/// the facts the history stores (`FactsMapping.swift`), stored in a batch as `batch[stored: Facts.self]`.
protocol CatalogueObject: StripeObject {
    associatedtype Facts: ObjectFacts
    /// When Stripe created the object: the order of its list.
    var created: Int64 { get }
    /// The facts the history stores and the rules read.
    var facts: Facts { get }
}

extension ObjectKind {
    /// The kind's wire model: the one place a kind meets its Swift type (registered in `FactsMapping.swift`).
    var wireModel: any CatalogueObject.Type {
        guard let model = Self.wireModels[self] else {
            preconditionFailure("no wire model is registered for \(self) in FactsMapping.swift")
        }
        return model
    }

    private static let wireModels = Dictionary(
        uniqueKeysWithValues: catalogueObjects.map { model in (model.kind, model) })

    /// The kind whose wire model Stripe names `objectType` in the `object` member (`"transfer_reversal"`); `nil`
    /// for an object the history does not keep.
    init?(objectType: String) {
        guard let kind = Self.kindsByObjectType[objectType] else { return nil }
        self = kind
    }

    private static let kindsByObjectType = Dictionary(
        uniqueKeysWithValues: catalogueObjects.map { model in (model.objectType, model.kind) })
}

extension CatalogueObject {
    /// The catalogued kind of the model.
    static var kind: ObjectKind { Facts.kind }
}
