import Foundation
import Sandbox
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Errors, authentication, headers, expansion and object shapes, as Stripe answers them.
@Suite struct ProtocolTests {
    static func error(_ response: WireResponse) throws -> [String: Any] {
        try #require(try response.json().object("error"))
    }

    @Test(arguments: [
        ("0", "greater than or equal to 1"), ("101", "less than or equal to 100"), ("ten", "Invalid integer"),
    ])
    func limitOutsideOneToHundredIsABadRequest(limit: String, message: String) async throws {
        let server = try await startServer(charges: 20)
        let response = try get(server, "/v1/charges?limit=\(limit)")
        #expect(response.status == 400)
        let error = try Self.error(response)
        #expect(error.string("type") == "invalid_request_error")
        #expect(error.string("param") == "limit")
        #expect(error.string("message")?.contains(message) == true)
        #expect(try get(server, "/v1/charges?limit=100").status == 200)
        #expect(try get(server, "/v1/charges?limit=1").status == 200)
        try await server.shutdown()
    }

    @Test func defaultLimitIsTen() async throws {
        let server = try await startServer(charges: 30)
        let json = try get(server, "/v1/charges").json()
        #expect(json.list("data")?.count == 10)
        #expect(json["has_more"] as? Bool == true)
        #expect(json.string("url") == "/v1/charges")
        try await server.shutdown()
    }

    @Test func bothCursorsOrAnUnknownParameterAreBadRequests() async throws {
        let server = try await startServer(charges: 30)
        let first = try #require(try get(server, "/v1/charges?limit=2").json().list("data"))
        let a = first[0].string("id") ?? ""
        let b = first[1].string("id") ?? ""
        let both = try get(server, "/v1/charges?starting_after=\(a)&ending_before=\(b)")
        #expect(both.status == 400)
        #expect(try Self.error(both).string("type") == "invalid_request_error")
        let unknown = try get(server, "/v1/charges?created[gtee]=5")
        #expect(unknown.status == 400)
        #expect(try Self.error(unknown).string("param") == "created[gtee]")
        let badCursor = try get(server, "/v1/charges?starting_after=ch_nope")
        #expect(badCursor.status == 400)
        #expect(try Self.error(badCursor).string("code") == "resource_missing")
        try await server.shutdown()
    }

    @Test(arguments: ["/v1/charges/ch_doesnotexist", "/v1/transfers/tr_1AAAAAAAAAAAAAAAAAAAAAAA", "/v1/refunds/re_x"])
    func unknownIDIsA404WithStripesErrorShape(path: String) async throws {
        let server = try await startServer(charges: 20)
        let response = try get(server, path)
        #expect(response.status == 404)
        let error = try Self.error(response)
        #expect(error.string("type") == "invalid_request_error")
        #expect(error.string("code") == "resource_missing")
        #expect(error.string("param") == "id")
        #expect(error.string("message")?.hasPrefix("No such ") == true)
        try await server.shutdown()
    }

    @Test func anIDOfAnotherKindIsNotFoundUnderTheWrongResource() async throws {
        let server = try await startServer(charges: 20)
        let charge = try #require(server.world.ids(for: .plainCharge).first)
        #expect(try get(server, "/v1/charges/\(charge)").status == 200)
        #expect(try get(server, "/v1/transfers/\(charge)").status == 404)
        #expect(try get(server, "/v1/nothing").status == 404)
        try await server.shutdown()
    }

    @Test(arguments: [
        "sk_live_51Secret0000000000000001234", "pk_test_51Public000000000000000abcd", "sk_test_",
        "garbage-key-0000000000009876",
    ])
    func aKeyThatIsNotATestSecretKeyIsRefusedWithoutEchoingIt(key: String) async throws {
        let server = try await startServer(charges: 20)
        let response = try get(server, "/v1/charges", key: key)
        #expect(response.status == 401)
        #expect(response.headers["request-id"]?.hasPrefix("req_") == true)
        let error = try Self.error(response)
        #expect(error.string("type") == "invalid_request_error")
        let message = try #require(error.string("message"))
        #expect(message.hasPrefix("Invalid API Key provided: "))
        #expect(!message.contains(key) || key.count <= 8, "the whole key never appears")
        #expect(!String(decoding: response.body, as: UTF8.self).contains(key) || key.count <= 8)
        try await server.shutdown()
    }

    @Test func masksKeepOnlyTheKindAndLastFour() async throws {
        let server = try await startServer(charges: 20)
        let response = try get(server, "/v1/charges", key: "pk_test_51Public000000000000001234")
        #expect(try Self.error(response).string("message")?.contains("pk_test_****1234") == true)
        try await server.shutdown()
    }

    @Test func missingKeyIsRefusedAndBasicAuthAndRestrictedKeysAreAccepted() async throws {
        let server = try await startServer(charges: 20)
        #expect(try get(server, "/v1/charges", key: nil).status == 401)
        let basic = Data("sk_test_abc123:".utf8).base64EncodedString()
        #expect(try get(server, "/v1/charges", key: nil, headers: [("Authorization", "Basic \(basic)")]).status == 200)
        #expect(try get(server, "/v1/charges", key: "rk_test_abc123").status == 200)
        try await server.shutdown()
    }

