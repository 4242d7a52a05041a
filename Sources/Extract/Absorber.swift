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
/// object has the same bytes however it was fetched. An embedded object is decoded from its own node of the page's
/// tape (the page is read once), held to the same rules as a listed one: one that lacks a required field fails the
/// page.
enum Absorber {
    /// Absorbs `object`, which sits at node `node` of `tape` (its page or response, parsed once), and everything
    /// embedded in it, each decoded from its own node of the same tape.
    static func absorb<Object: CatalogueObject>(
        _ object: Object, at node: Int, of tape: JSONTape, into batch: inout ObjectLists,
        decoder: JSONTapeDecoder = StripeJSON.decoder()
    ) throws(EmbeddedObjectError) {
        let kind = Object.Facts.kind
        batch[stored: Object.Facts.self].append(
            StoredObject(facts: object.facts, rawJSON: ExpansionFolding.of(kind).fold(tape, node)))
        let entry = kind.entry
        for (member, memberKind) in entry.storedReferences {
            guard let embedded = tape.member(member, of: node), tape.isObject(embedded) else { continue }
            try absorb(
                memberKind, at: embedded, of: tape, member: member, of: object.id, into: &batch, decoder: decoder)
        }
        for reference in entry.references where reference.anyKind {
            guard let embedded = tape.member(reference.member, of: node), tape.isObject(embedded),
                let objectType = tape.member("object", of: embedded).flatMap(tape.string),
                let memberKind = ObjectKind(objectType: objectType)
            else { continue }
            try absorb(
                memberKind, at: embedded, of: tape, member: reference.member, of: object.id, into: &batch,
                decoder: decoder)
        }
        for list in entry.lists {
            guard let listNode = tape.member(list.member, of: node), let data = tape.member("data", of: listNode),
                tape.isArray(data)
            else { continue }
            try absorbEach(list.kind, list.member, tape.elements(of: data))
        }
        for array in entry.arrays {
            guard let arrayKind = array.kind, let arrayNode = tape.member(array.member, of: node),
                tape.isArray(arrayNode)
            else { continue }
            try absorbEach(arrayKind, array.member, tape.elements(of: arrayNode))
        }

        func absorbEach(_ kind: ObjectKind, _ member: String, _ elements: [Int]) throws(EmbeddedObjectError) {
            for element in elements where tape.isObject(element) {
                try absorb(kind, at: element, of: tape, member: member, of: object.id, into: &batch, decoder: decoder)
            }
        }
    }

    /// Decodes the object of `kind` embedded at `member` of object `parentID`, and absorbs it.
    private static func absorb(
        _ kind: ObjectKind, at node: Int, of tape: JSONTape, member: String, of parentID: String,
        into batch: inout ObjectLists, decoder: JSONTapeDecoder
    ) throws(EmbeddedObjectError) {
        try decodeAndAbsorb(
            kind.wireModel, at: node, of: tape, member: member, of: parentID, into: &batch, decoder: decoder)
    }

    private static func decodeAndAbsorb<Object: CatalogueObject>(
        _ type: Object.Type, at node: Int, of tape: JSONTape, member: String, of parentID: String,
        into batch: inout ObjectLists, decoder: JSONTapeDecoder
    ) throws(EmbeddedObjectError) {
        let object: Object
        do {
            object = try decoder.decode(Object.self, from: tape, at: node)
        } catch {
            throw EmbeddedObjectError(
                member: member, parentID: parentID, objectType: Object.objectType,
                reason: StripeJSON.describe(error))
        }
        try absorb(object, at: node, of: tape, into: &batch, decoder: decoder)
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
