import ReconCore
import WorkerThreads

extension HistoryParts {
    /// The facts of `[from, to)` in parts of about `chargesPerPart` charges (`nil`: this history's ``chargesPerPart``),
    /// for a reconcile whose memory does not grow with the range (a million destination charges in well under a
    /// gibibyte).
    ///
    /// Every object created in the range is judged in exactly one part (see ``JudgedObjects``); each part also
    /// holds what its judged objects lead to in the object graph (``ObjectGraph``, `PartLoader+Context.swift`), so
    /// ``ReconciliationSession`` fed every part makes the same report as ``Reconciler`` fed the parts merged
    /// (`ReconciliationInput(merging:)`). The parts come in this order:
    /// 1. the range's objects of the kinds that belong to a charge by an edge (``ObjectGraph/rootChildren``:
    ///    application fees, transfers, disputes, refunds) whose charge is not one of the range's, kind by kind;
    /// 2. the range's charges by creation time, then id, with the range's objects that belong to them:
    ///    `platform_fees` rows come out sorted;
    /// 2b. the late outcomes `late` selects (docs/RULES.md: objects of the look-back window whose outcome a read found
    ///    changed): charges, refunds and disputes with their charges as context, then payouts;
    /// 3. the kinds the catalogue judges in parts of their own (``CatalogueEntry/judged``), kind by kind: the range's
    ///    payouts, with what `?payout=` listed for them and those balance transactions, in parts of at most
    ///    `chargesPerPart` balance transactions (a payout that paid out more continues over several parts), and any
    ///    kind no charge leads to, a part size at a time;
    /// 4. the range's ledger: its totals, added up by the history in one part, or (when a total might not fit in 64
    ///    bits, so the rules must name the transaction that does not) the range's balance transactions in pages of
    ///    `chargesPerPart` by creation time;
    /// 5. the objects Stripe answered 404 for, the charges of the look-back window still pending (the
    ///    Summary's `pending_charges`), when `late` is given, and what the range's roll-forward needs (Stripe's
    ///    balance as the runs read it, the range's balance transactions by date; ``HistoryBalance``), with the
    ///    earlier ranges whose Stripe report run `runID` found published (compared late), and the range's losses
    ///    covered for connected accounts (``CollectionTransfer``).
    ///
    /// All parts are read in one snapshot, whatever a concurrent writer does: step 1, the even charges' parts of step
    /// 2, step 2b and about half of the payouts' groups on the calling thread, the odd charges' parts and the rest of
    /// steps 3–5 at the same time on a second connection whose transaction sees the same state
    /// (``HistoryDatabase/readAlongside(_:_:release:)``), or all of them after one another in the same transaction
    /// where the database cannot offer that. `body` runs on the calling thread, for every part in the order above;
    /// its errors are rethrown as they are.
    public func forEach(
        from: Int64, to: Int64, asOf: Int64, skippedTransferGrace: Int64,
        chargesPerPart: Int? = nil,
        late: LateOutcomeSelection? = nil, run runID: Int64? = nil, _ body: (ReconciliationInput) throws -> Void
    ) throws {
        let chargesPerPart = chargesPerPart ?? self.chargesPerPart
        precondition(chargesPerPart > 0, "a part holds at least one object")
        @Sendable func loader(_ db: SQLSession) throws -> PartLoader {
            // SQLite: a page cache of 8 MiB (``SQLDialect/partsReadSettings``), not 128 MiB: the kernel's page cache
            // holds the history's pages anyway, and 128 MiB made no run faster, at 150,000 charges or at a million,
            // and was most of the peak memory at 150,000 (docs/BENCHMARKS.md, "The parts' page cache"); 8 MiB keeps
            // the long payouts' sorts in memory.
            if let settings = db.dialect.partsReadSettings { try db.execute(settings) }
            return PartLoader(
                db: db.interning(), from: from, to: to, asOf: asOf, grace: skippedTransferGrace, size: chargesPerPart,
                late: late, runID: runID)
        }
        // A second connection, in the same snapshot, reads every other charges' part (the odd ones: the first reads
        // the even ones), then about half of the payouts' groups, the ledger's sums and the last part, which need
        // nothing the charges' parts hold. The odd charges' parts wait in a queue of their own, a part or two
        // ahead: the first reader takes them one at a time, between its own, and a charges' part is large. The
        // second's later parts wait, a bounded number read ahead, until the first takes them in their turn. Where the
        // charges' parts start is found once, by the first reader, while the second adds up the range's balance
        // transactions.
        let starts = BlockingQueue<[ChargePartStart?]>(capacity: 1)
        let odd = BlockingQueue<ReconciliationInput>(capacity: Self.chargePartsReadAhead)
        let ahead = BlockingQueue<HandedPart>(capacity: Self.partsReadAhead)
        let alongside = try readAlongside(
            { db in
                try loader(db).parts(
                    .first(
                        publishStarts: { try starts.push($0) }, oddChargePart: { try odd.pop() },
                        handed: { try ahead.pop() }), body)
            },
            { db in
                do {
                    try loader(db).parts(
                        .second(
                            starts: { try starts.pop() }, oddChargePart: { try odd.push($0) },
                            hand: { try ahead.push($0) })
                    ) { _ in preconditionFailure("the second reader hands its parts to the first") }
                    ahead.finish()
                } catch is BlockingQueue<HandedPart>.Closed {
                    return
                } catch is BlockingQueue<ReconciliationInput>.Closed {
                    return
                } catch is BlockingQueue<[ChargePartStart?]>.Closed {
                    return
                } catch {
                    odd.finish(throwing: error)
                    ahead.finish(throwing: error)
                }
            },
            release: {
                starts.close()
                odd.close()
                ahead.close()
            })
        guard !alongside else { return }
        try readSnapshot { db in try loader(db).parts(.alone, body) }
    }

