import Foundation
import ReconCore

extension Router {
    /// The platform's balance as of the world's clock (`GET /v1/balance`): every balance transaction created before
    /// it, per balance type and settlement currency, `available` once its `available_on` has passed and it is not
    /// held pending, `pending` otherwise (Stripe's live balance: a payout leaves it when it is created). The response's
    /// `Date` is the world's clock, the moment the balance describes.
    func balance(query: [(String, String)]) throws(RequestFailure) -> SandboxResponse {
        try checkParameters(query, allowed: [])
        let bts = storage.balanceTransactions
        var available: [WorldBalanceType: [WorldCurrency: Int64]] = [:]
        var pending: [WorldBalanceType: [WorldCurrency: Int64]] = [:]
        for index in 0..<bts.count where bts.created[index] < storage.end {
            let net = bts.amount[index] - bts.fee[index]
            let type = bts.balanceType[index]
            let currency = bts.currency[index]
            if bts.pending[index] || bts.availableOn[index] > storage.end {
                pending[type, default: [:]][currency, default: 0] += net
            } else {
                available[type, default: [:]][currency, default: 0] += net
            }
        }
        let held = Set([available, pending].flatMap { $0.values.flatMap(\.keys) })
        let settlement = WorldCurrency.allCases.filter { $0.settlement == $0 || held.contains($0) }
        let writer = JSONWriter(ids: storage.ids, capacity: 2_048)
        func amounts(_ name: StaticString, _ sums: [WorldCurrency: Int64]?, all: Bool) {
            writer.arrayField(name) {
                for currency in settlement where all || sums?[currency] != nil {
                    writer.object {
                        writer.field("amount", sums?[currency] ?? 0)
                        writer.field("currency", currency.code)
                        writer.field("source_types") { writer.field("card", sums?[currency] ?? 0) }
                    }
                }
            }
        }
        writer.object {
            writer.field("object", "balance")
            amounts("available", available[.payments], all: true)
            amounts("instant_available", available[.payments], all: true)
            writer.field("livemode", false)
            amounts("pending", pending[.payments], all: true)
            writer.field("refund_and_dispute_prefunding") {
                amounts("available", available[.refundAndDisputePrefunding], all: true)
                amounts("pending", pending[.refundAndDisputePrefunding], all: true)
            }
            writer.field("issuing") {
                amounts("available", available[.issuing], all: true)
            }
        }
        return SandboxResponse(status: 200, headers: [("Date", Self.httpDate(storage.end))], body: writer.bytes)
    }

    /// `Sat, 28 Nov 2026 00:30:07 GMT`.
    static func httpDate(_ unixSeconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(unixSeconds)))
    }
}
