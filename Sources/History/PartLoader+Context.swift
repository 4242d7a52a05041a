import ReconCore

/// What a part holds beside the objects it judges: what its charges lead to, read kind by kind as the object graph
/// says (``ObjectGraph/contextSteps``), so that a kind or an edge the catalogue gains is read with no change here.
extension PartLoader {
    /// Adds to `part` what its charges (and whatever else it holds) lead to: each step's objects that belong to
    /// what the part holds (by an edge: a charge's refunds, a transfer's reversals, the transfers repaying a
    /// dispute, the balance transactions of the range whose source it holds) and those that what it holds names
    /// (a charge's PaymentIntent and transfer, every balance transaction named).
    ///
    /// Each step queries by the edges first: that finds most of the named objects too (a charge's transfer is
    /// funded by it), which are then read by id only when still missing, so no row is decoded twice.
    ///
    /// Then the other members of the transfer groups its charges belong to (``addTransferGroups(to:)``).
    func addContext(to part: inout ObjectLists) throws {
        try addSteps(to: &part)
        try addTransferGroups(to: &part)
        addAccountDebits(to: &part)
    }

    /// The account debits created at or after the look-back window's start (the range's start without one): a debit
    /// gives back what a refund or dispute took after it (docs/RULES.md, "The platform's other money"), and the
    /// refunds and disputes the rules judge are the range's and the look-back window's. Debits are few (the partial
    /// index `charges_on_account_debits` finds them): read once, held by every part that holds a refund or dispute.
    func accountDebits() throws -> [ChargeFacts] {
        let since = late.map { min($0.window.lowerBound, from) } ?? from
        return try HistoryObjects.accountDebits(db, created: since..<Int64.max)
    }