    /// How many charges a part holds unless the caller says otherwise (a reconcile's parts), by the database. From
    /// SQLite, 2,000: the part's lookups, interned texts and queues stay in the processor's caches; in a series from
    /// 500 to 10,000 charges the reconcile took the least CPU with it, and less memory than with 5,000. From
    /// PostgreSQL, 5,000: every query of a part is a round trip to a server that shares the machine, and with 2,000
    /// there are two and a half times as many (docs/BENCHMARKS.md, "Smaller parts").
    public var chargesPerPart: Int {
        switch database.location {
        case .sqliteFile: 2_000
        case .postgreSQL: 5_000
        }
    }

    /// How many parts the second connection reads ahead of `body` (``forEach(from:to:asOf:skippedTransferGrace:
    /// chargesPerPart:late:run:_:)``): the payouts' parts, which are read quickly, while the charges' are read and
    /// judged.
    static let partsReadAhead = 12

    /// How many of its charges' parts the second connection reads ahead of `body`.
    static let chargePartsReadAhead = 2
}

extension PartLoader {
    /// The parts of ``HistoryParts/forEach(from:to:asOf:skippedTransferGrace:chargesPerPart:late:run:_:)`` that
    /// `role` reads, in order, for `body` (the second of two readers hands its own to the first instead).
    func parts(_ role: PartReaderRole, _ body: (ReconciliationInput) throws -> Void) throws {
        switch role {
        case .alone:
            let sums = try RangeTransactionSums.read(db, from: from, to: to)
            let loader = try withAccountDebits()
            let (starts, ids) = try rangeCharges()
            // The range's charge ids are let go once the orphans are found.
            try loader.orphanParts(owned: consume ids, body)
            try loader.chargeParts(starts: starts, reading: { _ in true }) { _, part in
                if let part { try body(part) }
            }
            if let late { try loader.lateParts(try HistoryGaps.lateOutcomes(db, late), body) }
            try judgedOnTheirOwn(role, body)
            try ledgerParts(sums, body)
            try body(try missingObjectsPart(sums))
        case .first(let publishStarts, let oddChargePart, let handed):
            let (starts, ids) = try rangeCharges()
            try publishStarts(starts)
            // The orphans' scans of the range while the second reader adds up the range's balance transactions and
            // reads its first charges' parts: read between the charges' parts and the payouts', they left one core
            // idle while the rules waited (docs/BENCHMARKS.md, "Pages in the index's order").
            let loader = try withAccountDebits()
            try loader.orphanParts(owned: consume ids, body)
            try loader.chargeParts(starts: starts, reading: { $0.isMultiple(of: 2) }) { index, part in
                if let part { return try body(part) }
                guard let odd = try oddChargePart() else {
                    preconditionFailure("the second reader ended before the charges' part \(index)")
                }
                try body(odd)
            }
            if let late { try loader.lateParts(try HistoryGaps.lateOutcomes(db, late), body) }
            try judgedOnTheirOwn(role, body)
            // The ledger and the last part.
            while let next = try handed() { if case .part(let part) = next { try body(part) } }
        case .second(let starts, let oddChargePart, let hand):
            // Added up once for the ledger and the roll-forward, first, while the first reader finds where the
            // charges' parts start (docs/BENCHMARKS.md, "Two readers, and the workbook's rows as bytes"; SQLite's sums
            // are added up in one pass: "Fewer copies").
            let sums = try RangeTransactionSums.read(db, from: from, to: to)
            // None when the first reader ended before it found them: its error, or its consumer's, is the run's.
            guard let starts = try starts() else { return }
            try withAccountDebits().chargeParts(starts: starts, reading: { !$0.isMultiple(of: 2) }) { _, part in
                if let part { try oddChargePart(part) }
            }
            try judgedOnTheirOwn(role, body)
            try ledgerParts(sums) { try hand(.part($0)) }
            try hand(.part(try missingObjectsPart(sums)))
        }
    }

    /// This loader with the account debits every part that holds refunds or disputes holds too (``debits``): the
    /// orphans', the charges' and the late outcomes' parts.
    private func withAccountDebits() throws -> PartLoader {
        var loader = self
        loader.debits = try accountDebits()
        return loader
    }

