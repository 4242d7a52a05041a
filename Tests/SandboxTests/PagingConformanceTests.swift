import Foundation
import Sandbox
import Testing

/// Stripe's list semantics: every list endpoint pages gap-free and duplicate-free, newest first, under every
/// `created` filter, forwards with `starting_after` and backwards with `ending_before`.
@Suite struct PagingConformanceTests {
    static let resources = [
        "charges", "payment_intents", "application_fees", "transfers", "balance_transactions", "disputes", "refunds",
        "payouts",
    ]

    struct Item: Equatable {
        var id: String
        var created: Int64
    }

    /// Pages `path` to the end with `starting_after`.
    static func pageForward(_ connection: WireConnection, _ path: String, limit: Int) throws -> [Item] {
        var items: [Item] = []
        var cursor: String?
        var pages = 0
        while true {
            let separator = path.contains("?") ? "&" : "?"
            let url = path + separator + "limit=\(limit)" + (cursor.map { "&starting_after=\($0)" } ?? "")
            let response = try connection.request(url)
            #expect(response.status == 200, "\(url): \(String(decoding: response.body, as: UTF8.self).prefix(300))")
            let json = try response.json()
            #expect(json.string("object") == "list")
            let data = try #require(json.list("data"))
            #expect(data.count <= limit)
            items += data.map { Item(id: $0.string("id") ?? "", created: $0.int("created") ?? 0) }
            pages += 1
            guard json["has_more"] as? Bool == true else { break }
            #expect(data.count == limit, "a page with has_more is full")
            cursor = try #require(data.last?.string("id"))
            if pages > 5_000 {
                Issue.record("paging does not end")
                break
            }
        }
        return items
    }

    /// Pages `path` from the oldest item backwards with `ending_before`, returned newest first.
    static func pageBackward(_ connection: WireConnection, _ path: String, limit: Int, oldest: Item) throws -> [Item] {
        var items: [Item] = [oldest]
        var cursor = oldest.id
        var pages = 0
        while true {
            let separator = path.contains("?") ? "&" : "?"
            let response = try connection.request(path + separator + "limit=\(limit)&ending_before=\(cursor)")
            #expect(response.status == 200)
            let json = try response.json()
            let data = try #require(json.list("data"))
            let page = data.map { Item(id: $0.string("id") ?? "", created: $0.int("created") ?? 0) }
            items = page + items
            pages += 1
            guard json["has_more"] as? Bool == true, let first = page.first else { break }
            cursor = first.id
            if pages > 5_000 {
                Issue.record("paging does not end")
                break
            }
        }
        return items
    }

    static func isNewestFirst(_ items: [Item]) -> Bool {
        zip(items, items.dropFirst()).allSatisfy { newer, older in
            newer.created > older.created || (newer.created == older.created && newer.id > older.id)
        }
    }

    @Test(arguments: resources)
    func everyListPagesGapFreeUnderEveryFilter(resource: String) async throws {
        // Given a small world and its whole list, paged with the largest page
        let server = try await startServer(charges: 90, seed: 11)
        let connection = try WireConnection(port: server.port)
        let all = try Self.pageForward(connection, "/v1/\(resource)", limit: 100)
        #expect(all.count == server.world.counts[resource], "\(resource) has every object of the world")
        #expect(Set(all.map(\.id)).count == all.count, "no duplicates")
        #expect(Self.isNewestFirst(all), "newest first, ties by id")
        #expect(all.count > 3)

        // When the same list is paged under each created filter and each limit
        let times = all.map(\.created).sorted()
        let low = times[times.count / 4]
        let high = times[times.count * 3 / 4]
        let tie =
            Dictionary(grouping: times, by: { $0 }).max { ($0.value.count, $1.key) < ($1.value.count, $0.key) }?.key
            ?? low
        let filters: [(String, (Int64) -> Bool)] = [
            ("", { _ in true }),
            ("created[gte]=\(low)&created[lt]=\(high)", { $0 >= low && $0 < high }),
            ("created[gt]=\(low)&created[lte]=\(high)", { $0 > low && $0 <= high }),
            ("created=\(tie)", { $0 == tie }),
        ]
        for (filter, keep) in filters {
            let expected = all.filter { keep($0.created) }
            let path = "/v1/\(resource)" + (filter.isEmpty ? "" : "?" + filter)
            for limit in [1, 7, 100] where limit > 1 || expected.count <= 400 {
                // Then forwards and backwards give exactly the expected objects, in order
                let forward = try Self.pageForward(connection, path, limit: limit)
                #expect(forward == expected, "\(path) limit \(limit) forwards")
                if let oldest = expected.last {
                    let backward = try Self.pageBackward(connection, path, limit: limit, oldest: oldest)
                    #expect(backward == expected, "\(path) limit \(limit) backwards")
                }
            }
        }
        #expect(server.requestStats.total > all.count, "limit 1 paged item by item")
        #expect(server.requestStats.byStatus[200] == server.requestStats.total)
        try await server.shutdown()
    }

