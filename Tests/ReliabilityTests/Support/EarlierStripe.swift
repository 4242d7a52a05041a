import Foundation
import Sandbox
import TestSupport

/// The sandbox as Stripe showed it earlier: a proxy that rewrites the sandbox's answers so that some later events
/// have not happened yet. A run through it, then a run straight to the sandbox, is two runs of one range with
/// Stripe moving on in between.
///
/// Only the answers that hold a rewritten object are re-encoded (with `JSONSerialization`, so their members may
/// come in another order); every other answer is relayed byte for byte.
final class EarlierStripe: Sendable {
    /// A refund that has not failed yet: it shows `succeeded` without its failure fields, its charge still counts
    /// it in `amount_refunded`, and its `refund_failure` balance transaction does not exist.
    struct UnfailedRefund: Sendable {
        var refundID: String
        var chargeID: String
        var amount: Int64
        var failureTransactionID: String
    }

    let refund: UnfailedRefund?
    /// A payout Stripe is still reconciling: `reconciliation_status` `in_progress`, and `?payout=` lists only the
    /// first `listed` of its balance transactions.
    let inProgressPayout: (id: String, listed: Int)?
    private let upstreamPort: Int

    private init(upstreamPort: Int, refund: UnfailedRefund?, inProgressPayout: (id: String, listed: Int)?) {
        self.upstreamPort = upstreamPort
        self.refund = refund
        self.inProgressPayout = inProgressPayout
    }

    /// Starts the proxy in front of `sandbox`, runs `body` with its server, stops it.
    static func with<T>(
        _ sandbox: SandboxServer, refund: UnfailedRefund? = nil, inProgressPayout: (id: String, listed: Int)? = nil,
        _ body: (StubServer) async throws -> T
    ) async throws -> T {
        let proxy = EarlierStripe(upstreamPort: sandbox.port, refund: refund, inProgressPayout: inProgressPayout)
        return try await StubServer.with({ request in .computed { await proxy.reply(to: request) } }) { server in
            try await body(server)
        }
    }

    private func reply(to request: StubServer.Request) async -> StubServer.Reply {
        let answer = await SandboxRelay.forward(request, port: upstreamPort)
        guard case .response(let status, let headers, let body) = answer, status == 200,
            var json = try? JSONSerialization.jsonObject(with: Data(body))
        else { return answer }
        var changed = rewrite(&json)
        if let payout = inProgressPayout, request.uri.contains("payout=\(payout.id)"),
            var list = json as? [String: Any], let data = list["data"] as? [Any]
        {
            list["data"] = Array(data.prefix(payout.listed))
            list["has_more"] = false
            json = list
            changed = true
        }
        guard changed, let data = try? JSONSerialization.data(withJSONObject: json) else { return answer }
        return .response(status: status, headers: headers, body: Array(data))
    }

    /// Rewrites every object in `value` that had not happened yet; whether anything changed.
    private func rewrite(_ value: inout Any) -> Bool {
        var changed = false
        if var array = value as? [Any] {
            for index in array.indices where rewrite(&array[index]) { changed = true }
            if changed { value = array }
            return changed
        }
        guard var object = value as? [String: Any] else { return false }
        for key in Array(object.keys) {
            guard var member = object[key] else { continue }
            if rewrite(&member) {
                object[key] = member
                changed = true
            }
        }
        let id = object["id"] as? String
        if let refund {
            if id == refund.refundID {
                object["status"] = "succeeded"
                object.removeValue(forKey: "failure_balance_transaction")
                object.removeValue(forKey: "failure_reason")
                changed = true
            }
            if id == refund.chargeID, let refunded = (object["amount_refunded"] as? NSNumber)?.int64Value,
                let amount = (object["amount_captured"] as? NSNumber)?.int64Value
            {
                object["amount_refunded"] = refunded + refund.amount
                object["refunded"] = refunded + refund.amount >= amount
                changed = true
            }
            if object["object"] as? String == "list", let data = object["data"] as? [Any] {
                let kept = data.filter { ($0 as? [String: Any])?["id"] as? String != refund.failureTransactionID }
                if kept.count != data.count {
                    object["data"] = kept
                    changed = true
                }
            }
        }
        if let payout = inProgressPayout, id == payout.id {
            object["reconciliation_status"] = "in_progress"
            changed = true
        }
        if changed { value = object }
        return changed
    }
}
