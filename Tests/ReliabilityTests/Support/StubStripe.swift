import Foundation
import Synchronization
import TestSupport

/// A tiny Stripe, served by a ``StubServer`` on 127.0.0.1, answering with hand-made objects to feed
/// `connect-recon run` what the sandbox never sends: broken bodies, odd objects, hostile text.
///
/// Lists honour `created[gte]`/`created[lt]`, `starting_after`, `limit` and equality filters (`charge=…`),
/// newest first; retrieves answer the object or Stripe's 404. ``override`` answers a request first when it
/// returns a reply.
final class StubStripe: Sendable {
    /// One object: its list (`charges`), id, creation time, JSON, and the fields list filters match on.
    struct Object: Sendable {
        var resource: String
        var id: String
        var created: Int64
        var json: String
        var filters: [String: String] = [:]
    }

    struct Reply: Sendable {
        var status: Int
        var body: String
        var contentType = "application/json"
    }

    typealias Override = @Sendable (_ path: String, _ query: [(String, String)]) -> Reply?

    let objects: [Object]
    let override: Override?
    /// Numbers the answers' `Request-Id`s.
    private let answered = Atomic(0)

    /// Starts a server for `objects`, runs `body`, stops the server.
    static func with<T>(
        _ objects: [Object], override: Override? = nil, _ body: (StubServer) async throws -> T
    ) async throws -> T {
        let stub = StubStripe(objects: objects, override: override)
        return try await StubServer.with({ request in stub.reply(to: request) }, body)
    }

    private init(objects: [Object], override: Override?) {
        self.objects = objects
        self.override = override
    }

    /// The stub server's reply: the answer as JSON with Stripe's `Request-Id`.
    private func reply(to request: StubServer.Request) -> StubServer.Reply {
        let reply = answer(path: request.path, query: request.query.map { ($0.name, $0.value) })
        let number = answered.add(1, ordering: .relaxed).newValue
        let headers = [("Content-Type", reply.contentType), ("Request-Id", "req_stub\(number)")]
        return .text(reply.status, reply.body, headers: headers)
    }

    // MARK: Answers