    /// Step 2: the charges' parts starting at `starts` whose index `reading` accepts, read, for `body` with their
    /// index; the others, `nil`, in their place.
    private func chargeParts(
        starts: [ChargePartStart?], reading: (Int) -> Bool, _ body: (Int, ReconciliationInput?) throws -> Void
    ) throws {
        for (index, start) in starts.enumerated() {
            try body(index, reading(index) ? try chargePart(after: start) : nil)
        }
    }

    /// Step 3, kind by kind in the catalogue's order: the kinds judged in parts of their own and the payouts with
    /// what they paid out. Of two readers, each reads about half of the payouts' groups, by the links they paid out,
    /// and the second the kinds judged in parts of their own, handing its parts to the first in their turn.
    private func judgedOnTheirOwn(_ role: PartReaderRole, _ body: (ReconciliationInput) throws -> Void) throws {
        /// The second reader's turn: what `read` reads, handed to the first, ended so that it knows.
        func handOver(_ read: ((ReconciliationInput) throws -> Void) throws -> Void) throws {
            guard case .second(_, _, let hand) = role else { return }
            try read { try hand(.part($0)) }
            try hand(.endOfTurn)
        }
        /// The first reader's wait for the second's turn: its parts, for `body`.
        func takeOver() throws {
            guard case .first(_, _, let handed) = role else { return }
            while true {
                guard let next = try handed() else { preconditionFailure("the second reader ended before its turn") }
                guard case .part(let part) = next else { return }
                try body(part)
            }
        }
        for kind in ObjectKind.allCases {
            switch kind.entry.judged {
            case .withTheirCharge: continue
            case .inPartsOfTheirOwn:
                let type = StorableKinds.type(of: kind)
                switch role {
                case .alone: try ownParts(type, body)
                case .first: try takeOver()
                case .second: try handOver { try ownParts(type, $0) }
                }
            case .withWhatTheyPaidOut:
                // Each group to the reader that has read fewer links so far: the groups are unlike (a day's payout
                // in one currency can pay out ten times another's), and both readers make the same choice.
                var read = (first: 0, second: 0)
                try forEachPayoutGroup { group, links in
                    let isFirsts = read.first <= read.second
                    if isFirsts { read.first += links + 1 } else { read.second += links + 1 }
                    switch role {
                    case .alone: try payoutGroupParts(group, links: links, body)
                    case .first: try isFirsts ? payoutGroupParts(group, links: links, body) : takeOver()
                    case .second: if !isFirsts { try handOver { try payoutGroupParts(group, links: links, $0) } }
                    }
                }
            }
        }
    }
}

extension HistoryParts {
    /// The payout links matching `condition`, by payout, then balance transaction.
    static func payoutLinks(
        _ db: SQLSession, _ condition: String, _ arguments: [SQLValue]
    ) throws -> [PayoutTransactionLink] {
        try db.all(
            """
            SELECT payout_id, balance_transaction_id FROM payout_transactions WHERE \(condition)
            ORDER BY payout_id, balance_transaction_id
            """, arguments
        ) {
            PayoutTransactionLink(payoutID: try $0.decode(atIndex: 0), balanceTransactionID: try $0.decode(atIndex: 1))
        }
    }

    /// The objects Stripe answered 404 for during the runs of ranges overlapping `[from, to)` and that the history
    /// still lacks (a later run may have found them).
    static func missingObjects(_ db: SQLSession, from: Int64, to: Int64) throws -> [(kind: ObjectKind, id: String)] {
        try db.all(
            """
            SELECT DISTINCT m.kind, m.object_id FROM missing_objects m JOIN runs r ON r.id = m.run_id
            WHERE r.range_from < ? AND r.range_to > ? ORDER BY m.kind, m.object_id
            """, [.integer(to), .integer(from)]
        ) { row in (kind: try row.decode(String.self, atIndex: 0), id: try row.decode(String.self, atIndex: 1)) }
        .compactMap { (kindName, id) -> (kind: ObjectKind, id: String)? in
            guard let kind = ObjectKind(rawValue: kindName) else { return nil }
            let table = kind.entry.table
            let present =
                try db.value(Bool.self, "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)", [.text(id)]) ?? false
            return present ? nil : (kind: kind, id: id)
        }
    }
}

/// Reads parts of one range inside one read transaction (what a part holds beside what it judges:
/// `PartLoader+Context.swift`). Ids travel to the database as JSON arrays (``SQLDialect/rows(of:whose:)``), found by
/// index probes; SQLite then reads the rows in the order they were stored.
struct PartLoader {
    let db: SQLSession
    let from: Int64
    let to: Int64
    let asOf: Int64
    let grace: Int64
    let size: Int
    /// The late outcomes to judge, and the look-back window of the pending charges; `nil`: none.
    let late: LateOutcomeSelection?
    /// The run reconciling, whose late Stripe report comparisons the last part holds; `nil`: none.
    let runID: Int64?
    /// The account debits that may give back what the parts' refunds and disputes took (``accountDebits()``), added
    /// to every part that holds refunds or disputes.
    var debits: [ChargeFacts] = []

