import Foundation
import ReconCore
import Sandbox
import Testing

/// Stripe's Reporting API as the sandbox serves it: the two balance summary report types, report runs created by
/// POST and polled, and their CSV files, computed from the world.
@Suite struct ReportingTests {
    static let day: Int64 = 86_400
    static let balance = "balance.summary.1"
    static let activity = "balance_change_from_activity.summary.1"

    /// `name=value&…`, percent-encoded.
    static func form(_ fields: [(String, String)]) -> [UInt8] {
        Array(fields.map { "\(q($0.0))=\(q($0.1))" }.joined(separator: "&").utf8)
    }

    /// The fields of a report run's create.
    static func runFields(
        _ type: String, from: Int64, to: Int64, currency: String?, columns: [String] = []
    ) -> [(String, String)] {
        var fields = [
            ("report_type", type), ("parameters[interval_start]", String(from)),
            ("parameters[interval_end]", String(to)),
        ]
        if let currency { fields.append(("parameters[currency]", currency)) }
        return fields + columns.map { ("parameters[columns][]", $0) }
    }

    static func create(_ connection: WireConnection, _ fields: [(String, String)]) throws -> WireResponse {
        try connection.request(
            "/v1/reporting/report_runs", method: "POST",
            headers: [("Content-Type", "application/x-www-form-urlencoded")], body: form(fields))
    }

    /// Creates a run, polls it until it is done, and downloads its file: the CSV's rows, header first.
    static func report(
        _ connection: WireConnection, _ type: String, from: Int64, to: Int64, currency: String,
        columns: [String] = []
    ) throws -> [[String]] {
        let created = try create(connection, runFields(type, from: from, to: to, currency: currency, columns: columns))
        #expect(created.status == 200)
        let run = try created.json()
        #expect(run.string("status") == "pending")
        let id = try #require(run.string("id"))
        #expect(try connection.object("/v1/reporting/report_runs/\(id)").string("status") == "pending")
        let done = try connection.object("/v1/reporting/report_runs/\(id)")
        #expect(done.string("status") == "succeeded")
        let text = try #require(done.object("result")?.string("url"))
        let url = try #require(URL(string: text))
        #expect(url.host == "127.0.0.1" && url.path.hasPrefix("/v1/files/file_"))
        let file = try connection.request(url.path)
        #expect(file.status == 200)
        #expect(file.headers["content-type"] == "text/csv")
        return String(decoding: file.body, as: UTF8.self).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    // MARK: Report types

    @Test(arguments: [(0, Int64(29)), (5, 29), (12, 30), (13, 30)])
    func dataIsPublishedUpToTheLastMidnightAtLeast12HoursAgo(hours: Int, days: Int64) async throws {
        let server = try await startServer(charges: 20) { $0.hours = hours }
        let start = Int64(server.world.start.timeIntervalSince1970)

        for type in [Self.balance, Self.activity] {
            let object = try WireConnection(port: server.port).object("/v1/reporting/report_types/\(type)")
            #expect(object.string("object") == "reporting.report_type")
            #expect(object.string("id") == type)
            #expect(object.int("data_available_start") == start)
            #expect(object.int("data_available_end") == start + days * Self.day)
        }
        #expect(try get(server, "/v1/reporting/report_types/balance.summary.2").status == 404)
        try await server.shutdown()
    }

    // MARK: The reports agree with the world

    @Test func theReportsAgreeWithSumsOfTheServedBalanceTransactions() async throws {
        // Given a world and its balance transactions as served
        let server = try await startServer(charges: 600, seed: 11, days: 20)
        let connection = try WireConnection(port: server.port)
        let transactions = try listAll(connection, "/v1/balance_transactions").filter {
            $0.string("balance_type") == "payments"
        }
        let start = Int64(server.world.start.timeIntervalSince1970)
        let published = try #require(
            connection.object("/v1/reporting/report_types/\(Self.balance)").int("data_available_end"))
        var sawPayouts = false

        for (from, to) in [
            (start, start + Self.day), (start + 5 * Self.day, start + 12 * Self.day), (start, published),
        ] {
            for currency in [Currency.usd, .gbp, .jpy, .bhd] {
                // When the test adds them up itself: a payout's own transaction counts at its available_on
                let exponent = try currency.requireExponent()
                func text(_ value: Int64) -> String { MinorUnitFormatter.string(value, exponent: exponent) }
                let mine = transactions.filter { $0.string("currency") == currency.rawValue }
                func date(_ bt: [String: Any]) -> Int64 {
                    (bt.string("type") == "payout" ? bt.int("available_on") : bt.int("created")) ?? 0
                }
                let isPayout = { (bt: [String: Any]) in
                    ["payout", "payout_reversal"].contains(bt.string("reporting_category") ?? "")
                }
                let before = mine.filter { date($0) < from }
                let inside = mine.filter { date($0) >= from && date($0) < to }
                let starting = before.reduce(Int64(0)) { $0 + ($1.int("net") ?? 0) }
                let activity = inside.filter { !isPayout($0) }.reduce(Int64(0)) { $0 + ($1.int("net") ?? 0) }
                let payouts = inside.filter(isPayout).reduce(Int64(0)) { $0 + ($1.int("net") ?? 0) }
                sawPayouts = sawPayouts || payouts != 0

                // Then balance.summary.1 says the same
                let balance = try Self.report(connection, Self.balance, from: from, to: to, currency: currency.rawValue)
                #expect(balance.first == ["category", "description", "net_amount", "currency"])
                let rows = Dictionary(uniqueKeysWithValues: balance.dropFirst().map { ($0[0], $0[2]) })
                #expect(rows["starting_balance"] == text(starting), "\(currency) \(from)..\(to)")
                #expect(rows["activity"] == text(activity), "\(currency) \(from)..\(to)")
                #expect(rows["payouts"] == text(payouts), "\(currency) \(from)..\(to)")
                #expect(rows["ending_balance"] == text(starting + activity + payouts), "\(currency) \(from)..\(to)")
                #expect(balance.dropFirst().allSatisfy { $0[3] == currency.rawValue })

                // And balance_change_from_activity.summary.1, per reporting category
                let rowsByCategory = Dictionary(grouping: inside.filter { !isPayout($0) }) {
                    $0.string("reporting_category") ?? ""
                }
                let expected = rowsByCategory.keys.sorted().map { category in
                    let group = rowsByCategory[category] ?? []
                    func sum(_ key: String) -> Int64 { group.reduce(Int64(0)) { $0 + ($1.int(key) ?? 0) } }
                    return [
                        category, currency.rawValue, String(group.count), text(sum("amount")), text(sum("fee")),
                        text(sum("net")),
                    ]
                }
                let activityReport = try Self.report(
                    connection, Self.activity, from: from, to: to, currency: currency.rawValue)
                #expect(activityReport.first == ["reporting_category", "currency", "count", "gross", "fee", "net"])
                #expect(Array(activityReport.dropFirst()) == expected, "\(currency) \(from)..\(to)")
            }
        }
        #expect(sawPayouts)
        try await server.shutdown()
    }

