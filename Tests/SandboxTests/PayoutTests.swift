import Foundation
import ReconCore
import Sandbox
import Testing

/// The platform's daily automatic payouts: one per settlement currency and day, each paying out what became
/// available, listed with its transactions by `GET /v1/balance_transactions?payout=`.
@Suite struct PayoutTests {
    static let day: Int64 = 86_400

    /// The payout's transactions as `?payout=` lists them, paged with `starting_after`.
    static func transactions(_ connection: WireConnection, payout: String) throws -> [[String: Any]] {
        try listAll(connection, "/v1/balance_transactions?payout=\(payout)")
    }

    @Test func everyDayFromTheThirdHasAPayoutPerCurrencyWithAPositiveAvailableBalance() async throws {
        // Given a 20-day world, its balance transactions and its payouts as served
        let server = try await startServer(charges: 1_500, seed: 4, days: 20)
        let connection = try WireConnection(port: server.port)
        let transactions = try listAll(connection, "/v1/balance_transactions")
        let payouts = try listAll(connection, "/v1/payouts")
        let start = Int64(server.world.start.timeIntervalSince1970)
        let end = Int64(server.world.end.timeIntervalSince1970)
        let world = Dictionary(uniqueKeysWithValues: server.world.payouts().map { ($0.id, $0) })
        #expect(!payouts.isEmpty)

        // When each day's available balance is recomputed from the transactions alone: what is available by the
        // day's midnight in the payments balance and not pending (a manual payout's own transaction among them: the
        // next automatic payout pays it out), less what earlier payouts paid out
        let manual = Set(payouts.filter { ($0["automatic"] as? Bool) == false }.compactMap { $0.string("id") })
        #expect(!manual.isEmpty, "the world has manual payouts")
        let payable = transactions.filter {
            (!["payout", "payout_failure"].contains($0.string("type") ?? "")
                || manual.contains($0.string("source") ?? ""))
                && $0.string("status") == "available" && $0.string("balance_type") == "payments"
        }
        var paidOut: [String: Int64] = [:]
        var days = 0
        for midnight in stride(from: start + 2 * Self.day, to: end - 6 * 3_600, by: Int(Self.day)) {
            for currency in ["usd", "gbp", "jpy", "bhd"] {
                let available = payable.filter {
                    $0.string("currency") == currency && ($0.int("available_on") ?? .max) <= midnight
                }.reduce(Int64(0)) { $0 + ($1.int("net") ?? 0) }
                let today = payouts.filter {
                    $0.string("currency") == currency && $0.int("created") == midnight + 6 * 3_600
                }
                // Then a currency with a positive balance has exactly one payout at 06:00, the others none
                let balance = available - paidOut[currency, default: 0]
                #expect(today.count == (balance > 0 ? 1 : 0), "\(currency) on day \((midnight - start) / Self.day)")
                for payout in today {
                    // What `?payout=` lists is all it paid out once its reconciliation is completed, part of it before
                    let id = payout.string("id") ?? ""
                    let listed = try Self.transactions(connection, payout: id).filter { $0.string("source") != id }
                        .reduce(Int64(0)) { $0 + ($1.int("net") ?? 0) }
                    let net = try #require(world[id]).netOfTransactions
                    #expect(net == balance, "\(id) pays out the whole available balance")
                    if payout.string("reconciliation_status") == "completed" { #expect(listed == net, "\(id)") }
                    paidOut[currency, default: 0] += net
                }
            }
            days += 1
        }
        #expect(days == 18)
        // And no payout is created before the world's third day; the manual ones at 15:00, attributed nothing
        #expect(payouts.allSatisfy { ($0.int("created") ?? 0) >= start + 2 * Self.day + 6 * 3_600 })
        for payout in payouts where manual.contains(payout.string("id") ?? "") {
            #expect((payout.int("created") ?? 0) % Self.day == 15 * 3_600)
            #expect(payout.string("reconciliation_status") == "not_applicable" && payout.string("method") == "instant")
        }
        try await server.shutdown()
    }

    @Test func aPayoutsListedTransactionsAddUpToItsAmountExceptTheDeliberateMismatches() async throws {
        // Given a world with every kind of payout
        let server = try await startServer(charges: 2_000, seed: 42)
        let connection = try WireConnection(port: server.port)
        let world = server.world
        let mismatches = Set(world.ids(for: .payoutMismatch))
        #expect(!mismatches.isEmpty)
        let truth = Dictionary(uniqueKeysWithValues: world.payouts().map { ($0.id, $0) })
        #expect(world.counts["payouts"] == truth.count)

        var paidOutAnywhere: [String: String] = [:]
        for payout in try listAll(connection, "/v1/payouts?expand[]=data.balance_transaction") {
            let id = try #require(payout.string("id"))
            let amount = try #require(payout.int("amount"))
            if (payout["automatic"] as? Bool) == false {
                // A manual payout's transactions cannot be listed: Stripe's 400
                let refused = try connection.request("/v1/balance_transactions?payout=\(id)")
                #expect(refused.status == 400)
                #expect(String(decoding: refused.body, as: UTF8.self).contains("automatic"))
                continue
            }
            // When its transactions are listed with `?payout=`
            let listed = try Self.transactions(connection, payout: id)

            // Then they hold its own payout transaction, newest, of −amount, sourced by the payout
            let own = try #require(payout.object("balance_transaction"))
            #expect(listed.first?.string("id") == own.string("id"), "\(id): its own transaction is the newest")
            #expect(own.string("type") == "payout" && own.string("reporting_category") == "payout")
            #expect(own.int("amount") == -amount && own.int("net") == -amount && own.string("source") == id)
            #expect(listed.filter { $0.string("source") == id }.count == 1)

            // And the others add up to its amount, except for the deliberate mismatches and the payouts Stripe is
            // still reconciling, whose list holds only the older half of what they paid out
            let others = listed.filter { $0.string("source") != id }
            let net = others.reduce(Int64(0)) { $0 + ($1.int("net") ?? 0) }
            let expected = try #require(truth[id])
            #expect(payout.string("reconciliation_status") == expected.reconciliationStatus)
            if expected.reconciliationStatus != "completed" {
                #expect(others.count == expected.balanceTransactionIDs.count / 2, "\(id) is listed in part")
                #expect(
                    Array(expected.balanceTransactionIDs.suffix(others.count)) == expected.listedBalanceTransactionIDs)
            } else if mismatches.contains(id) {
                #expect(net != amount, "\(id) is a deliberate mismatch")
                let granularity: Int64 = payout.string("currency") == "bhd" ? 10 : 1
                #expect(amount - net == 100 * granularity)
            } else {
                #expect(net == amount, "\(id)")
            }
            // And they are what the world's accessor says, each paid out once, in the payout's currency
            #expect(others.compactMap { $0.string("id") } == expected.listedBalanceTransactionIDs)
            if expected.reconciliationStatus == "completed" {
                #expect(expected.listedBalanceTransactionIDs == expected.balanceTransactionIDs)
                #expect(expected.netOfTransactions == net)
            }
            #expect(expected.amount == amount)
            #expect(expected.isMismatch == mismatches.contains(id))
            for transaction in others {
                let transactionID = transaction.string("id") ?? ""
                #expect(paidOutAnywhere.updateValue(id, forKey: transactionID) == nil, "\(transactionID) paid twice")
                #expect(transaction.string("currency") == payout.string("currency"))
                #expect((transaction.int("available_on") ?? .max) < (payout.int("created") ?? 0))
            }
        }
        #expect(paidOutAnywhere.count > 1_000)
        try await server.shutdown()
    }

