import Foundation
import ReconCore
import Sandbox
import TestSupport

/// Every object of a sandbox world as reconciler facts (an ``ObjectLists``), read the way the job reads Stripe: the
/// list endpoints paged with `starting_after`, the nested reversal and fee-refund lists past their embedded first 10,
/// and each JSON object converted field by field (test-only; the product's mapping lives in Extract and goes through
/// StripeAPI's models, which this test deliberately does not use).
enum SandboxFacts {}

extension ObjectLists {
    /// The input for `[from, to)` holding every object of the world (any creation time).
    func input(from: Int64, to: Int64, asOf: Int64, grace: Int64) -> ReconciliationInput {
        ReconciliationInput(from: from, to: to, asOf: asOf, skippedTransferGrace: grace, objects: self)
    }

    /// Only what docs/EXTRACTION.md's extraction holds for `[from, to)`: the objects created in the range, plus what
    /// they refer to at any creation time — the charges (and their PaymentIntents, transfers, application fees) of the
    /// range's refunds and disputes, the source charge of a transfer, the transfers of the transfer groups of those
    /// charges, every reversal of a transfer and refund of a
    /// fee, every refund and dispute of a charge (the platform net counts them "whenever created"), the transfer
    /// that repays a dispute (found by searching the destination's transfers since the dispute), the range's
    /// payouts with what `?payout=` lists for them, and the balance transactions all of these name.
    func closure(from: Int64, to: Int64) -> ObjectLists {
        func inRange(_ created: Int64) -> Bool { from <= created && created < to }
        var chargeIDs = Set(charges.filter { inRange($0.created) }.map(\.id))
        chargeIDs.formUnion(refunds.filter { inRange($0.created) }.compactMap(\.chargeID))
        chargeIDs.formUnion(disputes.filter { inRange($0.created) }.map(\.chargeID))
        chargeIDs.formUnion(transfers.filter { inRange($0.created) }.compactMap(\.sourceTransactionID))
        var result = ObjectLists()
        result.charges = charges.filter { chargeIDs.contains($0.id) }
        let intentIDs = Set(result.charges.compactMap(\.paymentIntentID))
        result.paymentIntents = paymentIntents.filter { intentIDs.contains($0.id) || inRange($0.created) }
        let transferIDs = Set(result.charges.compactMap(\.transferID))
        result.transfers = transfers.filter { transferIDs.contains($0.id) || inRange($0.created) }
        let feeIDs = Set(result.charges.compactMap(\.applicationFeeID))
        result.applicationFees = applicationFees.filter { feeIDs.contains($0.id) || inRange($0.created) }
        result.refunds = refunds.filter { inRange($0.created) || $0.chargeID.map(chargeIDs.contains) == true }
        result.disputes = disputes.filter { inRange($0.created) || chargeIDs.contains($0.chargeID) }
        // The extraction lists the transfers of the groups its charges belong to (`?transfer_group=`), whenever made;
        // a charge tied only by `source_transaction` has its group by the transfers naming it.
        let intents = Dictionary(paymentIntents.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var groups = Set<String>()
        for charge in result.charges {
            let intent = charge.paymentIntentID.flatMap { intents[$0] }
            guard charge.canBelongToTransferGroup(intent: intent) else { continue }
            groups.insert(charge.namedTransferGroup(intent: intent) ?? charge.id)
        }
        let grouped = Set(result.transfers.map(\.id))
        result.transfers += transfers.filter {
            !grouped.contains($0.id) && $0.transferGroupKey.map(groups.contains) == true
        }
        // The extraction searches a won dispute's destination for the transfer that repays it, whenever made.
        let disputeIDs = Set(result.disputes.map(\.id))
        let listed = Set(result.transfers.map(\.id))
        result.transfers += transfers.filter {
            !listed.contains($0.id) && $0.disputeIDMetadata.map(disputeIDs.contains) == true
        }
        let keptTransfers = Set(result.transfers.map(\.id))
        result.transferReversals = transferReversals.filter { keptTransfers.contains($0.transferID) }
        let keptFees = Set(result.applicationFees.map(\.id))
        result.feeRefunds = feeRefunds.filter { keptFees.contains($0.feeID) }
        var named = Set<String>()
        named.formUnion(result.charges.compactMap(\.balanceTransactionID))
        named.formUnion(result.transfers.compactMap(\.balanceTransactionID))
        named.formUnion(result.transferReversals.compactMap(\.balanceTransactionID))
        named.formUnion(result.applicationFees.compactMap(\.balanceTransactionID))
        named.formUnion(result.feeRefunds.compactMap(\.balanceTransactionID))
        named.formUnion(result.refunds.compactMap(\.balanceTransactionID))
        named.formUnion(result.refunds.compactMap(\.failureBalanceTransactionID))
        named.formUnion(result.disputes.flatMap(\.balanceTransactionIDs))
        result.payouts = payouts.filter { inRange($0.created) }
        let payoutIDs = Set(result.payouts.map(\.id))
        result.payoutTransactions = payoutTransactions.filter { payoutIDs.contains($0.payoutID) }
        named.formUnion(result.payoutTransactions.map(\.balanceTransactionID))
        result.balanceTransactions = balanceTransactions.filter { inRange($0.created) || named.contains($0.id) }
        return result
    }

}

extension SandboxFacts {
    /// Starts a sandbox for the world, reads all of it, and stops the sandbox.
    static func load(
        seed: UInt64, charges: Int, start: Date, days: Int, transferGroupShare: Double = 0
    ) async throws -> (SandboxWorld, ObjectLists) {
        var options = SandboxOptions()
        options.transferGroupShare = transferGroupShare
        options.seed = seed
        options.charges = charges
        options.start = start
        options.days = days
        let server = try await SandboxServer.start(options)
        do {
            // The raw client blocks: read on a thread of its own, not one of the cooperative pool's (two here),
            // which every other test of the run needs meanwhile.
            let port = server.port
            let facts = try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(with: Result { try read(port: port) }) }
            }
            try await server.shutdown()
            return (server.world, facts)
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    private static let key = "sk_test_51ReconcileTests000000000000001"