    private func addAccountDebits(to part: inout ObjectLists) {
        guard !debits.isEmpty, !part.refunds.isEmpty || !part.disputes.isEmpty else { return }
        let byID = Dictionary(debits.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // A debit the part read as a charge of its own is replaced by the one read with its transfer.
        let held = Set(part.charges.map(\.id))
        part.charges = part.charges.map { byID[$0.id] ?? $0 } + debits.filter { !held.contains($0.id) }
    }

    private func addSteps(to part: inout ObjectLists) throws {
        for step in ObjectGraph.contextSteps { try StorableKinds.reader(of: step.kind).addStep(self, step, &part) }
    }

    /// Adds the other members of the transfer groups the part's charges belong to (docs/RULES.md, "Separately
    /// transferred charges"; ``TransferGroupIndex``): the charges that carry the same group (on themselves
    /// or on their PaymentIntent), the group's transfers whenever created, the charges those name as
    /// `source_transaction`, and what all of them lead to, so that whichever part judges one of a group's charges,
    /// refunds or disputes sees the whole group. A part without such charges costs no query.
    private func addTransferGroups(to part: inout ObjectLists) throws {
        let intents = Dictionary(part.paymentIntents.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let groups = Set(
            TransferGroupIndex(charges: part.charges, transfers: part.transfers) {
                $0.paymentIntentID.flatMap { intents[$0] }
            }.groupOfCharge.values)
        guard !groups.isEmpty else { return }
        let named = Array(groups)
        var heldCharges = Set(part.charges.map(\.id))
        var heldTransfers = Set(part.transfers.map(\.id))
        var members = ObjectLists()
        members.transfers = try facts(TransferFacts.self, "transfer_group", named).filter {
            heldTransfers.insert($0.id).inserted
        }
        let intentCharges = try facts(PaymentIntentFacts.self, "transfer_group", named).compactMap(\.latestChargeID)
        let sources = members.transfers.compactMap(\.sourceTransactionID)
        members.charges =
            (try facts(ChargeFacts.self, "transfer_group", named)
            + facts(ChargeFacts.self, "id", (intentCharges + sources).filter { !heldCharges.contains($0) }))
            .filter { heldCharges.insert($0.id).inserted }
        guard !members.isEmpty else { return }
        try addSteps(to: &members)
        part.append(contentsOf: members)
        part = part.uniqued()
    }

    /// One step of ``addContext(to:)`` for the facts of its kind (called through ``KindReader/addStep``, so that it
    /// runs specialised for the kind).
    func add<Facts: StorableFacts>(
        _ step: ObjectGraph.ContextStep, _ type: Facts.Type, to part: inout ObjectLists
    ) throws {
        // By their bytes (``ByteIDSet``), each fact's id read where the fact is; room for what a step usually adds.
        var heldIDs = ByteIDSet(capacity: 2 * part[Facts.self].count + 1_024)
        part[Facts.self].forEachInPlace { heldIDs.insert($0.pointee.id) }
        // What the step finds, added to the part's list at the end: appending to a copy of that list while the part
        // still held it copied every fact in it (and retained each of its strings) once a step. A list found with
        // nothing held already, the usual case, is kept whole rather than copied fact by fact.
        var added: [Facts] = []
        func keep(_ found: [Facts]) {
            var kept: [Int] = []
            found.withUnsafeBufferPointer { found in
                for index in found.indices where heldIDs.insert(found[index].id) { kept.append(index) }
            }
            if kept.count < found.count {
                for index in kept { added.append(found[index]) }
            } else if added.isEmpty {
                added = found
            } else {
                added += found
            }
        }
        for edge in step.edges {
            let parents = edge.parent.map { StorableKinds.reader(of: $0).ids(part) } ?? allIDs(in: part)
            keep(try facts(Facts.self, edge.column, parents, and: edge.reach == .createdInRange ? inRange : "TRUE"))
        }
        var named: [String] = []
        for reference in step.references {
            named += StorableKinds.reader(of: reference.kind).values(
                part, reference.columns, reference.arrayColumns)
        }
        keep(try facts(Facts.self, "id", named.filter { !heldIDs.contains($0) }))
        if part[Facts.self].isEmpty {
            part[Facts.self] = added
        } else if !added.isEmpty {
            part[Facts.self].append(contentsOf: added)
        }
    }

    /// The ids of the objects `part` holds that an edge to any kind (a balance transaction's `source`) may name:
    /// those of the kinds that have balance transactions of their own (``ObjectGraph/sourcesOfBalanceTransactions``;
    /// not PaymentIntents).
    private func allIDs(in part: ObjectLists) -> [String] {
        part.kinds.filter(ObjectGraph.sourcesOfBalanceTransactions.contains).flatMap {
            StorableKinds.reader(of: $0).ids(part)
        }
    }
}

extension StorableFacts {
    /// The ids of the objects of this kind `part` holds that are created at a moment `isJudged` accepts and whose
    /// parent by `edge` is one of `parents`.
    static func ids(
        in part: ObjectLists, withParentIn parents: Set<String>, by edge: ParentEdge, isJudged: (Int64) -> Bool
    ) -> Set<String> {
        let parent = textColumn(edge.column)
        var ids = Set<String>()
        // Through the buffer, as in `values(in:columns:arrayColumns:)`: filtering would copy the facts it keeps.
        part[Self.self].withUnsafeBufferPointer { facts in
            guard let first = facts.baseAddress else { return }
            for index in facts.indices
            where isJudged(facts[index].created) && parent(first + index).map(parents.contains) == true {
                ids.insert(facts[index].id)
            }
        }
        return ids
    }

    /// The ids the objects of this kind `part` holds name in `columns` (one id each) and `arrayColumns` (JSON
    /// arrays of ids).
    static func values(in part: ObjectLists, columns: [String], arrayColumns: [String]) -> [String] {
        let objects = part[Self.self]
        guard !objects.isEmpty else { return [] }
        let single = columns.map(textColumn)
        let lists = arrayColumns.map(textColumn)
        var ids: [String] = []
        // Through the buffer, each fact where it is: `for object in objects` copies every fact (and retains each of
        // its strings), and so did handing the column's closure `objects[index]` (``FactColumn/value``).
        objects.withUnsafeBufferPointer { facts in
            guard let first = facts.baseAddress else { return }
            for index in facts.indices {
                for column in single { if let id = column(first + index) { ids.append(id) } }
                for column in lists {
                    if let json = column(first + index), let list = try? IDList.ids(json) { ids += list }
                }
            }
        }
        return ids
    }

    /// The text of the column `name` of each of `facts` that holds one, in order.
    static func texts(of name: String, in facts: [Self]) -> [String] {
        let column = textColumn(name)
        var texts: [String] = []
        facts.withUnsafeBufferPointer { facts in
            guard let first = facts.baseAddress else { return }
            for index in facts.indices { if let text = column(first + index) { texts.append(text) } }
        }
        return texts
    }

    /// Reads the text of the column `name` from facts of this kind where they are (`nil` when it holds none). The
    /// column is one of ``mapping``'s; a name that is not is a mistake in the catalogue.
    static func textColumn(_ name: String) -> @Sendable (UnsafePointer<Self>) -> String? {
        guard let column = mapping.first(where: { $0.name == name }) else {
            preconditionFailure("\(table) has no column \(name)")
        }
        let value = column.value
        return { value($0).text }
    }
}
