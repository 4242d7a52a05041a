import Foundation
import ReconCore
import Sandbox
import SandboxTruth
import Testing

/// The ground truth is computed from the generator's tables, the JSON is rendered from them separately: this
/// recomputes docs/RULES.md's figures from the served JSON alone and compares, so a renderer bug cannot hide.
@Suite struct ConsistencyTests {
    /// The `(net, currency)` of each expanded balance transaction named by `field` in `objects`.
    static func nets(_ objects: [[String: Any]], _ field: String = "balance_transaction") -> [(Int64, String)] {
        objects.compactMap { object in
            object.object(field).map { ($0.int("net") ?? 0, $0.string("currency") ?? "") }
        }
    }

    @Test func figuresRecomputedFromTheServedJSONMatchTheGroundTruth() async throws {
        let server = try await startServer(charges: 160, seed: 21)
        let connection = try WireConnection(port: server.port)
        let world = server.world
        let range = try ReportingRange(
            from: world.start, to: world.end, timeZone: TimeZone(identifier: "UTC") ?? .current)
        let truth = world.groundTruth(for: range, asOf: world.end, skippedTransferGrace: 3600)
        #expect(truth.platformFees.count > 50)
        let expand = "expand[]=transfer&expand[]=application_fee&expand[]=balance_transaction&expand[]=payment_intent"
        func balanceTransaction(_ id: String?) throws -> [(Int64, String)] {
            guard let id else { return [] }
            let bt = try connection.request("/v1/balance_transactions/\(id)").json()
            return [(bt.int("net") ?? 0, bt.string("currency") ?? "")]
        }

        var skippedFromJSON: Set<String> = []
        for row in truth.platformFees {
            let charge = try connection.request("/v1/charges/\(row.chargeID)?\(expand)").json()
            let transfer = charge.object("transfer")
            let fee = charge.object("application_fee")
            let intent = charge.object("payment_intent")
            let amount = charge.int("amount_captured") ?? 0
            // A fee in another currency counts converted back at the rate application_fee_amount gives.
            var feeKept: Int64 = 0
            if let fee {
                let feeAmount = fee.int("amount") ?? 0
                let kept = feeAmount - (fee.int("amount_refunded") ?? 0)
                if fee.string("currency") == charge.string("currency") {
                    feeKept = kept
                } else if let requested = intent?.int("application_fee_amount") ?? charge.int("application_fee_amount"),
                    feeAmount > 0
                {
                    feeKept = (2 * requested * kept + feeAmount) / (2 * feeAmount)
                }
                #expect(fee.string("currency") == row.applicationFeeCurrency?.rawValue)
            }
            let refunds =
                try connection.request(
                    "/v1/refunds?charge=\(row.chargeID)&limit=100&expand[]=data.balance_transaction"
                        + "&expand[]=data.failure_balance_transaction"
                ).json().list("data") ?? []
            // Stripe counts the refund of an uncaptured remainder in amount_refunded; docs/RULES.md does not.
            let remainder = refunds.filter { refund in
                refund.string("status") != "failed"
                    && (refund.string("reason") == "expired_uncaptured_charge"
                        || refund.object("balance_transaction")?.string("reporting_category")
                            == "partial_capture_reversal")
            }.reduce(Int64(0)) { $0 + ($1.int("amount") ?? 0) }
            let dpf =
                (amount - (charge.int("amount_refunded") ?? 0) + remainder)
                - ((transfer?.int("amount") ?? 0) - (transfer?.int("amount_reversed") ?? 0)) + feeKept
            #expect(dpf == row.destinationPlatformFee, "DPF of \(row.chargeID)")
            #expect(charge.object("balance_transaction")?.int("fee") ?? 0 == row.stripeFee)
            #expect(transfer?.string("id") == row.transferID)
            #expect(fee?.string("id") == row.applicationFeeID)

            // Platform net: the charge's BT, its refunds' (and their failures'), its transfer's and reversals', its
            // fee's and fee refunds', its disputes'; none when they are in more than one currency.
            var family = Self.nets([charge])
            family += Self.nets(refunds) + Self.nets(refunds, "failure_balance_transaction")
            if let transfer, let id = transfer.string("id") {
                family += try balanceTransaction(transfer.string("balance_transaction"))
                let reversals =
                    try connection.request("/v1/transfers/\(id)/reversals?limit=100&expand[]=data.balance_transaction")
                    .json().list("data") ?? []
                family += Self.nets(reversals)
            }
            if let fee, let id = fee.string("id") {
                family += try balanceTransaction(fee.string("balance_transaction"))
                let feeRefunds =
                    try connection.request(
                        "/v1/application_fees/\(id)/refunds?limit=100&expand[]=data.balance_transaction"
                    ).json().list("data") ?? []
                family += Self.nets(feeRefunds)
            }
            let disputes = try connection.request("/v1/disputes?charge=\(row.chargeID)").json().list("data") ?? []
            for dispute in disputes {
                family += (dispute.list("balance_transactions") ?? []).map {
                    ($0.int("net") ?? 0, $0.string("currency") ?? "")
                }
            }
            let net = Set(family.map(\.1)).count == 1 ? family.reduce(Int64(0)) { $0 + $1.0 } : nil
            #expect(net == row.platformNet, "platform net of \(row.chargeID)")

            // Skipped transfer, from the JSON alone.
            if charge.string("status") == "succeeded", intent?.object("transfer_data")?.string("destination") != nil,
                charge["transfer_data"] is NSNull, charge["transfer"] == nil || charge["transfer"] is NSNull,
                (charge.int("created") ?? 0) <= Int64(world.end.timeIntervalSince1970) - 3600
            {
                skippedFromJSON.insert(row.chargeID)
            }
        }
        #expect(skippedFromJSON == Set(truth.skippedTransfers.map(\.chargeID)))

        // The ledger: every balance transaction of the world, grouped.
        var ledger: [String: (count: Int, gross: Int64, fee: Int64, net: Int64)] = [:]
        var cursor: String?
        repeat {
            let json = try connection.request(
                "/v1/balance_transactions?limit=100" + (cursor.map { "&starting_after=\($0)" } ?? "")
            ).json()
            let data = json.list("data") ?? []
            for bt in data {
                let key =
                    "\(bt.string("currency") ?? "")/\(bt.string("balance_type") ?? "")/"
                    + "\(bt.string("reporting_category") ?? "")"
                let old = ledger[key] ?? (0, 0, 0, 0)
                ledger[key] = (
                    old.count + 1, old.gross + (bt.int("amount") ?? 0), old.fee + (bt.int("fee") ?? 0),
                    old.net + (bt.int("net") ?? 0)
                )
            }
            cursor = json["has_more"] as? Bool == true ? data.last?.string("id") : nil
        } while cursor != nil
        #expect(ledger.count == truth.ledger.count)
        for row in truth.ledger {
            let served = ledger["\(row.currency.rawValue)/\(row.balanceType)/\(row.reportingCategory)"]
            #expect(
                served?.count == row.count && served?.gross == row.gross && served?.fee == row.fee
                    && served?.net == row.net, "\(row)")
        }
        try await server.shutdown()
    }
}