    var inRange: String { "t.created >= \(from) AND t.created < \(to)" }

    func input(_ objects: ObjectLists = ObjectLists(), judged: JudgedObjects) -> ReconciliationInput {
        ReconciliationInput(
            from: from, to: to, asOf: asOf, skippedTransferGrace: grace, objects: objects, judged: judged)
    }

    // MARK: 2. Charges of the range

    /// Where each of the range's charges' parts starts, the range's charges taken a part size at a time by creation
    /// time, then id: the creation time and id of the charge before its first (`nil` for the first part). One pass
    /// over the range's charges in the order of the index on `created`, the charges of one second put in id order
    /// here (``CreationOrder``), so that two readers can each read every other part (``chargePart(after:)``).
    ///
    /// From SQLite, the same pass keeps the range's charge ids (`ids`), which tell ``orphanParts(owned:_:)`` the
    /// range's objects that no charge of the range owns; from PostgreSQL, `nil`: the server finds those itself.
    func rangeCharges() throws -> (starts: [ChargePartStart?], ids: ByteIDSet?) {
        var starts: [ChargePartStart?] = [nil]
        var ids: ByteIDSet?
        if db.dialect == .sqlite {
            // Counted first (the index on `created` alone), so that the set is allocated once.
            let count = try db.value(
                Int.self, "SELECT COUNT(*) FROM \(ChargeFacts.table) WHERE created >= ? AND created < ?",
                [.integer(from), .integer(to)])
            ids = ByteIDSet(capacity: count ?? 0)
        }
        var count = 0
        var second = CreationOrder.Second()
        func place(_ second: CreationOrder.Second) {
            for id in second.idsInOrder() {
                count += 1
                if count.isMultiple(of: size) { starts.append((second.created, id)) }
            }
        }
        try db.forEachRow(
            "SELECT created, id FROM \(ChargeFacts.table) WHERE created >= ? AND created < ? ORDER BY created",
            [.integer(from), .integer(to)]
        ) { row in
            let created = try row.int64(0)
            if created != second.created {
                place(second)
                second = CreationOrder.Second(created: created)
            }
            second.ids.append(try row.text(1))
            if ids != nil { _ = try row.withTextBytes(1) { ids?.insert($0) } }
        }
        place(second)
        // After the last charge no part starts (and with no charge, none at all).
        if count.isMultiple(of: size) { starts.removeLast() }
        return (starts, ids)
    }

    /// The charges' part that starts after `start` (``rangeCharges()``).
    func chargePart(after start: ChargePartStart?) throws -> ReconciliationInput {
        try chargePart(try page(ChargeFacts.self, after: start, condition: "TRUE"))
    }

    /// A part judging `charges` and the range's objects that belong to them (by an edge to the charge).
    private func chargePart(_ charges: [ChargeFacts]) throws -> ReconciliationInput {
        let owned = Set(charges.map(\.id))
        var objects = ObjectLists()
        objects.charges = charges
        try addContext(to: &objects)
        var judged = JudgedObjects(ObjectGraph.root, owned)
        for (kind, edge) in ObjectGraph.rootChildren {
            judged[kind] = StorableKinds.reader(of: kind).judged(objects, owned, edge) { isInRange($0) }
        }
        return input(objects, judged: judged)
    }

    // MARK: 1. The range's objects whose charge is not one of the range's

    /// The range's objects of the kinds that belong to a charge whose charge is not one of the range's (the range's
    /// charge ids are `owned`; `nil`: the database tells), a part size at a time by creation time, then id, kind by
    /// kind; an object owned by a charge of the range is judged in that charge's part.
    func orphanParts(owned: ByteIDSet?, _ body: (ReconciliationInput) throws -> Void) throws {
        for (kind, edge) in ObjectGraph.rootChildren {
            if let owned {
                try orphans(StorableKinds.type(of: kind), notIn: owned, edge: edge, body)
                continue
            }
            let notOwned = """
                NOT EXISTS (SELECT 1 FROM \(ObjectGraph.root.entry.table) c
                            WHERE c.id = t.\(edge.column) AND c.created >= \(from) AND c.created < \(to))
                """
            try orphans(StorableKinds.type(of: kind), notOwned, edge: edge, body)
        }
    }

