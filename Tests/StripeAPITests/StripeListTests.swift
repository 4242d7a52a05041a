import Foundation
import ReconCore
import StripeAPI
import Testing

@Test(arguments: FixtureModel.allCases)
func listPageOfEachModelDecodesItsItemsAndHasMore(model: FixtureModel) throws {
    // Given a page of two objects of the model, with more to come
    let first = try Fixture.json(model.fileName)
    var second = first
    second["id"] = model.fixtureID + "_second"
    let page: [String: Any] = [
        "object": "list", "url": "/v1/\(model.fileName)s", "has_more": true, "data": [first, second],
    ]

    // When it is decoded as a list of that model
    let decoded = try model.decodeList(Fixture.serialize(page))

    // Then both items are there, in order, and has_more is kept
    #expect(decoded.hasMore)
    #expect(decoded.ids == [model.fixtureID, model.fixtureID + "_second"])
}

@Test func emptyLastPageDecodes() throws {
    let page: [String: Any] = ["object": "list", "url": "/v1/charges", "has_more": false, "data": [Any]()]

    let list = try StripeJSON.decode(StripeList<Charge>.self, from: Fixture.serialize(page))

    #expect(list.object == "list")
    #expect(list.url == "/v1/charges")
    #expect(list.hasMore == false)
    #expect(list.data.isEmpty)
    #expect(list.lastID == nil)
}

@Test func listPageWithABadItemFails() throws {
    // One item without an amount fails the page: the caller must not reconcile a partial page silently.
    var broken = try Fixture.json("transfer")
    broken["amount"] = nil
    let page: [String: Any] = [
        "object": "list", "url": "/v1/transfers", "has_more": false, "data": [try Fixture.json("transfer"), broken],
    ]

    #expect(throws: DecodingError.self) {
        try StripeJSON.decode(StripeList<Transfer>.self, from: Fixture.serialize(page))
    }
}

@Test func listLastIDIsTheCursorOfTheNextPage() throws {
    let page: [String: Any] = [
        "object": "list", "url": "/v1/refunds", "has_more": true,
        "data": [try Fixture.json("refund"), ["id": "re_older"].merging(try Fixture.json("refund")) { new, _ in new }],
    ]

    let list = try StripeJSON.decode(StripeList<Refund>.self, from: Fixture.serialize(page))

    #expect(list.lastID == "re_older")
}