    static func read(port: Int) throws -> ObjectLists {
        let connection = try WireConnection(port: port, key: key)
        var facts = ObjectLists()
        var reversalIDs: Set<String> = []
        var feeRefundIDs: Set<String> = []
        for object in try connection.list("/v1/charges") { facts.charges.append(try JSONFacts.charge(object)) }
        for object in try connection.list("/v1/payment_intents") {
            facts.paymentIntents.append(try JSONFacts.paymentIntent(object))
        }
        for object in try connection.list("/v1/transfers") {
            let transfer = try JSONFacts.transfer(object)
            facts.transfers.append(transfer)
            let nested = try JSONFacts.nested(object, "reversals", connection: connection)
            for item in nested {
                let reversal = try JSONFacts.reversal(item)
                if reversalIDs.insert(reversal.id).inserted { facts.transferReversals.append(reversal) }
            }
        }
        for object in try connection.list("/v1/application_fees") {
            facts.applicationFees.append(try JSONFacts.applicationFee(object))
            for item in try JSONFacts.nested(object, "refunds", connection: connection) {
                let refund = try JSONFacts.feeRefund(item)
                if feeRefundIDs.insert(refund.id).inserted { facts.feeRefunds.append(refund) }
            }
        }
        for object in try connection.list("/v1/refunds") { facts.refunds.append(try JSONFacts.refund(object)) }
        for object in try connection.list("/v1/disputes") { facts.disputes.append(try JSONFacts.dispute(object)) }
        for object in try connection.list("/v1/balance_transactions") {
            facts.balanceTransactions.append(try JSONFacts.balanceTransaction(object))
        }
        for object in try connection.list("/v1/payouts") {
            let payout = try JSONFacts.payout(object)
            facts.payouts.append(payout)
            // Stripe itemises automatic payouts only: a manual one's list is a 400.
            guard payout.automatic else { continue }
            for item in try connection.list("/v1/balance_transactions?payout=" + payout.id) {
                facts.payoutTransactions.append(
                    PayoutTransactionLink(payoutID: payout.id, balanceTransactionID: try JSONFacts.string(item, "id")))
            }
        }
        return facts
    }
}

// MARK: - JSON → facts

struct FactsConversionError: Error, CustomStringConvertible {
    var description: String
}

enum JSONFacts {
    typealias Object = [String: Any]