    @Test func aPayoutsTransactionsListSplitsIntoCreatedWindowsAsStripesDoes() async throws {
        // Given the world's payout that paid out the most transactions
        let server = try await startServer(charges: 2_000, seed: 42)
        let connection = try WireConnection(port: server.port)
        var largest: (id: String, listed: [[String: Any]]) = ("", [])
        for payout in try listAll(connection, "/v1/payouts") where (payout["automatic"] as? Bool) != false {
            let id = try #require(payout.string("id"))
            let listed = try Self.transactions(connection, payout: id)
            if listed.count > largest.listed.count { largest = (id, listed) }
        }
        #expect(largest.listed.count > 100, "a payout whose list takes several pages")
        let created = largest.listed.compactMap { $0.int("created") }
        let (oldest, newest) = (try #require(created.min()), try #require(created.max()))

        // When its `?payout=` list is read in four `created` windows (Stripe's balance transactions list takes
        // `created[gte]` and `created[lt]` together with `payout`), each paged on its own
        let step = max(1, (newest + 1 - oldest + 3) / 4)
        var windows: [[[String: Any]]] = []
        var start = oldest
        while start <= newest {
            let end = start + step
            windows.append(
                try listAll(
                    connection,
                    "/v1/balance_transactions?payout=\(largest.id)&created[gte]=\(start)&created[lt]=\(end)"))
            start = end
        }

        // Then each window holds only its own transactions, newest first, and together they are the whole list,
        // each once and in the same order
        start = oldest
        for window in windows {
            let times = window.compactMap { $0.int("created") }
            #expect(times.allSatisfy { start <= $0 && $0 < start + step })
            #expect(times == times.sorted(by: >))
            start += step
        }
        let joined = windows.reversed().flatMap { $0 }.compactMap { $0.string("id") }
        #expect(joined == largest.listed.compactMap { $0.string("id") })
        // And a window the payout paid nothing out in is an empty list, not an error
        let before = try connection.object(
            "/v1/balance_transactions?payout=\(largest.id)&created[lt]=\(oldest)")
        #expect((before["data"] as? [Any])?.isEmpty == true && (before["has_more"] as? Bool) == false)
        try await server.shutdown()
    }

    @Test func failedPayoutsHaveAPayoutFailureTransaction() async throws {
        // Given a world's failed payouts
        let server = try await startServer(charges: 2_000, seed: 42)
        let connection = try WireConnection(port: server.port)
        let failed = server.world.ids(for: .payoutFailed)
        let failedLate = Set(server.world.ids(for: .latePayoutFailed))
        let end = Int64(server.world.end.timeIntervalSince1970)
        #expect(!failed.isEmpty)
        #expect(!failedLate.isEmpty && failedLate.isSubset(of: Set(failed)))

        for id in failed {
            // When one is retrieved with its failure transaction expanded
            let payout = try connection.request("/v1/payouts/\(id)?expand[]=failure_balance_transaction").json()

            // Then it failed because the account was closed, and its funds came back a day later (or, for the one
            // paid first, during the world's last day)
            #expect(payout.string("status") == "failed")
            #expect(payout.string("failure_code") == "account_closed")
            #expect(payout.string("failure_message")?.isEmpty == false)
            let failure = try #require(payout.object("failure_balance_transaction"))
            #expect(failure.string("type") == "payout_failure")
            #expect(failure.string("reporting_category") == "payout_reversal")
            #expect(failure.int("amount") == payout.int("amount"))
            if failedLate.contains(id) {
                #expect((failure.int("created") ?? 0) >= end - Self.day && (failure.int("created") ?? 0) < end)
                #expect((payout.int("arrival_date") ?? .max) <= end - Self.day)
            } else {
                #expect(failure.int("created") == (payout.int("created") ?? 0) + Self.day)
            }
            #expect(failure.string("source") == id)
        }
        // And the other payouts have no failure
        let failedSet = Set(failed)
        let others = try listAll(connection, "/v1/payouts").filter { !failedSet.contains($0.string("id") ?? "") }
        for payout in others {
            #expect(payout["failure_balance_transaction"] is NSNull)
            #expect(payout["failure_code"] is NSNull)
            #expect(["paid", "in_transit"].contains(payout.string("status") ?? ""))
        }
        try await server.shutdown()
    }

    @Test func aPayoutIsPaidOnceItsArrivalDateHasComeAndInTransitBefore() async throws {
        // Given a world's payouts
        let server = try await startServer(charges: 600, seed: 6, days: 12)
        let end = Int64(server.world.end.timeIntervalSince1970)
        let payouts = try listAll(try WireConnection(port: server.port), "/v1/payouts")
        #expect(!payouts.isEmpty)
        for payout in payouts where payout.string("status") != "failed" && (payout["automatic"] as? Bool) != false {
            // Then the arrival date is two days after the day it was created, at midnight
            let created = payout.int("created") ?? 0
            let arrival = payout.int("arrival_date") ?? 0
            #expect(arrival == created - created % Self.day + 2 * Self.day)
            // And it is paid once that date has come, in transit before
            #expect(payout.string("status") == (arrival <= end ? "paid" : "in_transit"))
        }
        #expect(payouts.contains { $0.string("status") == "in_transit" })
        #expect(payouts.contains { $0.string("status") == "paid" })
        try await server.shutdown()
    }

    @Test func payoutsHaveTheFieldsOfStripesPayoutObject() async throws {
        // Given a payout as the sandbox serves it
        let server = try await startServer(charges: 300, seed: 12)
        let connection = try WireConnection(port: server.port)
        let payout = try #require(try connection.request("/v1/payouts?limit=1").json().list("data")?.first)

        // Then it has the payout object's fields (stripe-node's `Payout`, API version 2026-07-29)
        let fields: Set<String> = [
            "id", "object", "amount", "application_fee", "application_fee_amount", "arrival_date", "automatic",
            "balance_transaction", "created", "currency", "description", "destination", "failure_balance_transaction",
            "failure_code", "failure_message", "livemode", "metadata", "method", "original_payout", "payout_method",
            "reconciliation_status", "reversed_by", "source_type", "statement_descriptor", "status", "trace_id", "type",
        ]
        #expect(Set(payout.keys) == fields)
        #expect(payout.string("object") == "payout")
        #expect(payout.string("id")?.hasPrefix("po_") == true)
        #expect(payout.string("destination")?.hasPrefix("ba_") == true)
        #expect(payout["automatic"] as? Bool == true)
        let reconciliation = server.world.payouts().first { $0.id == payout.string("id") }?.reconciliationStatus
        #expect(payout.string("reconciliation_status") == reconciliation)
        #expect(["completed", "in_progress"].contains(reconciliation))
        #expect(payout.string("type") == "bank_account" && payout.string("method") == "standard")

        // And its balance transaction's source expands to the payout itself
        let ownID = try #require(payout.string("balance_transaction"))
        let own = try connection.request("/v1/balance_transactions/\(ownID)?expand[]=source").json()
        #expect(own.object("source")?.string("id") == payout.string("id"))
        #expect(own.string("description") == "STRIPE PAYOUT")
        let bySource = try connection.request("/v1/balance_transactions?source=\(payout.string("id") ?? "")").json()
        #expect(bySource.list("data")?.first?.string("id") == ownID)
        try await server.shutdown()
    }

    @Test func thePayoutListFiltersByStatusAndRejectsUnknownParameters() async throws {
        // Given a world with paid, in-transit and failed payouts
        let server = try await startServer(charges: 2_000, seed: 42)
        let connection = try WireConnection(port: server.port)
        let all = try listAll(connection, "/v1/payouts")

        // When the list is filtered by each status, then it holds exactly the payouts of that status
        for status in ["paid", "in_transit", "failed"] {
            let filtered = try listAll(connection, "/v1/payouts?status=\(status)")
            #expect(!filtered.isEmpty, "\(status)")
            let expected = all.filter { $0.string("status") == status }.map { $0.string("id") }
            #expect(filtered.map { $0.string("id") } == expected)
        }
        // And an unknown parameter or expansion is Stripe's 400
        #expect(try connection.request("/v1/payouts?statuss=paid").status == 400)
        #expect(try connection.request("/v1/payouts?expand[]=data.charge").status == 400)
        // And an id of no payout lists no transactions
        #expect(try connection.request("/v1/balance_transactions?payout=po_nope").json().list("data")?.isEmpty == true)
        #expect(try connection.request("/v1/payouts/po_nope").status == 404)
        try await server.shutdown()
    }
}