    @Test func aRunGetsTheColumnsItAskedForInItsOrder() async throws {
        let server = try await startServer(charges: 50)
        let connection = try WireConnection(port: server.port)
        let start = Int64(server.world.start.timeIntervalSince1970)

        let rows = try Self.report(
            connection, Self.balance, from: start, to: start + 3 * Self.day, currency: "usd",
            columns: ["net_amount", "category"])

        #expect(rows.first == ["net_amount", "category"])
        #expect(rows.dropFirst().map { $0[1] } == ["starting_balance", "activity", "payouts", "ending_balance"])
        try await server.shutdown()
    }

    // MARK: Refusals and faults

    @Test func invalidRunsGetStripes400NamingTheParameter() async throws {
        let server = try await startServer(charges: 20)
        let connection = try WireConnection(port: server.port)
        let start = Int64(server.world.start.timeIntervalSince1970)
        let published = start + 29 * Self.day
        let cases: [([(String, String)], String)] = [
            (
                Self.runFields(Self.balance, from: start, to: published + Self.day, currency: "usd"),
                "parameters[interval_end]"
            ),
            (
                Self.runFields(Self.balance, from: start - Self.day, to: start + Self.day, currency: "usd"),
                "parameters[interval_start]"
            ),
            (Self.runFields(Self.balance, from: start, to: start + Self.day, currency: nil), "parameters[currency]"),
            (Self.runFields("balance.summary.9", from: start, to: start + Self.day, currency: "usd"), "report_type"),
            (
                Self.runFields(Self.balance, from: start, to: start + Self.day, currency: "usd", columns: ["gross"]),
                "parameters[columns]"
            ),
        ]

        for (fields, param) in cases {
            let response = try Self.create(connection, fields)
            #expect(response.status == 400, "\(param)")
            let error = try #require(response.json().object("error"))
            #expect(error.string("type") == "invalid_request_error")
            #expect(error.string("param") == param)
        }
        #expect(
            try Self.create(connection, Self.runFields(Self.balance, from: start, to: published, currency: "usd"))
                .status == 200)
        try await server.shutdown()
    }

    @Test func runsCanBeMadeToFailOrNeverFinish() async throws {
        let failing = try await startServer(charges: 20) { $0.reportRunsFail = true }
        let stuck = try await startServer(charges: 20) { $0.reportRunsNeverFinish = true }
        let start = Int64(failing.world.start.timeIntervalSince1970)

        for (server, status) in [(failing, "failed"), (stuck, "pending")] {
            let connection = try WireConnection(port: server.port)
            let run = try Self.create(
                connection, Self.runFields(Self.activity, from: start, to: start + Self.day, currency: "gbp")
            ).json()
            let id = try #require(run.string("id"))
            var last: [String: Any] = [:]
            for _ in 0..<5 { last = try connection.object("/v1/reporting/report_runs/\(id)") }
            #expect(last.string("status") == status)
            #expect((last["result"] as? NSNull) != nil)
            #expect((status == "failed") == (last.string("error")?.isEmpty == false))
            try await server.shutdown()
        }
    }

    @Test func restrictedKeysForbiddenFromReportingGet403() async throws {
        let server = try await startServer(charges: 20) { $0.restrictedKeyForbiddenResources = ["reporting"] }
        let start = Int64(server.world.start.timeIntervalSince1970)
        let restricted = try WireConnection(port: server.port, key: "rk_test_abc123def456", receiveTimeout: 20)

        #expect(try restricted.request("/v1/reporting/report_types/\(Self.balance)").status == 403)
        #expect(
            try Self.create(
                restricted, Self.runFields(Self.balance, from: start, to: start + Self.day, currency: "usd")
            ).status == 403)
        #expect(try get(server, "/v1/reporting/report_types/\(Self.balance)").status == 200)
        #expect(try get(server, "/v1/reporting/report_runs", method: "DELETE").status == 405)
        try await server.shutdown()
    }
}