    @Test(arguments: ["POST", "DELETE", "PUT"])
    func writesAreRefusedBecauseTheSandboxIsReadOnly(method: String) async throws {
        let server = try await startServer(charges: 20)
        let response = try get(server, "/v1/charges", method: method)
        #expect(response.status == 405)
        let error = try Self.error(response)
        #expect(error.string("type") == "invalid_request_error")
        #expect(error.string("message")?.contains("read-only") == true)
        try await server.shutdown()
    }

    @Test func everyResponseHasARequestIDAndKeepsTheConnectionAlive() async throws {
        let server = try await startServer(charges: 20)
        let connection = try WireConnection(port: server.port)
        var ids = Set<String>()
        for path in ["/v1/charges", "/v1/charges/ch_nope", "/v1/charges?limit=0", "/v1/disputes"] {
            let response = try connection.request(path)
            let id = try #require(response.headers["request-id"])
            #expect(id.hasPrefix("req_"))
            ids.insert(id)
        }
        #expect(ids.count == 4, "four requests on one kept-alive connection, four distinct ids")
        #expect(server.requestStats.total == 4)
        #expect(server.requestStats.byEndpoint["GET /v1/charges"] == 2)
        #expect(server.requestStats.byEndpoint["GET /v1/charges/:id"] == 1)
        try await server.shutdown()
    }

