import History
import Logging
import ReconCore
import StripeAPI

/// The follow-ups of an extraction: planning them from what the history lacks of the range (``RangeGaps``,
/// through the ``FollowUpPlanner``) while the lists page, and fetching objects by id.
struct FollowUpRunner: Sendable {
    let client: StripeClient
    let store: HistoryStore
    let logger: Logger
    let progress: (any ExtractionProgress)?

    /// Plans the lists of what each payout of the range paid out (`?payout=`), as soon as the payouts list has
    /// ended: they are as long as a day's balance transactions each, so they start long before the other follow-ups.
    func planPayoutLists(dispatcher: ExtractionDispatcher<ExtractionWork>, _ context: ExtractionContext) async throws {
        var payoutLists = RangeGaps()
        payoutLists.payoutTransactionLists = try await store.gaps.unlistedPayouts(
            from: context.from, to: context.to, chain: context.chain)
        let items = await context.planner.work(for: payoutLists, listed: await context.tally.snapshot.objects)
        for item in items { await dispatcher.add(item) }
    }

    /// Plans the follow-ups while the balance transactions list still pages: everything but the balance
    /// transactions of the range's own objects, which that list brings.
    func planEarly(dispatcher: ExtractionDispatcher<ExtractionWork>, _ context: ExtractionContext) async throws {
        // Not the reversals of earlier transfers yet: while the lists page, a reversal of one of the range's own
        // transfers may still come with its transfer.
        let gaps = try await store.gaps.inRange(
            from: context.from, to: context.to, chain: context.chain, debitLinkKeys: context.debitLinkKeys)
        let items = await context.planner.work(
            for: gaps, listsPaging: true, listed: await context.tally.snapshot.objects)
        guard !items.isEmpty else { return }
        await context.planner.countRound()
        await progress?.followUpsPlanned(round: 1, count: items.count)
        logger.info("follow-ups while the lists page", metadata: ["requests": "\(items.count)"])
        for item in items { await dispatcher.add(item) }
    }

    /// What a balance transaction naming a transfer reversal the history lacks is retrieved with: the reversal,
    /// and its transfer as it is now (its `amount_reversed` and embedded reversals), in one request.
    static let reversalExpansions = ["source.transfer"]

    /// Retrieves one object by id and stores it with what it embeds; a 404 is recorded for the reconciler. A late
    /// outcome read again (`lateRead`) asks for the kind's late-read expansions; `expansions`, when given, replace
    /// the kind's.
    func retrieve(
        _ kind: ObjectKind, id: String, lateRead: Bool = false, expansions: [String]? = nil,
        _ context: ExtractionContext
    ) async throws {
        // A kind without an endpoint of its own (reversals, fee refunds) is reached through its parent's list.
        guard kind.entry.listPath != nil else { return }
        let expansions = expansions ?? (lateRead ? kind.entry.lateReadExpansions : kind.entry.retrieveExpansions)
        _ = try await retrieveAndStore(kind.wireModel, id: id, expansions: expansions, lateRead: lateRead, context)
    }

    /// Retrieves a `connect_collection_transfer` balance transaction with its source expanded, stores it, and records
    /// the connected account the source names (none when it names none, or was sent as its id alone: the reconciler
    /// counts that loss with no account and says so); a 404 is recorded for the reconciler.
    func collection(ofTransaction id: String, _ context: ExtractionContext) async throws {
        guard
            let transaction = try await retrieveAndStore(
                BalanceTransaction.self, id: id, expansions: ["source"], lateRead: false, context)
        else { return }
        try await store.gaps.recordCollection(
            transactionID: id, sourceID: transaction.source?.id, account: transaction.source?.destination,
            run: context.runID)
    }

    /// Retrieves an account debit with the transfer it was made with expanded (`source_transfer`: the connected
    /// account's transfer to the platform, which a platform debiting with a transfer labels) and records what that
    /// transfer says; a 404 is recorded for the reconciler. The charge itself is not stored again: the charges lists
    /// keep it.
    ///
    /// Stripe's reference lists `source_transfer` as expandable, but the transfer is the connected account's: were
    /// Stripe to refuse the expansion (a 400 or 403), the debit names nothing (docs/BAD_INPUT.md) and the run goes on,
    /// the refusal kept so that it is not asked again.
    func sourceTransfer(ofDebit id: String, _ context: ExtractionContext) async throws {
        let endpoint = "/v1/charges/{id}"
        let debit: AccountDebitTransfer?
        do {
            debit = try await client.retrieve(
                AccountDebitTransfer.self, path: "/v1/charges/\(id)", query: [("expand[]", "source_transfer")],
                endpoint: endpoint)?.object
        } catch {
            guard error.status == 400 || error.status == 403 else { throw error }
            logger.warning(
                "Stripe refused the transfer an account debit was made with: the debit names nothing",
                metadata: ["id": "\(id)", "error": "\(error.description)"])
            try await store.gaps.recordDebitSourceTransfer(chargeID: id, nil, run: context.runID)
            return
        }
        guard let debit else { return try await notFound(.charge, id: id, lateRead: false, context) }
        try await store.gaps.recordDebitSourceTransfer(chargeID: id, debit.sourceTransfer, run: context.runID)
    }

    /// Retrieves one object of `type` by id with `expansions` and stores it with what it embeds, counted as a late
    /// read (`lateRead`) or a follow-up; `nil`, and the 404 recorded for the reconciler, when Stripe answered 404.
    private func retrieveAndStore<Object: CatalogueObject>(
        _ type: Object.Type, id: String, expansions: [String], lateRead: Bool, _ context: ExtractionContext
    ) async throws -> Object? {
        let kind = Object.kind
        guard let listPath = kind.entry.listPath else { return nil }
        let endpoint = "\(listPath)/{id}"
        guard
            let (object, tape) = try await client.retrieve(
                type, path: "\(listPath)/\(id)", query: expansions.map { ("expand[]", $0) }, endpoint: endpoint)
        else {
            try await notFound(kind, id: id, lateRead: lateRead, context)
            return nil
        }
        var batch = ObjectLists()
        do {
            try Absorber.absorb(object, at: JSONTape.root, of: tape, into: &batch)
        } catch {
            throw StripeClientError.malformedResponse(endpoint: endpoint, requestID: nil, detail: error.description)
        }
        let resource = lateRead ? ExtractionSummary.lateReadsResource : "follow-ups by id"
        let total = await context.tally.count(resource: resource, objects: 1)
        let outcome = try await store.objects.write(batch, run: context.runID, now: context.now)
        await context.tally.record(outcome, pages: 0)
        await progress?.pageStored(resource: resource, objects: 1, total: total)
        return object
    }

    /// Records that Stripe answered 404 for object `id` of `kind`, which an object of the range (or the look-back
    /// window, for a late read) referred to, so the reconciler reports it.
    private func notFound(_ kind: ObjectKind, id: String, lateRead: Bool, _ context: ExtractionContext) async throws {
        logger.warning("referenced object not found (404)", metadata: ["kind": "\(kind.rawValue)", "id": "\(id)"])
        try await store.gaps.recordMissing(
            kind: kind, id: id, referencedBy: lateRead ? "the look-back window" : "an object of the range",
            requestID: nil, run: context.runID)
        await context.tally.missing()
    }
}