    static func charge(_ o: Object) throws -> ChargeFacts {
        let transferData = o["transfer_data"] as? Object
        return ChargeFacts(
            id: try string(o, "id"), created: try int(o, "created"), currency: try currency(o),
            amount: try int(o, "amount"), amountCaptured: try int(o, "amount_captured"),
            amountRefunded: try int(o, "amount_refunded"), status: .init(rawValue: try string(o, "status")),
            captured: (o["captured"] as? Bool) ?? false, paymentIntentID: reference(o["payment_intent"]),
            transferID: reference(o["transfer"]), applicationFeeID: reference(o["application_fee"]),
            applicationFeeAmount: optionalInt(o["application_fee_amount"]),
            destinationAccountID: reference(transferData?["destination"]),
            transferDataAmount: optionalInt(transferData?["amount"]),
            balanceTransactionID: reference(o["balance_transaction"]), livemode: (o["livemode"] as? Bool) ?? false,
            transferGroup: o["transfer_group"] as? String, disputed: (o["disputed"] as? Bool) ?? false)
    }

    static func paymentIntent(_ o: Object) throws -> PaymentIntentFacts {
        let transferData = o["transfer_data"] as? Object
        return PaymentIntentFacts(
            id: try string(o, "id"), created: try int(o, "created"), currency: try currency(o),
            amount: try int(o, "amount"), applicationFeeAmount: optionalInt(o["application_fee_amount"]),
            destinationAccountID: reference(transferData?["destination"]),
            transferDataAmount: optionalInt(transferData?["amount"]), status: .init(rawValue: try string(o, "status")),
            latestChargeID: reference(o["latest_charge"]), livemode: (o["livemode"] as? Bool) ?? false,
            transferGroup: o["transfer_group"] as? String)
    }

    static func transfer(_ o: Object) throws -> TransferFacts {
        TransferFacts(
            id: try string(o, "id"), created: try int(o, "created"), currency: try currency(o),
            amount: try int(o, "amount"), amountReversed: try int(o, "amount_reversed"),
            destinationAccountID: reference(o["destination"]), sourceTransactionID: reference(o["source_transaction"]),
            balanceTransactionID: reference(o["balance_transaction"]), transferGroup: o["transfer_group"] as? String,
            disputeIDMetadata: (o["metadata"] as? Object)?["dispute_id"] as? String,
            livemode: (o["livemode"] as? Bool) ?? false)
    }

    static func reversal(_ o: Object) throws -> TransferReversalFacts {
        TransferReversalFacts(
            id: try string(o, "id"), transferID: try required(reference(o["transfer"]), "transfer"),
            created: try int(o, "created"), currency: try currency(o), amount: try int(o, "amount"),
            sourceRefundID: reference(o["source_refund"]), balanceTransactionID: reference(o["balance_transaction"]),
            disputeIDMetadata: (o["metadata"] as? Object)?["dispute_id"] as? String)
    }

    static func applicationFee(_ o: Object) throws -> ApplicationFeeFacts {
        ApplicationFeeFacts(
            id: try string(o, "id"), created: try int(o, "created"), currency: try currency(o),
            amount: try int(o, "amount"), amountRefunded: try int(o, "amount_refunded"),
            originatingChargeID: reference(o["originating_transaction"]), accountID: reference(o["account"]),
            balanceTransactionID: reference(o["balance_transaction"]), livemode: (o["livemode"] as? Bool) ?? false)
    }