    @Test func urlSessionCanTalkToTheSandbox() async throws {
        let server = try await startServer(charges: 20)
        var request = URLRequest(url: server.baseURL.appendingPathComponent("v1/charges"))
        request.setValue("Bearer \(testKey)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Request-Id")?.hasPrefix("req_") == true)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["object"] as? String == "list")
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        try await server.shutdown()
    }

    @Test func onlyLoopbackAddressesAreAccepted() async throws {
        var options = SandboxOptions()
        options.host = "0.0.0.0"
        options.charges = 10
        await #expect(throws: SandboxError.self) { try await SandboxServer.start(options) }
    }

    // MARK: Expansion and shapes

    @Test func listsExpandDataFieldsAndRetrievesExpandTopLevelFields() async throws {
        // Enough charges for every guaranteed plan (a smaller world has none of them)
        let server = try await startServer(charges: 90)
        let charges =
            try get(
                server,
                "/v1/charges?limit=20&expand[]=data.payment_intent&expand[]=data.balance_transaction"
                    + "&expand[]=data.transfer&expand[]=data.application_fee"
            ).json().list("data") ?? []
        #expect(charges.count == 20)
        for charge in charges {
            #expect(charge.object("payment_intent")?.string("object") == "payment_intent")
            if charge["balance_transaction"] is NSNull { continue }
            #expect(charge.object("balance_transaction")?.string("object") == "balance_transaction")
            if let transfer = charge["transfer"], !(transfer is NSNull) {
                #expect(charge.object("transfer")?.string("object") == "transfer")
            }
            if let fee = charge["application_fee"], !(fee is NSNull) {
                #expect(charge.object("application_fee")?.string("object") == "application_fee")
            }
        }
        let bts = try get(server, "/v1/balance_transactions?limit=50&expand[]=data.source").json().list("data") ?? []
        // Every source expands, except an Issuing transaction's, which the world does not serve (null).
        #expect(
            bts.allSatisfy {
                $0.string("type") == "issuing_transaction"
                    ? $0["source"] is NSNull : $0.object("source")?.string("id") != nil
            })
        let disputes = try get(server, "/v1/disputes?expand[]=data.charge").json().list("data") ?? []
        #expect(disputes.allSatisfy { $0.object("charge")?.string("object") == "charge" })

        let chargeID = try #require(server.world.ids(for: .seedExampleApplicationFee).first)
        let nested = try get(
            server,
            "/v1/charges/\(chargeID)?expand[]=application_fee.balance_transaction&expand[]=payment_intent.latest_charge"
        ).json()
        #expect(
            nested.object("application_fee")?.object("balance_transaction")?.string("reporting_category")
                == "platform_earning")
        #expect(nested.object("payment_intent")?.object("latest_charge")?.string("id") == chargeID)

        let refused = try get(server, "/v1/charges?expand[]=data.customer_secret")
        #expect(refused.status == 400)
        #expect(try Self.error(refused).string("param") == "expand")
        #expect(try get(server, "/v1/charges?expand[]=payment_intent").status == 400, "lists expand data.… only")
        try await server.shutdown()
    }

    @Test func aChargeCarriesTransferOnlyWhenItHasOneAndRefundsOnlyWhenExpanded() async throws {
        let server = try await startServer(charges: 80)
        let plain = try #require(server.world.ids(for: .plainCharge).first)
        let plainJSON = try get(server, "/v1/charges/\(plain)").json()
        #expect(plainJSON["transfer"] == nil, "absent, not null")
        #expect(plainJSON["transfer_data"] is NSNull)
        #expect(plainJSON["refunds"] == nil)
        #expect(plainJSON["application_fee"] is NSNull)

        let destination = try #require(server.world.ids(for: .seedExampleTransferAmount).first)
        let json = try get(server, "/v1/charges/\(destination)").json()
        #expect(json.string("transfer")?.hasPrefix("tr_") == true)
        #expect(json.object("transfer_data")?.int("amount") == 877)
        #expect(json.object("transfer_data")?.string("destination")?.hasPrefix("acct_") == true)
        #expect(json.string("transfer_group") == "group_" + (json.string("payment_intent") ?? ""))
        let expanded = try get(server, "/v1/charges/\(destination)?expand[]=refunds").json()
        #expect(expanded.object("refunds")?.string("object") == "list")

        let skipped = try #require(server.world.ids(for: .skippedTransfer).first)
        let skippedJSON = try get(server, "/v1/charges/\(skipped)?expand[]=payment_intent").json()
        #expect(skippedJSON.string("status") == "succeeded")
        #expect(skippedJSON["transfer_data"] is NSNull)
        #expect(skippedJSON["transfer"] is NSNull)
        #expect(
            skippedJSON.object("payment_intent")?.object("transfer_data")?.string("destination")?.hasPrefix("acct_")
                == true)
        try await server.shutdown()
    }

    @Test func applicationFeesPointAtTheConnectedPaymentAndTheOriginatingCharge() async throws {
        let server = try await startServer(charges: 80)
        let chargeID = try #require(server.world.ids(for: .seedExampleApplicationFee).first)
        let charge = try get(server, "/v1/charges/\(chargeID)?expand[]=application_fee&expand[]=transfer").json()
        let fee = try #require(charge.object("application_fee"))
        let transfer = try #require(charge.object("transfer"))
        #expect(fee.string("id")?.hasPrefix("fee_") == true)
        #expect(fee.string("charge")?.hasPrefix("py_") == true)
        #expect(fee.string("charge") == transfer.string("destination_payment"))
        #expect(fee.string("originating_transaction") == chargeID)
        #expect(fee.string("account") == transfer.string("destination"))
        #expect(fee.int("amount") == 123)
        #expect(transfer.int("amount") == 1000)
        #expect(transfer.string("source_transaction") == chargeID)
        #expect(charge.int("application_fee_amount") == 123)
        try await server.shutdown()
    }

    @Test func balanceTransactionsCarryStripesSignsAndCategories() async throws {
        let server = try await startServer(charges: 300, seed: 3)
        let connection = try WireConnection(port: server.port)
        var seen: [String: (sign: Int64, count: Int)] = [:]
        for item in try PagingConformanceTests.pageForward(connection, "/v1/balance_transactions", limit: 100) {
            let bt = try connection.request("/v1/balance_transactions/\(item.id)").json()
            let key = "\(bt.string("type") ?? "")/\(bt.string("reporting_category") ?? "")"
            let amount = bt.int("amount") ?? 0
            #expect(bt.int("net") == amount - (bt.int("fee") ?? 0))
            let sign: Int64 = amount > 0 ? 1 : -1
            if let previous = seen[key] { #expect(previous.sign == sign, "\(key) always has one sign") }
            seen[key] = (sign, (seen[key]?.count ?? 0) + 1)
            if key == "adjustment/dispute" {
                #expect(bt.int("fee") == 1500 || bt.string("currency") != "usd")
                #expect(bt.list("fee_details")?.first?.string("description") == "Dispute fee")
                #expect(bt.string("source")?.hasPrefix("dp_") == true)
            }
            if bt.string("currency") == "usd", let rate = bt["exchange_rate"], !(rate is NSNull) {
                #expect((rate as? NSNumber)?.doubleValue ?? 0 > 1.0)
            }
        }
        let expected: [String: Int64] = [
            "charge/charge": 1, "payment/charge": 1, "transfer/transfer": -1, "application_fee/platform_earning": 1,
            "refund/refund": -1, "transfer_refund/transfer_reversal": 1,
            "application_fee_refund/platform_earning_refund": -1, "adjustment/dispute": -1,
            "adjustment/dispute_reversal": 1, "payment_failure_refund/charge_failure": -1,
        ]
        for (key, sign) in expected {
            #expect(seen[key]?.sign == sign, "\(key)")
        }
        try await server.shutdown()
    }

    @Test func threeDecimalAmountsEndInZero() async throws {
        let server = try await startServer(charges: 400, seed: 8)
        let connection = try WireConnection(port: server.port)
        for resource in ["charges", "refunds", "transfers", "application_fees"] {
            for item in try PagingConformanceTests.pageForward(connection, "/v1/\(resource)", limit: 100) {
                let object = try connection.request("/v1/\(resource)/\(item.id)").json()
                guard object.string("currency") == "bhd" else { continue }
                #expect((object.int("amount") ?? 1) % 10 == 0, "\(item.id)")
            }
        }
        try await server.shutdown()
    }
}