    @Test func aPayoutsTransactionsPageGapFreeBothWays() async throws {
        // Given the payout that paid out the most transactions, and everything it paid out in one page
        let server = try await startServer(charges: 400, seed: 11)
        let connection = try WireConnection(port: server.port)
        let payout = try #require(
            server.world.payouts().max {
                $0.listedBalanceTransactionIDs.count < $1.listedBalanceTransactionIDs.count
            })
        let path = "/v1/balance_transactions?payout=\(payout.id)"
        let all = try Self.pageForward(connection, path, limit: 100)
        #expect(all.count == payout.listedBalanceTransactionIDs.count + 1, "what it paid out and its own transaction")
        #expect(all.count > 20)
        #expect(Self.isNewestFirst(all))
        #expect(all.first?.id == payout.ownBalanceTransactionID)
        #expect(Array(all.dropFirst().map(\.id)) == payout.listedBalanceTransactionIDs)

        // When it is paged by 1 and by 7, forwards and backwards, then the same items come in the same order
        for limit in [1, 7] {
            #expect(try Self.pageForward(connection, path, limit: limit) == all, "limit \(limit) forwards")
            let oldest = try #require(all.last)
            let backward = try Self.pageBackward(connection, path, limit: limit, oldest: oldest)
            #expect(backward == all, "limit \(limit) backwards")
        }
        // And a created window narrows it like any list
        let middle = all[all.count / 2].created
        let window = try Self.pageForward(connection, path + "&created[lte]=\(middle)", limit: 5)
        #expect(window == all.filter { $0.created <= middle })
        try await server.shutdown()
    }

    @Test func nestedListsCarryTenItemsAndTheirEndpointsPageTheRest() async throws {
        let server = try await startServer(charges: 200, seed: 5)
        let connection = try WireConnection(port: server.port)
        let chargeID = try #require(server.world.ids(for: .manyReversals).first)
        let charge = try connection.request(
            "/v1/charges/\(chargeID)?expand[]=transfer&expand[]=application_fee&expand[]=refunds"
        ).json()

        // The transfer embeds its 10 most recent reversals and the endpoint pages all of them
        let transfer = try #require(charge.object("transfer"))
        let embedded = try #require(transfer.object("reversals"))
        let transferID = try #require(transfer.string("id"))
        #expect(embedded.list("data")?.count == 10)
        #expect(embedded["has_more"] as? Bool == true)
        #expect(embedded.string("url") == "/v1/transfers/\(transferID)/reversals")
        let reversals = try Self.pageForward(connection, "/v1/transfers/\(transferID)/reversals", limit: 3)
        #expect(reversals.count > 10)
        #expect(Self.isNewestFirst(reversals))
        #expect(Array(reversals.prefix(10).map(\.id)) == embedded.list("data")?.compactMap { $0.string("id") })
        let reversed = try Self.pageForward(connection, "/v1/transfers/\(transferID)/reversals", limit: 100)
        #expect(reversed == reversals)

        // So does the application fee with its refunds, and the expanded charge with its refunds
        let fee = try #require(charge.object("application_fee"))
        let feeRefunds = try #require(fee.object("refunds"))
        #expect(feeRefunds.list("data")?.count == 10)
        #expect(feeRefunds["has_more"] as? Bool == true)
        let allFeeRefunds = try Self.pageForward(
            connection, "/v1/application_fees/\(fee.string("id") ?? "")/refunds", limit: 4)
        #expect(allFeeRefunds.count > 10)
        let refunds = try #require(charge.object("refunds"))
        #expect(refunds.list("data")?.count == 10)
        #expect(refunds["has_more"] as? Bool == true)
        #expect(refunds.string("url") == "/v1/charges/\(chargeID)/refunds")

        // A single reversal is retrievable under its transfer
        let one = try connection.request("/v1/transfers/\(transferID)/reversals/\(reversals[3].id)")
        #expect(one.status == 200)
        #expect(try one.json().string("transfer") == transferID)
        try await server.shutdown()
    }

    @Test func filtersReturnOnlyMatchingObjects() async throws {
        let server = try await startServer(charges: 150, seed: 9)
        let connection = try WireConnection(port: server.port)
        let chargeID = try #require(server.world.ids(for: .fullRefundReversed).first)
        let charge = try connection.request("/v1/charges/\(chargeID)").json()
        let paymentIntent = try #require(charge.string("payment_intent"))

        let byIntent = try connection.request("/v1/charges?payment_intent=\(paymentIntent)").json()
        #expect(byIntent.list("data")?.compactMap { $0.string("id") } == [chargeID])
        let group = try #require(charge.string("transfer_group"))
        #expect(try connection.request("/v1/charges?transfer_group=\(group)").json().list("data")?.count == 1)
        let transfers = try connection.request("/v1/transfers?transfer_group=\(group)").json().list("data") ?? []
        #expect(transfers.compactMap { $0.string("id") } == [charge.string("transfer")])

        let refunds = try connection.request("/v1/refunds?charge=\(chargeID)&limit=100").json().list("data") ?? []
        #expect(!refunds.isEmpty && refunds.allSatisfy { $0.string("charge") == chargeID })
        let refundsByIntent =
            try connection.request("/v1/refunds?payment_intent=\(paymentIntent)&limit=100").json().list("data") ?? []
        #expect(refundsByIntent.count == refunds.count)

        let sourceBTs = try connection.request("/v1/balance_transactions?source=\(chargeID)").json().list("data") ?? []
        #expect(sourceBTs.count == 1 && sourceBTs[0].string("source") == chargeID)
        let refundBTs = try Self.pageForward(connection, "/v1/balance_transactions?type=refund", limit: 50)
        #expect(!refundBTs.isEmpty)
        let typed = try connection.request("/v1/balance_transactions?type=refund&limit=100").json().list("data") ?? []
        #expect(typed.allSatisfy { $0.string("type") == "refund" })
        let jpy = try connection.request("/v1/balance_transactions?currency=jpy&limit=100").json().list("data") ?? []
        #expect(jpy.allSatisfy { $0.string("currency") == "jpy" })

        let destination = try #require(transfers.first?.string("destination"))
        let toAccount = try Self.pageForward(connection, "/v1/transfers?destination=\(destination)", limit: 5)
        #expect(!toAccount.isEmpty)
        let everyTransfer =
            try connection.request("/v1/transfers?destination=\(destination)&limit=100").json().list("data") ?? []
        #expect(everyTransfer.allSatisfy { $0.string("destination") == destination })

        let disputed = try #require(server.world.ids(for: .multipleDisputes).first)
        let disputes = try connection.request("/v1/disputes?charge=\(disputed)").json().list("data") ?? []
        #expect(disputes.count == 2)
        let feeCharge = try #require(server.world.ids(for: .seedExampleApplicationFee).first)
        let fees = try connection.request("/v1/application_fees?charge=\(feeCharge)").json().list("data") ?? []
        #expect(fees.count == 1 && fees[0].string("originating_transaction") == feeCharge)
        try await server.shutdown()
    }
}