    static func error(_ status: Int, type: String, message: String) -> Reply {
        Reply(status: status, body: #"{"error":{"type":"\#(type)","message":"\#(message)"}}"#)
    }

    func answer(path: String, query: [(String, String)]) -> Reply {
        if let reply = override?(path, query) { return reply }
        let parts = path.split(separator: "/").map(String.init)
        guard parts.first == "v1", parts.count >= 2 else {
            return Self.error(404, type: "invalid_request_error", message: "Unrecognized request URL")
        }
        switch parts.count {
        case 2: return list(resource: parts[1], path: path, query: query)
        case 3:
            guard let object = objects.first(where: { $0.resource == parts[1] && $0.id == parts[2] }) else {
                return Self.error(404, type: "invalid_request_error", message: "No such object: '\(parts[2])'")
            }
            return Reply(status: 200, body: object.json)
        case 4: return Reply(status: 200, body: #"{"object":"list","url":"\#(path)","has_more":false,"data":[]}"#)
        default: return Self.error(404, type: "invalid_request_error", message: "Unrecognized request URL")
        }
    }

    private func list(resource: String, path: String, query: [(String, String)]) -> Reply {
        var items = objects.filter { $0.resource == resource }
        var limit = 10
        var after: String?
        for (name, value) in query {
            switch name {
            case "limit": limit = Int(value) ?? 10
            case "starting_after": after = value
            case "created[gte]": items = items.filter { $0.created >= Int64(value) ?? .min }
            case "created[lt]": items = items.filter { $0.created < Int64(value) ?? .max }
            case "created[gt]": items = items.filter { $0.created > Int64(value) ?? .min }
            case "created[lte]": items = items.filter { $0.created <= Int64(value) ?? .max }
            case "expand[]", "ending_before": break
            default: items = items.filter { $0.filters[name] == value }
            }
        }
        items.sort { ($0.created, $0.id) > ($1.created, $1.id) }
        if let after, let position = items.firstIndex(where: { $0.id == after }) {
            items = Array(items[(position + 1)...])
        }
        let page = items.prefix(limit)
        let data = page.map(\.json).joined(separator: ",")
        return Reply(
            status: 200,
            body: #"{"object":"list","url":"\#(path)","has_more":\#(items.count > page.count),"data":[\#(data)]}"#)
    }
}

// MARK: - Objects

/// Builds Stripe JSON for the stub, as dictionaries (so a test can remove a field or set it to null).
enum StubObjects {
    /// 2026-11-19T00:00:00Z: the stub's day is 2026-11-19, well before CLI.now minus the settle margin.
    static let day: Int64 = 1_795_046_400
    static let range = ["--from", "2026-11-19", "--to", "2026-11-20"]

    static func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func list(_ path: String) -> [String: Any] {
        ["object": "list", "url": path, "has_more": false, "data": [Any]()]
    }

    static func paymentIntent(
        id: String, created: Int64, amount: Int64, currency: String, destination: String?, fee: Int64?
    )
        -> [String: Any]
    {
        [
            "id": id, "object": "payment_intent", "amount": amount, "amount_received": amount,
            "application_fee_amount": fee ?? NSNull(), "capture_method": "automatic", "created": created,
            "currency": currency, "latest_charge": NSNull(), "livemode": false, "metadata": [String: String](),
            "on_behalf_of": NSNull(), "status": "succeeded",
            "transfer_data": destination.map { ["destination": $0] as [String: Any] } ?? NSNull(),
            "transfer_group": NSNull(),
        ]
    }

    static func charge(
        id: String, created: Int64, amount: Int64, currency: String = "usd", destination: String? = "acct_1Dest",
        transfer: String?, fee: String?, feeAmount: Int64?, balanceTransaction: String?
    ) -> [String: Any] {
        [
            "id": id, "object": "charge", "amount": amount, "amount_captured": amount, "amount_refunded": 0,
            "application_fee": fee ?? NSNull(), "application_fee_amount": feeAmount ?? NSNull(),
            "balance_transaction": balanceTransaction ?? NSNull(), "captured": true, "created": created,
            "currency": currency, "description": NSNull(), "disputed": false, "failure_balance_transaction": NSNull(),
            "failure_code": NSNull(), "failure_message": NSNull(), "livemode": false, "metadata": [String: String](),
            "on_behalf_of": NSNull(), "paid": true,
            "payment_intent": paymentIntent(
                id: "pi_" + id.dropFirst(3), created: created, amount: amount, currency: currency,
                destination: destination, fee: feeAmount),
            "refunded": false, "refunds": list("/v1/charges/\(id)/refunds"), "source_transfer": NSNull(),
            "status": "succeeded", "transfer": transfer ?? NSNull(),
            "transfer_data": destination.map { ["amount": NSNull(), "destination": $0] as [String: Any] } ?? NSNull(),
            "transfer_group": NSNull(),
        ]
    }

    static func transfer(
        id: String, created: Int64, amount: Int64, currency: String = "usd", destination: String = "acct_1Dest",
        sourceCharge: String?, balanceTransaction: String?
    ) -> [String: Any] {
        [
            "id": id, "object": "transfer", "amount": amount, "amount_reversed": 0,
            "balance_transaction": balanceTransaction ?? NSNull(), "created": created, "currency": currency,
            "description": NSNull(), "destination": destination, "livemode": false, "metadata": [String: String](),
            "reversals": list("/v1/transfers/\(id)/reversals"), "reversed": false,
            "source_transaction": sourceCharge ?? NSNull(), "transfer_group": NSNull(),
        ]
    }

    static func applicationFee(
        id: String, created: Int64, amount: Int64, currency: String = "usd", charge: String, balanceTransaction: String?
    ) -> [String: Any] {
        [
            "id": id, "object": "application_fee", "account": "acct_1Dest", "amount": amount, "amount_refunded": 0,
            "application": "ca_1Platform", "balance_transaction": balanceTransaction ?? NSNull(),
            "charge": "py_" + charge.dropFirst(3), "created": created, "currency": currency, "livemode": false,
            "originating_transaction": charge, "refunded": false, "refunds": list("/v1/application_fees/\(id)/refunds"),
        ]
    }

    static func balanceTransaction(
        id: String, created: Int64, amount: Int64, fee: Int64 = 0, currency: String = "usd", source: String,
        type: String, category: String
    ) -> [String: Any] {
        [
            "id": id, "object": "balance_transaction", "amount": amount, "available_on": created + 86_400 * 2,
            "created": created, "currency": currency, "description": NSNull(), "exchange_rate": NSNull(), "fee": fee,
            "fee_details": [Any](), "net": amount - fee, "reporting_category": category, "source": source,
            "status": "available", "type": type,
        ]
    }

    /// A destination charge with its transfer, application fee and three balance transactions, `hour` hours
    /// into the stub's day. `tweak` edits the dictionaries before they are rendered.
    static func destinationCharge(
        _ name: String, hour: Int64 = 1, amount: Int64 = 10_000, feeAmount: Int64 = 1_230, currency: String = "usd",
        tweak: (inout [String: [String: Any]]) -> Void = { _ in }
    ) -> [StubStripe.Object] {
        let created = day + hour * 3_600
        let chargeID = "ch_\(name)"
        var parts: [String: [String: Any]] = [
            "charge": charge(
                id: chargeID, created: created, amount: amount, currency: currency, transfer: "tr_\(name)",
                fee: "fee_\(name)", feeAmount: feeAmount, balanceTransaction: "txn_ch_\(name)"),
            "transfer": transfer(
                id: "tr_\(name)", created: created, amount: amount, currency: currency, sourceCharge: chargeID,
                balanceTransaction: "txn_tr_\(name)"),
            "fee": applicationFee(
                id: "fee_\(name)", created: created, amount: feeAmount, currency: currency, charge: chargeID,
                balanceTransaction: "txn_fee_\(name)"),
            "txn_ch": balanceTransaction(
                id: "txn_ch_\(name)", created: created, amount: amount, fee: 320, currency: currency, source: chargeID,
                type: "charge", category: "charge"),
            "txn_tr": balanceTransaction(
                id: "txn_tr_\(name)", created: created, amount: -amount, currency: currency, source: "tr_\(name)",
                type: "transfer", category: "transfer"),
            "txn_fee": balanceTransaction(
                id: "txn_fee_\(name)", created: created, amount: feeAmount, currency: currency, source: "fee_\(name)",
                type: "application_fee", category: "platform_earning"),
        ]
        tweak(&parts)
        func object(_ key: String, _ resource: String) -> StubStripe.Object? {
            guard let value = parts[key] else { return nil }
            let id = value["id"] as? String ?? key
            var filters: [String: String] = [:]
            if let destination = value["destination"] as? String { filters["destination"] = destination }
            return StubStripe.Object(
                resource: resource, id: id, created: value["created"] as? Int64 ?? created, json: json(value),
                filters: filters)
        }
        return [
            object("charge", "charges"), object("transfer", "transfers"), object("fee", "application_fees"),
            object("txn_ch", "balance_transactions"), object("txn_tr", "balance_transactions"),
            object("txn_fee", "balance_transactions"),
        ].compactMap { $0 }
    }
}