    /// The range's `Facts` whose charge (by `edge`) is none of `owned`, found in one pass over their creation time,
    /// id and charge, then read a part at a time by id. The same parts as the pages of a `NOT EXISTS` over the
    /// charges, without a probe into the charges for each of the range's objects (all but a few of which have their
    /// charge in the range): those probes took 0.7 s of the first reader's CPU before the rules had a part
    /// (docs/BENCHMARKS.md, "The orphans by the range's charge ids").
    private func orphans<Facts: StorableFacts>(
        _ type: Facts.Type, notIn owned: ByteIDSet, edge: ParentEdge, _ body: (ReconciliationInput) throws -> Void
    ) throws {
        var found: [(created: Int64, id: String)] = []
        try db.forEachRow(
            "SELECT t.created, t.id, t.\(edge.column) FROM \(Facts.table) AS t WHERE \(inRange)"
        ) { row in
            if !row.isNull(2), try row.withTextBytes(2, owned.contains) { return }
            found.append((try row.int64(0), try row.text(1)))
        }
        found.sort(by: CreationOrder.precedes)
        for start in stride(from: 0, to: found.count, by: size) {
            var judged = try facts(Facts.self, "id", found[start..<min(start + size, found.count)].map(\.id))
            CreationOrder.sort(&judged)
            try body(try partWithCharges(judged, edge: edge))
        }
    }

    /// Pages through the range's `Facts` matching `condition`; each page is judged with its charges as context.
    private func orphans<Facts: StorableFacts>(
        _ type: Facts.Type, _ condition: String, edge: ParentEdge, _ body: (ReconciliationInput) throws -> Void
    ) throws {
        try forEachPage(Facts.self, condition: condition) { try body(try partWithCharges($0, edge: edge)) }
    }

    /// A part judging `judged`, with their charges (by `edge`) and what those lead to as context.
    private func partWithCharges<Facts: StorableFacts>(
        _ judged: [Facts], edge: ParentEdge
    ) throws -> ReconciliationInput {
        var objects = ObjectLists()
        objects[Facts.self] = judged
        objects.charges = try facts(ChargeFacts.self, "id", Facts.texts(of: edge.column, in: judged))
        try addContext(to: &objects)
        return input(objects, judged: JudgedObjects(Facts.kind, Set(judged.map(\.id))))
    }

    // MARK: 2b. Late outcomes

    /// The late outcomes, a part size at a time, kind by kind: charges (judged with what they lead to), the kinds
    /// that belong to a charge (with their charges as context), then payouts (with what `?payout=` listed for
    /// them).
    func lateParts(_ outcomes: JudgedObjects, _ body: (ReconciliationInput) throws -> Void) throws {
        for ids in Self.chunks(outcomes[ObjectGraph.root], of: size) {
            let charges = try facts(ChargeFacts.self, "id", ids).sorted { ($0.created, $0.id) < ($1.created, $1.id) }
            var objects = ObjectLists()
            objects.charges = charges
            try addContext(to: &objects)
            try body(input(objects, judged: JudgedObjects(ObjectGraph.root, Set(charges.map(\.id)))))
        }
        for (kind, edge) in ObjectGraph.rootChildren {
            for ids in Self.chunks(outcomes[kind], of: size) {
                try body(try latePart(StorableKinds.type(of: kind), ids, edge))
            }
        }
        for ids in Self.chunks(outcomes[.payout], of: size) {
            let payouts = try facts(PayoutFacts.self, "id", ids).sorted { ($0.created, $0.id) < ($1.created, $1.id) }
            try payoutGroupParts(payouts, body)
        }
    }

    private func latePart<Facts: StorableFacts>(
        _ type: Facts.Type, _ ids: [String], _ edge: ParentEdge
    ) throws -> ReconciliationInput {
        try partWithCharges(try facts(Facts.self, "id", ids), edge: edge)
    }

    /// `ids` sorted, in chunks of at most `size`.
    private static func chunks(_ ids: Set<String>, of size: Int) -> [[String]] {
        let sorted = ids.sorted()
        return stride(from: 0, to: sorted.count, by: size).map { Array(sorted[$0..<min($0 + size, sorted.count)]) }
    }

    // MARK: 3. Kinds judged in parts of their own (the catalogue's `judged`), payouts with what they paid out

    /// The range's objects of a kind no charge leads to (``CatalogueEntry/Judging/inPartsOfTheirOwn``), a part size
    /// at a time, by creation time, then id.
    func ownParts<Facts: StorableFacts>(_ type: Facts.Type, _ body: (ReconciliationInput) throws -> Void) throws {
        try forEachPage(Facts.self, condition: "TRUE") { judged in
            var objects = ObjectLists()
            objects[Facts.self] = judged
            try body(input(objects, judged: JudgedObjects(Facts.kind, Set(judged.map(\.id)))))
        }
    }

    /// The range's payouts in groups of about the part size in balance transactions paid out, by creation time,
    /// then id: `visit` gets each group's payouts and how many links `?payout=` stored for them, whose parts
    /// ``payoutGroupParts(_:links:_:)`` reads.
    func forEachPayoutGroup(_ visit: ([PayoutFacts], Int) throws -> Void) throws {
        try forEachPage(PayoutFacts.self, condition: "TRUE") { payouts in
            for (group, links) in try groupedByLinks(payouts) { try visit(group, links) }
        }
    }

