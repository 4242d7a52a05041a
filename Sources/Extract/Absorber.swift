import Foundation
import History
import ReconCore
import StripeAPI

/// Turns decoded Stripe objects, with their exact JSON, into an ``ObjectLists`` of stored objects — including every object
/// embedded in them, because Stripe embeds it (a transfer's reversals, a fee's refunds, a dispute's balance
/// transactions) or because the request expanded it (a charge's PaymentIntent, transfer and refunds, a refund's
/// charge, a reversal's balance transaction…), each stored under its own id with its own JSON.
///
/// Which members hold which kinds comes from the catalogue (``ObjectKind/entry``): the absorber names none
/// itself. Each object's JSON is stored with its expansions folded back to ids (``ExpansionFolding``), so the same
/// object has the same bytes however it was fetched. An embedded object is decoded from its own JSON, held to
/// the same rules as a listed one: one that lacks a required field fails the page.
enum Absorber {
    /// Absorbs `object`, whose JSON is `json`, and everything embedded in it, decoding embedded objects with
    /// `decoder` (one per page: a decoder is costly to make, and embedded objects are many).
    static func absorb<Object: CatalogueObject>(
        _ object: Object, json: String, into batch: inout ObjectLists, decoder: JSONDecoder = StripeJSON.decoder()
    ) throws(EmbeddedObjectError) {
        let kind = Object.Facts.kind
        batch[stored: Object.Facts.self].append(
            StoredObject(facts: object.facts, rawJSON: ExpansionFolding.of(kind).fold(json)))
        let entry = kind.entry
        let members = entry.storedReferences.map(\.member) + entry.lists.map(\.member) + entry.arrays.map(\.member)
        guard EmbeddedJSON.mayEmbed(members, in: json) else { return }
        let embedded = EmbeddedJSON(json)
        func absorbEach(_ kind: ObjectKind, _ member: String, _ elements: [String]) throws(EmbeddedObjectError) {
            for element in elements {
                try absorb(kind, json: element, member: member, of: object.id, into: &batch, decoder: decoder)
            }
        }
        for (member, memberKind) in entry.storedReferences {
            guard let json = embedded.object(at: member) else { continue }
            try absorb(memberKind, json: json, member: member, of: object.id, into: &batch, decoder: decoder)
        }
        for list in entry.lists {
            try absorbEach(list.kind, list.member, embedded.elements(at: [list.member, "data"]))
        }
        for array in entry.arrays {
            guard let arrayKind = array.kind else { continue }
            try absorbEach(arrayKind, array.member, embedded.elements(at: [array.member]))
        }
    }

    /// Decodes the object of `kind` embedded at `member` of object `parentID`, and absorbs it.
    private static func absorb(
        _ kind: ObjectKind, json: String, member: String, of parentID: String, into batch: inout ObjectLists,
        decoder: JSONDecoder
    ) throws(EmbeddedObjectError) {
        try decodeAndAbsorb(kind.wireModel, json: json, member: member, of: parentID, into: &batch, decoder: decoder)
    }

    private static func decodeAndAbsorb<Object: CatalogueObject>(
        _ type: Object.Type, json: String, member: String, of parentID: String, into batch: inout ObjectLists,
        decoder: JSONDecoder
    ) throws(EmbeddedObjectError) {
        let object: Object
        do {
            object = try decoder.decode(Object.self, from: Data(json.utf8))
        } catch {
            throw EmbeddedObjectError(
                member: member, parentID: parentID, objectType: Object.objectType,
                reason: StripeJSON.describe(error))
        }
        try absorb(object, json: json, into: &batch, decoder: decoder)
    }
}

/// An object embedded in another that does not decode: Stripe sent a malformed object, and the page or object
/// that held it is rejected as a malformed response.
struct EmbeddedObjectError: Error, CustomStringConvertible {
    /// The member that held it (`payment_intent`, `refunds`).
    var member: String
    var parentID: String
    var objectType: String
    var reason: String

    var description: String {
        "the \(objectType) at '\(member)' of \(parentID) is not a valid \(objectType): \(reason)"
    }
}
