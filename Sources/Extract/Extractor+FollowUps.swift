import History
import Logging
import ReconCore
import StripeAPI

/// Follow-ups: planning them while the lists page, and fetching objects by id.
extension Extractor {
    /// Plans the lists of what each payout of the range paid out (`?payout=`), as soon as the payouts list has
    /// ended: they are as long as a day's balance transactions each, so they start long before the other follow-ups.
    func planPayoutLists(dispatcher: ExtractionDispatcher<Work>, _ context: Context) async throws {
        let needs = try await store.followUpNeeds(
            from: context.from, to: context.to, chain: context.chain, deferringRangeTransactions: true)
        var payoutLists = FollowUpNeeds()
        payoutLists.payoutTransactionLists = needs.payoutTransactionLists
        let items = await context.planner.work(for: payoutLists, listed: await context.tally.snapshot.objects)
        for item in items { await dispatcher.add(item) }
    }

    /// Plans the follow-ups while the balance transactions list still pages: everything but the balance
    /// transactions of the range's own objects, which that list brings.
    func planEarly(dispatcher: ExtractionDispatcher<Work>, _ context: Context) async throws {
        let needs = try await store.followUpNeeds(
            from: context.from, to: context.to, chain: context.chain, deferringRangeTransactions: true)
        let items = await context.planner.work(for: needs, listed: await context.tally.snapshot.objects)
        guard !items.isEmpty else { return }
        await context.planner.countRound()
        await progress?.followUpsPlanned(round: 1, count: items.count)
        logger.info("follow-ups while the lists page", metadata: ["requests": "\(items.count)"])
        for item in items { await dispatcher.add(item) }
    }

    func retrieve(_ item: Retrieve, _ context: Context) async throws {
        let tally = context.tally
        var batch = ObjectBatch()
        let found: Bool
        let id = item.id
        switch item.kind {
        case .charge:
            found = try await fetch(
                Charge.self, "/v1/charges/\(id)", "/v1/charges/{id}", [("expand[]", "payment_intent")]
            ) { Absorber.charge($0, raw: $1, into: &batch) }
        case .paymentIntent:
            found = try await fetch(PaymentIntent.self, "/v1/payment_intents/\(id)", "/v1/payment_intents/{id}", []) {
                Absorber.paymentIntent($0, raw: $1, into: &batch)
            }
        case .transfer:
            found = try await fetch(Transfer.self, "/v1/transfers/\(id)", "/v1/transfers/{id}", []) {
                Absorber.transfer($0, raw: $1, into: &batch)
            }
        case .applicationFee:
            found = try await fetch(
                ApplicationFee.self, "/v1/application_fees/\(id)", "/v1/application_fees/{id}", []
            ) { Absorber.applicationFee($0, raw: $1, into: &batch) }
        case .balanceTransaction:
            found = try await fetch(
                BalanceTransaction.self, "/v1/balance_transactions/\(id)", "/v1/balance_transactions/{id}", []
            ) { Absorber.balanceTransaction($0, raw: $1, into: &batch) }
        case .feeRefund, .transferReversal, .dispute, .refund, .payout:
            return  // reached through lists, never by id
        }
        if found {
            let total = await tally.count(resource: "follow-ups by id", objects: 1)
            let outcome = try await store.write(batch, run: context.runID, now: context.now)
            await tally.record(outcome, pages: 0)
            await progress?.pageStored(resource: "follow-ups by id", objects: 1, total: total)
        } else {
            logger.warning(
                "referenced object not found (404)", metadata: ["kind": "\(item.kind.rawValue)", "id": "\(id)"])
            try await store.recordMissing(
                kind: item.kind, id: id, referencedBy: "an object of the range", requestID: nil, run: context.runID)
            await tally.missing()
        }
    }

    func fetch<Object: StripeObject>(
        _ type: Object.Type, _ path: String, _ endpoint: String, _ query: [(String, String)],
        absorb: (Object, String) -> Void
    ) async throws -> Bool {
        guard let (object, raw) = try await client.retrieve(type, path: path, query: query, endpoint: endpoint) else {
            return false
        }
        absorb(object, raw)
        return true
    }
}