    static func feeRefund(_ o: Object) throws -> FeeRefundFacts {
        FeeRefundFacts(
            id: try string(o, "id"), feeID: try required(reference(o["fee"]), "fee"), created: try int(o, "created"),
            currency: try currency(o), amount: try int(o, "amount"),
            balanceTransactionID: reference(o["balance_transaction"]))
    }

    static func refund(_ o: Object) throws -> RefundFacts {
        RefundFacts(
            id: try string(o, "id"), chargeID: reference(o["charge"]), created: try int(o, "created"),
            currency: try currency(o), amount: try int(o, "amount"),
            status: (o["status"] as? String).map { .init(rawValue: $0) },
            transferReversalID: reference(o["transfer_reversal"]),
            balanceTransactionID: reference(o["balance_transaction"]),
            failureBalanceTransactionID: reference(o["failure_balance_transaction"]),
            failureReason: o["failure_reason"] as? String, reason: (o["reason"] as? String).map { .init(rawValue: $0) })
    }

    static func dispute(_ o: Object) throws -> DisputeFacts {
        DisputeFacts(
            id: try string(o, "id"), chargeID: try required(reference(o["charge"]), "charge"),
            created: try int(o, "created"), currency: try currency(o), amount: try int(o, "amount"),
            status: .init(rawValue: try string(o, "status")),
            balanceTransactionIDs: ((o["balance_transactions"] as? [Any]) ?? []).compactMap { reference($0) })
    }

    static func balanceTransaction(_ o: Object) throws -> BalanceTransactionFacts {
        BalanceTransactionFacts(
            id: try string(o, "id"), created: try int(o, "created"), currency: try currency(o),
            amount: try int(o, "amount"), fee: try int(o, "fee"), net: try int(o, "net"),
            type: .init(rawValue: try string(o, "type")),
            reportingCategory: .init(rawValue: try string(o, "reporting_category")), sourceID: reference(o["source"]),
            exchangeRate: (o["exchange_rate"] as? NSNumber)?.doubleValue,
            status: .init(rawValue: try string(o, "status")),
            availableOn: try int(o, "available_on"),
            balanceType: (o["balance_type"] as? String).map { .init(rawValue: $0) })
    }

    static func payout(_ o: Object) throws -> PayoutFacts {
        PayoutFacts(
            id: try string(o, "id"), created: try int(o, "created"), currency: try currency(o),
            amount: try int(o, "amount"), arrivalDate: try int(o, "arrival_date"),
            status: .init(rawValue: try string(o, "status")),
            automatic: (o["automatic"] as? Bool) ?? false, balanceTransactionID: reference(o["balance_transaction"]),
            failureBalanceTransactionID: reference(o["failure_balance_transaction"]),
            failureCode: o["failure_code"] as? String, livemode: (o["livemode"] as? Bool) ?? false,
            reconciliationStatus: (o["reconciliation_status"] as? String).map { .init(rawValue: $0) })
    }

    /// The embedded first page of a nested list plus the rest, paged from its `url`.
    static func nested(_ o: Object, _ field: String, connection: WireConnection) throws -> [Object] {
        guard let list = o[field] as? Object else { throw FactsConversionError(description: "no \(field) list") }
        let embedded = (list["data"] as? [Object]) ?? []
        guard (list["has_more"] as? Bool) == true, let url = list["url"] as? String else { return embedded }
        return try connection.list(url)
    }

    // MARK: Fields

    static func reference(_ value: Any?) -> String? {
        if let id = value as? String { return id }
        return (value as? Object)?["id"] as? String
    }

    static func optionalInt(_ value: Any?) -> Int64? { (value as? NSNumber)?.int64Value }

    static func int(_ o: Object, _ key: String) throws -> Int64 {
        try required(optionalInt(o[key]), key)
    }

    static func string(_ o: Object, _ key: String) throws -> String {
        try required(o[key] as? String, key)
    }

    static func currency(_ o: Object) throws -> Currency {
        try Currency(code: try string(o, "currency"))
    }

    static func required<T>(_ value: T?, _ key: String) throws -> T {
        guard let value else { throw FactsConversionError(description: "missing field \(key)") }
        return value
    }
}