    /// `payouts` (in order) judged in parts of about the part size in balance transactions paid out.
    private func payoutGroupParts(_ payouts: [PayoutFacts], _ body: (ReconciliationInput) throws -> Void) throws {
        for (group, links) in try groupedByLinks(payouts) { try payoutGroupParts(group, links: links, body) }
    }

    /// One group of `payouts` that paid out `links` balance transactions, with the links `?payout=` stored for them and
    /// the linked balance transactions (created in the range or before it): a part, or a payout alone in parts of the
    /// part size when it paid out more.
    private func payoutGroupParts(
        _ group: [PayoutFacts], links: Int, _ body: (ReconciliationInput) throws -> Void
    ) throws {
        if group.count == 1, let payout = group.first, links > size {
            try chunkedPayoutParts(payout, links: links, body)
            return
        }
        var part = input(judged: JudgedObjects(.payout, Set(group.map(\.id))))
        part.payouts = group
        part.payoutTransactions = try HistoryParts.payoutLinks(
            db, db.dialect.isOneOf("payout_id"), [.text(IDList.json(group.map(\.id)))])
        part.balanceTransactions = try facts(
            BalanceTransactionFacts.self, "id", part.payoutTransactions.map(\.balanceTransactionID))
        try body(part)
    }

    /// A payout that paid out more balance transactions than a part holds, in parts of the part size, its
    /// transactions by creation time, then id: each part but the last continues it
    /// (``JudgedObjects/payoutsContinued``), the last judges it, with the links whose transaction the history lacks
    /// (looked for only when fewer transactions were read than the payout has `links`).
    private func chunkedPayoutParts(
        _ payout: PayoutFacts, links: Int, _ body: (ReconciliationInput) throws -> Void
    ) throws {
        var read = 0
        func emit(_ transactions: [BalanceTransactionFacts], isLast: Bool) throws {
            var part = input(judged: JudgedObjects(.payout, isLast ? [payout.id] : []))
            if !isLast { part.judged?.payoutsContinued = [payout.id] }
            part.payouts = [payout]
            part.balanceTransactions = transactions
            part.payoutTransactions = transactions.map {
                PayoutTransactionLink(payoutID: payout.id, balanceTransactionID: $0.id)
            }
            if isLast, read < links {
                part.payoutTransactions += try HistoryParts.payoutLinks(
                    db,
                    """
                    payout_id = ? AND NOT EXISTS (SELECT 1 FROM balance_transactions b
                                                  WHERE b.id = payout_transactions.balance_transaction_id)
                    """, [.text(payout.id)])
            }
            try body(part)
        }
        // One sorted cursor over the payout's transactions, read a part at a time.
        var chunk: [BalanceTransactionFacts] = []
        chunk.reserveCapacity(size)
        try db.forEachRow(
            """
            SELECT \(BalanceTransactionFacts.qualifiedSelection) FROM payout_transactions AS l
            JOIN balance_transactions AS t ON t.id = l.balance_transaction_id
            WHERE l.payout_id = ? ORDER BY t.created, t.id
            """, [.text(payout.id)]
        ) { row in
            chunk.append(try BalanceTransactionFacts(row: row))
            read += 1
            if chunk.count == size {
                try emit(chunk, isLast: false)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try emit(chunk, isLast: true)
    }

    /// `payouts`, in order, in groups of about the part size in balance transactions paid out (a day's payout of a
    /// large platform pays out tens of thousands), each with the links `?payout=` stored for the group; a payout
    /// that alone pays out more is a group of its own.
    private func groupedByLinks(_ payouts: [PayoutFacts]) throws -> [(payouts: [PayoutFacts], links: Int)] {
        let counts = Dictionary(
            uniqueKeysWithValues: try db.all(
                """
                SELECT payout_id, COUNT(*) FROM payout_transactions
                WHERE \(db.dialect.isOneOf("payout_id")) GROUP BY payout_id
                """, [.text(IDList.json(payouts.map(\.id)))]
            ) { row -> (String, Int) in (try row.decode(atIndex: 0), try row.decode(atIndex: 1)) })
        var groups: [(payouts: [PayoutFacts], links: Int)] = []
        var current: [PayoutFacts] = []
        var links = 0
        for payout in payouts {
            let count = counts[payout.id] ?? 0
            if !current.isEmpty, links + count > size {
                groups.append((current, links))
                current = []
                links = 0
            }
            current.append(payout)
            links += count
        }
        if !current.isEmpty { groups.append((current, links)) }
        return groups
    }

    // MARK: 4. The ledger

    /// The range's ledger: its totals in one part when they fit (`sums`), else the range's balance transactions in
    /// pages by creation time, then id, which the reconciler adds up (naming one that would overflow a total).
    func ledgerParts(_ sums: RangeTransactionSums?, _ body: (ReconciliationInput) throws -> Void) throws {
        if let totals = sums.flatMap(Self.ledgerTotals) {
            var part = input(judged: JudgedObjects())
            part.ledgerTotals = totals
            part.stripeCostTransactions = try stripeCostCandidates(sums)
            try body(part)
            return
        }
        try forEachPage(BalanceTransactionFacts.self, condition: "TRUE") { transactions in
            var part = input(judged: JudgedObjects(.balanceTransaction, Set(transactions.map(\.id))))
            part.balanceTransactions = transactions
            try body(part)
        }
    }

    /// The range's `connect_collection_transfer` balance transactions with the account each collected for, as the
    /// extraction read it from the expanded source (none when it was not read, or named none): a few a month. Read by
    /// the ids `sums` found in their pass (``RangeTransactionSums/readWhole``) when it did: a scan of the range's
    /// transactions for their type was a quarter of a second at 150,000 charges, at the end of the run.
    private func collectionTransfers(_ sums: RangeTransactionSums?) throws -> [CollectionTransfer] {
        var condition = "b.created >= ? AND b.created < ? AND \(Self.isCollectionTransfer("b"))"
        var arguments: [SQLValue] = [.integer(from), .integer(to)]
        if let found = sums?.readWhole {
            guard !found.isEmpty else { return [] }
            condition += " AND b.id IN \(db.dialect.idSet)"
            arguments.append(.text(IDList.json(found)))
        }
        return try db.all(
            """
            SELECT b.id, b.created, b.currency, b.net, c.account, c.balance_transaction_id IS NOT NULL
            FROM balance_transactions b LEFT JOIN collection_transfers c ON c.balance_transaction_id = b.id
            WHERE \(condition)
            ORDER BY b.created, b.id
            """, arguments
        ) { row in
            CollectionTransfer(
                balanceTransactionID: try row.decode(atIndex: 0), created: try row.decode(atIndex: 1),
                currency: try FactsColumn.currency(row, 2), net: try row.decode(atIndex: 3),
                account: try row.decode(atIndex: 4), sourceRead: try row.decode(atIndex: 5))
        }
    }

    /// The range's balance transactions whose type or reporting category may make them Stripe's costs
    /// (``StripeCost/types``, ``StripeCost/categories``; the rules decide): a few a day, read whole, by creation time,
    /// then id. Read by the ids `sums` found in their pass when it did (as ``collectionTransfers(_:)``).
    private func stripeCostCandidates(_ sums: RangeTransactionSums?) throws -> [BalanceTransactionFacts] {
        var candidates: [BalanceTransactionFacts] = []
        let condition = Self.isStripeCostCandidate("t")
        guard let found = sums?.readWhole else {
            try forEachPage(BalanceTransactionFacts.self, condition: condition) { candidates += $0 }
            return candidates
        }
        candidates = try facts(BalanceTransactionFacts.self, "id", found, and: condition)
        CreationOrder.sort(&candidates)
        return candidates
    }

    /// The SQL condition that the balance transaction `alias` may be one of Stripe's costs
    /// (``stripeCostCandidates(_:)``).
    static func isStripeCostCandidate(_ alias: String) -> String {
        "(\(alias).type IN \(SQLList.of(StripeCost.types.map(\.rawValue)))"
            + " OR \(alias).reporting_category IN \(SQLList.of(StripeCost.categories.map(\.rawValue))))"
    }

    /// The SQL condition that the balance transaction `alias` is a connect collection transfer
    /// (``collectionTransfers(_:)``).
    static func isCollectionTransfer(_ alias: String) -> String {
        "\(alias).type = '\(BalanceTransactionType.connectCollectionTransfer.rawValue)'"
    }

    /// The range's balance transactions added up per currency, ledger balance type and reporting category, as the rules
    /// add them; `nil` when some total might overflow 64 bits in some order of addition: then the rules add them one
    /// by one, in order, and name the one that does not fit. Reading millions of transactions only to add them up was
    /// a fifth of a reconcile's reading.
    private static func ledgerTotals(_ sums: RangeTransactionSums) -> [LedgerRow]? {
        var totals: [LedgerTotalsKey: (row: LedgerRow, magnitude: [Int64])] = [:]
        for group in sums.groups {
            let row = group.row
            let key = LedgerTotalsKey(row)
            guard let earlier = totals[key] else {
                totals[key] = (row, group.magnitude)
                continue
            }
            // A group stored without `balance_type` and one stored as `payments`, or an automatic payout's own
            // transaction and the others of its category, are one ledger row.
            func sum(_ a: Int64, _ b: Int64) -> Int64? {
                let (total, overflowed) = a.addingReportingOverflow(b)
                return overflowed ? nil : total
            }
            let magnitudes = zip(earlier.magnitude, group.magnitude).compactMap { sum($0, $1) }
            guard magnitudes.count == group.magnitude.count, let gross = sum(earlier.row.gross, row.gross),
                let fee = sum(earlier.row.fee, row.fee), let net = sum(earlier.row.net, row.net)
            else { return nil }
            var merged = earlier.row
            merged.count += row.count
            merged.gross = gross
            merged.fee = fee
            merged.net = net
            totals[key] = (merged, magnitudes)
        }
        return totals.values.map(\.row)
    }

    // MARK: 5. Objects Stripe answered 404 for

    /// The last part; `sums` are the range's balance transactions added up (``RangeTransactionSums``), for the
    /// roll-forward.
    func missingObjectsPart(_ sums: RangeTransactionSums?) throws -> ReconciliationInput {
        var part = input(judged: JudgedObjects(missingObjects: true))
        part.missingObjects = try HistoryParts.missingObjects(db, from: from, to: to)
        if let late { part.pendingCharges = try HistoryGaps.pendingCharges(db, window: late.window) }
        part.balance = try HistoryBalance.inputs(db, from: from, to: to, rangeGroups: sums?.groups)
        part.collectionTransfers = try collectionTransfers(sums)
        if let runID {
            part.lateBalanceComparisons = try HistoryBalance.lateComparisons(db, run: runID, excluding: from..<to)
        }
        return part
    }

    // MARK: Queries

    func isInRange(_ created: Int64) -> Bool { from <= created && created < to }

    /// Pages through the range's `Facts` matching `condition` by creation time, then id, a part size at a time,
    /// handing each page that holds something to `body`.
    private func forEachPage<Facts: StorableFacts>(
        _ type: Facts.Type, condition: String, _ body: ([Facts]) throws -> Void
    ) throws {
        var after: (created: Int64, id: String)?
        while true {
            let found = try page(Facts.self, after: after, condition: condition)
            guard let last = found.last else { return }
            after = (last.created, last.id)
            try body(found)
            if found.count < size { return }
        }
    }

    /// Up to the part size objects of `Facts.table` created in the range after `after` (creation time, then id) and
    /// matching `condition` (on the table as `t`), in that order.
    private func page<Facts: StorableFacts>(
        _ type: Facts.Type, after: (created: Int64, id: String)?, condition: String
    ) throws -> [Facts] {
        // `created >= lower` lets the index on `created` start at the page; the OR picks up after the last id. The rows
        // come in the index's order, by creation time only: the ties of a second are put in id order here
        // (``CreationOrder``). `ORDER BY t.created, t.id` had SQLite copy every row of the page into a sort of its own
        // (docs/BENCHMARKS.md, "Pages in the index's order").
        let lower = max(from, after?.created ?? from)
        let afterArguments: [SQLValue] = [.integer(after?.created ?? (from - 1)), .text(after?.id ?? "")]
        func rows(_ range: String, _ arguments: [SQLValue], limit: String = "") throws -> [Facts] {
            try HistoryObjects.fetchFacts(
                Facts.self, db: db,
                sql: """
                    SELECT \(Facts.qualifiedSelection) FROM \(Facts.table) AS t
                    WHERE \(range) AND (t.created > ? OR t.id > ?) AND \(condition) ORDER BY t.created\(limit)
                    """,
                arguments: arguments + afterArguments)
        }
        var found = try rows(
            "t.created >= ? AND t.created < ?", [.integer(lower), .integer(to)], limit: " LIMIT \(size)")
        // A full page may end inside a second: that second's rows are read whole, so its first by id are kept.
        if found.count == size, let last = found.last?.created {
            found.removeSubrange((found.lastIndex { $0.created != last }.map { $0 + 1 } ?? 0)...)
            found += try rows("t.created = ?", [.integer(last)])
        }
        CreationOrder.sort(&found)
        if found.count > size { found.removeSubrange(size...) }
        return found
    }

    /// The objects of `Facts.table` whose `column` is one of `values`, that match `condition` and whose id is not
    /// in `excluded`, in no particular order: the rules order what they need themselves.
    func facts<Facts: StorableFacts>(
        _ type: Facts.Type, _ column: String, _ values: [String], and condition: String = "TRUE",
        excluding excluded: [String] = []
    ) throws -> [Facts] {
        // The list goes as it is: each row comes once however often it names the row (``SQLDialect/rows(of:whose:)``).
        guard !values.isEmpty else { return [] }
        var arguments: [SQLValue] = [.text(IDList.json(values))]
        var exclusion = ""
        if !excluded.isEmpty {
            exclusion = " AND t.id NOT IN \(db.dialect.idSet)"
            arguments.append(.text(IDList.json(excluded)))
        }
        let rows = db.dialect.rows(of: Facts.table, whose: column)
        return try HistoryObjects.fetchFacts(
            Facts.self, db: db,
            sql: """
                SELECT \(Facts.qualifiedSelection) FROM \(rows.from)
                WHERE \(rows.condition) AND \(condition)\(exclusion)
                """,
            arguments: arguments)
    }
}

/// A ledger row's identity, for merging the groups SQLite returns.
private struct LedgerTotalsKey: Hashable {
    let currency: Currency
    let balanceType: BalanceType
    let category: ReportingCategory

    init(_ row: LedgerRow) {
        currency = row.currency
        balanceType = row.balanceType
        category = row.reportingCategory
    }
}
