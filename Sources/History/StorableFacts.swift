import Foundation
import ReconCore

/// A facts type the history keeps in a table of its own, one row per object id.
///
/// The one place facts map to and from rows is each kind's ``mapping``: one ``FactColumn`` per column, its name
/// beside the property it holds, `id` first. ``columns``, ``sqlValues`` and ``init(row:)`` are derived from it, so a
/// column is added with one line, in any place, and nothing is renumbered. Positional underneath, not Codable: the
/// history stores and loads millions of rows, and a dictionary or a decoder per row was most of the time they took.
protocol StorableFacts: ObjectFacts {
    /// The fact columns, `id` first, each with the property it holds.
    static var mapping: [FactColumn<Self>] { get }
    /// The facts every read starts from before its columns are set (each property is set by one column).
    static var blank: Self { get }
    /// Reads rows as these facts in code specialised for this kind: `FactsReader<Self>()`, one line per kind.
    static var reader: FactsReader<Self> { get }
}

extension StorableFacts {
    /// The kind's table (its catalogue entry's).
    static var table: String { kind.entry.table }
    /// The fact columns, `id` first, in the order of ``sqlValues`` and ``init(row:)``.
    static var columns: [String] { mapping.map(\.name) }
    /// `id, created, …`: the `SELECT` list that ``init(row:)`` reads.
    static var selection: String { columns.joined(separator: ", ") }
    /// `t.id, t.created, …`: ``selection`` for a query that names the table `t`.
    static var qualifiedSelection: String { columns.map { "t.\($0)" }.joined(separator: ", ") }

    /// The values of ``columns``, in order.
    var sqlValues: [SQLValue] {
        let mapping = Self.mapping
        var values: [SQLValue] = []
        values.reserveCapacity(mapping.count)
        withUnsafePointer(to: self) { facts in
            for column in mapping { values.append(column.value(facts)) }
        }
        return values
    }

    /// Reads the facts from a row whose first columns are ``columns``, in order.
    init(row: SQLRow) throws {
        var facts = Self.blank
        for (index, column) in Self.mapping.enumerated() { try column.read(&facts, row, index) }
        self = facts
    }
}

/// Reads rows as the facts of one kind, and what the readers that know the kind only at run time (a part's
/// context, read kind by kind from the catalogue) ask of the facts they hold. It is made where the kind is named
/// (``StorableFacts/reader``), so the compiler specialises all of it for that kind: those readers decode millions
/// of rows as fast as code naming the type.
struct FactsReader<Facts: StorableFacts>: Sendable {
    /// The facts of every row of `sql`, whose `SELECT` list is `Facts`' columns in order.
    let all: @Sendable (SQLSession, String, [SQLValue]) throws -> [Facts]
    /// The same, for a caller that does not name `Facts`.
    let erased: KindReader

    init() {
        all = { db, sql, arguments in try db.all(sql, arguments) { try Facts(row: $0) } }
        erased = KindReader(
            ids: { part in part[Facts.self].map(\.id) },
            values: { part, columns, arrays in Facts.values(in: part, columns: columns, arrayColumns: arrays) },
            judged: { part, parents, edge, isJudged in
                Facts.ids(in: part, withParentIn: parents, by: edge, isJudged: isJudged)
            },
            addStep: { loader, step, part in try loader.add(step, Facts.self, to: &part) })
    }
}

/// What a reader that knows a kind only at run time does with its facts (see ``FactsReader``): the kind's
/// ``StorableKinds/reader(of:)``.
struct KindReader: Sendable {
    /// The ids of the objects of the kind a part holds.
    let ids: @Sendable (ObjectLists) -> [String]
    /// The ids the kind's objects a part holds name in some columns (one id each) and array columns.
    let values: @Sendable (ObjectLists, [String], [String]) -> [String]
    /// The ids of the kind's objects a part holds whose parent by an edge is one of some ids, created at a moment
    /// a predicate accepts.
    let judged: @Sendable (ObjectLists, Set<String>, ParentEdge, (Int64) -> Bool) -> Set<String>
    /// Adds a step of a part's context (`PartLoader+Context.swift`).
    let addStep: @Sendable (PartLoader, ObjectGraph.ContextStep, inout ObjectLists) throws -> Void
}

/// One column of a kind's table and the facts property it holds: how to bind it, and how to set it from a row.
/// Each kind's closures are written against its concrete property types, so the compiler specialises them: reading
/// a million rows costs what the hand-written positional code cost.
///
/// `value` reads the facts where they are, through a pointer: a closure taking the facts themselves, called from code
/// generic over the kind, was handed a copy of them (each of their strings retained and released), once a column and
/// fact, which was a tenth of a part's reading (docs/BENCHMARKS.md, "Fewer copies").
struct FactColumn<Facts>: Sendable {
    let name: String
    let value: @Sendable (UnsafePointer<Facts>) -> SQLValue
    let read: @Sendable (inout Facts, SQLRow, Int) throws -> Void

    /// The column `name`: `value` gives what to bind, `read` sets the property from column `index` of `row`.
    init(
        _ name: String, _ value: @escaping @Sendable (UnsafePointer<Facts>) -> SQLValue,
        _ read: @escaping @Sendable (inout Facts, SQLRow, Int) throws -> Void
    ) {
        self.name = name
        self.value = value
        self.read = read
    }
}

extension ChargeFacts: StorableFacts {
    static let mapping: [FactColumn<ChargeFacts>] = [
        .init("id", { $0.pointee.id.sqlValue }, { $0.id = try .init(row: $1, at: $2) }),
        .init("created", { $0.pointee.created.sqlValue }, { $0.created = try .init(row: $1, at: $2) }),
        .init("currency", { $0.pointee.currency.sqlValue }, { $0.currency = try .init(row: $1, at: $2) }),
        .init("amount", { $0.pointee.amount.sqlValue }, { $0.amount = try .init(row: $1, at: $2) }),
        .init(
            "amount_captured", { $0.pointee.amountCaptured.sqlValue },
            { $0.amountCaptured = try .init(row: $1, at: $2) }),
        .init(
            "amount_refunded", { $0.pointee.amountRefunded.sqlValue },
            { $0.amountRefunded = try .init(row: $1, at: $2) }),
        .init("status", { $0.pointee.status.sqlValue }, { $0.status = try .init(row: $1, at: $2) }),
        .init("captured", { $0.pointee.captured.sqlValue }, { $0.captured = try .init(row: $1, at: $2) }),
        .init(
            "payment_intent_id", { $0.pointee.paymentIntentID.sqlValue },
            { $0.paymentIntentID = try .init(row: $1, at: $2) }),
        .init("transfer_id", { $0.pointee.transferID.sqlValue }, { $0.transferID = try .init(row: $1, at: $2) }),
        .init(
            "application_fee_id", { $0.pointee.applicationFeeID.sqlValue },
            { $0.applicationFeeID = try .init(row: $1, at: $2) }
        ),
        .init(
            "application_fee_amount", { $0.pointee.applicationFeeAmount.sqlValue },
            { $0.applicationFeeAmount = try .init(row: $1, at: $2) }),
        .init(
            "transfer_destination", { $0.pointee.destinationAccountID.sqlValue },
            { $0.destinationAccountID = try .init(row: $1, at: $2) }),
        .init(
            "transfer_data_amount", { $0.pointee.transferDataAmount.sqlValue },
            { $0.transferDataAmount = try .init(row: $1, at: $2) }),
        .init(
            "balance_transaction_id", { $0.pointee.balanceTransactionID.sqlValue },
            { $0.balanceTransactionID = try .init(row: $1, at: $2) }),
        .init("livemode", { $0.pointee.livemode.sqlValue }, { $0.livemode = try .init(row: $1, at: $2) }),
        .init(
            "transfer_group", { $0.pointee.transferGroup.sqlValue }, { $0.transferGroup = try .init(row: $1, at: $2) }),
        .init("disputed", { $0.pointee.disputed.sqlValue }, { $0.disputed = try .init(row: $1, at: $2) }),
        .init("on_behalf_of", { $0.pointee.onBehalfOf.sqlValue }, { $0.onBehalfOf = try .init(row: $1, at: $2) }),
        .init(
            "payment_method_type", { $0.pointee.paymentMethodType.sqlValue },
            { $0.paymentMethodType = try .init(row: $1, at: $2) }),
        .init("source_id", { $0.pointee.sourceID.sqlValue }, { $0.sourceID = try .init(row: $1, at: $2) }),
        .init(
            "metadata", { MetadataJSON.text($0.pointee.metadata).sqlValue },
            { $0.metadata = MetadataJSON.metadata(try String?(row: $1, at: $2)) }),
    ]

    static let blank = ChargeFacts(
        id: "", created: 0, currency: .usd, amount: 0, amountCaptured: 0, amountRefunded: 0, status: .succeeded,
        captured: false, paymentIntentID: nil, transferID: nil, applicationFeeID: nil, applicationFeeAmount: nil,
        destinationAccountID: nil, transferDataAmount: nil, balanceTransactionID: nil, livemode: false)

    static let reader = FactsReader<ChargeFacts>()
}

extension PaymentIntentFacts: StorableFacts {
    static let mapping: [FactColumn<PaymentIntentFacts>] = [
        .init("id", { $0.pointee.id.sqlValue }, { $0.id = try .init(row: $1, at: $2) }),
        .init("created", { $0.pointee.created.sqlValue }, { $0.created = try .init(row: $1, at: $2) }),
        .init("currency", { $0.pointee.currency.sqlValue }, { $0.currency = try .init(row: $1, at: $2) }),
        .init("amount", { $0.pointee.amount.sqlValue }, { $0.amount = try .init(row: $1, at: $2) }),
        .init(
            "application_fee_amount", { $0.pointee.applicationFeeAmount.sqlValue },
            { $0.applicationFeeAmount = try .init(row: $1, at: $2) }),
        .init(
            "transfer_destination", { $0.pointee.destinationAccountID.sqlValue },
            { $0.destinationAccountID = try .init(row: $1, at: $2) }),
        .init(
            "transfer_data_amount", { $0.pointee.transferDataAmount.sqlValue },
            { $0.transferDataAmount = try .init(row: $1, at: $2) }),
        .init("status", { $0.pointee.status.sqlValue }, { $0.status = try .init(row: $1, at: $2) }),
        .init(
            "latest_charge_id", { $0.pointee.latestChargeID.sqlValue },
            { $0.latestChargeID = try .init(row: $1, at: $2) }),
        .init("livemode", { $0.pointee.livemode.sqlValue }, { $0.livemode = try .init(row: $1, at: $2) }),
        .init(
            "transfer_group", { $0.pointee.transferGroup.sqlValue }, { $0.transferGroup = try .init(row: $1, at: $2) }),
    ]

    static let blank = PaymentIntentFacts(
        id: "", created: 0, currency: .usd, amount: 0, applicationFeeAmount: nil, destinationAccountID: nil,
        transferDataAmount: nil, status: .succeeded, latestChargeID: nil, livemode: false)

    static let reader = FactsReader<PaymentIntentFacts>()
}

extension TransferFacts: StorableFacts {
    static let mapping: [FactColumn<TransferFacts>] = [
        .init("id", { $0.pointee.id.sqlValue }, { $0.id = try .init(row: $1, at: $2) }),
        .init("created", { $0.pointee.created.sqlValue }, { $0.created = try .init(row: $1, at: $2) }),
        .init("currency", { $0.pointee.currency.sqlValue }, { $0.currency = try .init(row: $1, at: $2) }),
        .init("amount", { $0.pointee.amount.sqlValue }, { $0.amount = try .init(row: $1, at: $2) }),
        .init(
            "amount_reversed", { $0.pointee.amountReversed.sqlValue },
            { $0.amountReversed = try .init(row: $1, at: $2) }),
        .init(
            "destination", { $0.pointee.destinationAccountID.sqlValue },
            { $0.destinationAccountID = try .init(row: $1, at: $2) }),
        .init(
            "source_transaction_id", { $0.pointee.sourceTransactionID.sqlValue },
            { $0.sourceTransactionID = try .init(row: $1, at: $2) }),
        .init(
            "balance_transaction_id", { $0.pointee.balanceTransactionID.sqlValue },
            { $0.balanceTransactionID = try .init(row: $1, at: $2) }),
        .init(
            "transfer_group", { $0.pointee.transferGroup.sqlValue }, { $0.transferGroup = try .init(row: $1, at: $2) }),
        .init(
            "dispute_id_metadata", { $0.pointee.disputeIDMetadata.sqlValue },
            { $0.disputeIDMetadata = try .init(row: $1, at: $2) }),
        .init("livemode", { $0.pointee.livemode.sqlValue }, { $0.livemode = try .init(row: $1, at: $2) }),
    ]

    static let blank = TransferFacts(
        id: "", created: 0, currency: .usd, amount: 0, amountReversed: 0, destinationAccountID: nil,
        sourceTransactionID: nil, balanceTransactionID: nil, transferGroup: nil, disputeIDMetadata: nil, livemode: false
    )

    static let reader = FactsReader<TransferFacts>()
}

extension TransferReversalFacts: StorableFacts {
    static let mapping: [FactColumn<TransferReversalFacts>] = [
        .init("id", { $0.pointee.id.sqlValue }, { $0.id = try .init(row: $1, at: $2) }),
        .init("transfer_id", { $0.pointee.transferID.sqlValue }, { $0.transferID = try .init(row: $1, at: $2) }),
        .init("created", { $0.pointee.created.sqlValue }, { $0.created = try .init(row: $1, at: $2) }),
        .init("currency", { $0.pointee.currency.sqlValue }, { $0.currency = try .init(row: $1, at: $2) }),
        .init("amount", { $0.pointee.amount.sqlValue }, { $0.amount = try .init(row: $1, at: $2) }),
        .init(
            "source_refund_id", { $0.pointee.sourceRefundID.sqlValue },
            { $0.sourceRefundID = try .init(row: $1, at: $2) }),
        .init(
            "balance_transaction_id", { $0.pointee.balanceTransactionID.sqlValue },
            { $0.balanceTransactionID = try .init(row: $1, at: $2) }),
        .init(
            "dispute_id_metadata", { $0.pointee.disputeIDMetadata.sqlValue },
            { $0.disputeIDMetadata = try .init(row: $1, at: $2) }),
    ]

    static let blank = TransferReversalFacts(
        id: "", transferID: "", created: 0, currency: .usd, amount: 0, sourceRefundID: nil, balanceTransactionID: nil,
        disputeIDMetadata: nil)

    static let reader = FactsReader<TransferReversalFacts>()
}

extension ApplicationFeeFacts: StorableFacts {
    static let mapping: [FactColumn<ApplicationFeeFacts>] = [
        .init("id", { $0.pointee.id.sqlValue }, { $0.id = try .init(row: $1, at: $2) }),
        .init("created", { $0.pointee.created.sqlValue }, { $0.created = try .init(row: $1, at: $2) }),
        .init("currency", { $0.pointee.currency.sqlValue }, { $0.currency = try .init(row: $1, at: $2) }),
        .init("amount", { $0.pointee.amount.sqlValue }, { $0.amount = try .init(row: $1, at: $2) }),
        .init(
            "amount_refunded", { $0.pointee.amountRefunded.sqlValue },
            { $0.amountRefunded = try .init(row: $1, at: $2) }),
        .init(
            "originating_charge_id", { $0.pointee.originatingChargeID.sqlValue },
            { $0.originatingChargeID = try .init(row: $1, at: $2) }),
        .init("account_id", { $0.pointee.accountID.sqlValue }, { $0.accountID = try .init(row: $1, at: $2) }),
        .init(
            "balance_transaction_id", { $0.pointee.balanceTransactionID.sqlValue },
            { $0.balanceTransactionID = try .init(row: $1, at: $2) }),
        .init("livemode", { $0.pointee.livemode.sqlValue }, { $0.livemode = try .init(row: $1, at: $2) }),
    ]

    static let blank = ApplicationFeeFacts(
        id: "", created: 0, currency: .usd, amount: 0, amountRefunded: 0, originatingChargeID: nil, accountID: nil,
        balanceTransactionID: nil, livemode: false)

    static let reader = FactsReader<ApplicationFeeFacts>()
}

extension FeeRefundFacts: StorableFacts {
    static let mapping: [FactColumn<FeeRefundFacts>] = [
        .init("id", { $0.pointee.id.sqlValue }, { $0.id = try .init(row: $1, at: $2) }),
        .init("fee_id", { $0.pointee.feeID.sqlValue }, { $0.feeID = try .init(row: $1, at: $2) }),
        .init("created", { $0.pointee.created.sqlValue }, { $0.created = try .init(row: $1, at: $2) }),
        .init("currency", { $0.pointee.currency.sqlValue }, { $0.currency = try .init(row: $1, at: $2) }),
        .init("amount", { $0.pointee.amount.sqlValue }, { $0.amount = try .init(row: $1, at: $2) }),
        .init(
            "balance_transaction_id", { $0.pointee.balanceTransactionID.sqlValue },
            { $0.balanceTransactionID = try .init(row: $1, at: $2) }),
    ]

    static let blank = FeeRefundFacts(
        id: "", feeID: "", created: 0, currency: .usd, amount: 0, balanceTransactionID: nil)

    static let reader = FactsReader<FeeRefundFacts>()
}

extension RefundFacts: StorableFacts {
    static let mapping: [FactColumn<RefundFacts>] = [
        .init("id", { $0.pointee.id.sqlValue }, { $0.id = try .init(row: $1, at: $2) }),
        .init("charge_id", { $0.pointee.chargeID.sqlValue }, { $0.chargeID = try .init(row: $1, at: $2) }),
        .init("created", { $0.pointee.created.sqlValue }, { $0.created = try .init(row: $1, at: $2) }),
        .init("currency", { $0.pointee.currency.sqlValue }, { $0.currency = try .init(row: $1, at: $2) }),
        .init("amount", { $0.pointee.amount.sqlValue }, { $0.amount = try .init(row: $1, at: $2) }),
        .init("status", { $0.pointee.status.sqlValue }, { $0.status = try .init(row: $1, at: $2) }),
        .init(
            "transfer_reversal_id", { $0.pointee.transferReversalID.sqlValue },
            { $0.transferReversalID = try .init(row: $1, at: $2) }),
        .init(
            "balance_transaction_id", { $0.pointee.balanceTransactionID.sqlValue },
            { $0.balanceTransactionID = try .init(row: $1, at: $2) }),
        .init(
            "failure_balance_transaction_id", { $0.pointee.failureBalanceTransactionID.sqlValue },
            { $0.failureBalanceTransactionID = try .init(row: $1, at: $2) }),
        .init(
            "failure_reason", { $0.pointee.failureReason.sqlValue }, { $0.failureReason = try .init(row: $1, at: $2) }),
        .init("reason", { $0.pointee.reason.sqlValue }, { $0.reason = try .init(row: $1, at: $2) }),
    ]

    static let blank = RefundFacts(
        id: "", chargeID: nil, created: 0, currency: .usd, amount: 0, status: nil, transferReversalID: nil,
        balanceTransactionID: nil)

    static let reader = FactsReader<RefundFacts>()
}

extension DisputeFacts: StorableFacts {
    static let mapping: [FactColumn<DisputeFacts>] = [
        .init("id", { $0.pointee.id.sqlValue }, { $0.id = try .init(row: $1, at: $2) }),
        .init("charge_id", { $0.pointee.chargeID.sqlValue }, { $0.chargeID = try .init(row: $1, at: $2) }),
        .init("created", { $0.pointee.created.sqlValue }, { $0.created = try .init(row: $1, at: $2) }),
        .init("currency", { $0.pointee.currency.sqlValue }, { $0.currency = try .init(row: $1, at: $2) }),
        .init("amount", { $0.pointee.amount.sqlValue }, { $0.amount = try .init(row: $1, at: $2) }),
        .init("status", { $0.pointee.status.sqlValue }, { $0.status = try .init(row: $1, at: $2) }),
        .init(
            "balance_transaction_ids", { IDList.json($0.pointee.balanceTransactionIDs).sqlValue },
            { $0.balanceTransactionIDs = try IDList.ids(try String(row: $1, at: $2)) }),
    ]

    static let blank = DisputeFacts(
        id: "", chargeID: "", created: 0, currency: .usd, amount: 0, status: .needsResponse, balanceTransactionIDs: [])

    static let reader = FactsReader<DisputeFacts>()
}

extension BalanceTransactionFacts: StorableFacts {
    static let mapping: [FactColumn<BalanceTransactionFacts>] = [
        .init("id", { $0.pointee.id.sqlValue }, { $0.id = try .init(row: $1, at: $2) }),
        .init("created", { $0.pointee.created.sqlValue }, { $0.created = try .init(row: $1, at: $2) }),
        .init("currency", { $0.pointee.currency.sqlValue }, { $0.currency = try .init(row: $1, at: $2) }),
        .init("amount", { $0.pointee.amount.sqlValue }, { $0.amount = try .init(row: $1, at: $2) }),
        .init("fee", { $0.pointee.fee.sqlValue }, { $0.fee = try .init(row: $1, at: $2) }),
        .init("net", { $0.pointee.net.sqlValue }, { $0.net = try .init(row: $1, at: $2) }),
        .init("type", { $0.pointee.type.sqlValue }, { $0.type = try .init(row: $1, at: $2) }),
        .init(
            "reporting_category", { $0.pointee.reportingCategory.sqlValue },
            { $0.reportingCategory = try .init(row: $1, at: $2) }),
        .init("source_id", { $0.pointee.sourceID.sqlValue }, { $0.sourceID = try .init(row: $1, at: $2) }),
        .init("exchange_rate", { $0.pointee.exchangeRate.sqlValue }, { $0.exchangeRate = try .init(row: $1, at: $2) }),
        .init("status", { $0.pointee.status.sqlValue }, { $0.status = try .init(row: $1, at: $2) }),
        .init("available_on", { $0.pointee.availableOn.sqlValue }, { $0.availableOn = try .init(row: $1, at: $2) }),
        .init("balance_type", { $0.pointee.balanceType.sqlValue }, { $0.balanceType = try .init(row: $1, at: $2) }),
        .init("description", { $0.pointee.description.sqlValue }, { $0.description = try .init(row: $1, at: $2) }),
    ]

    static let blank = BalanceTransactionFacts(
        id: "", created: 0, currency: .usd, amount: 0, fee: 0, net: 0, type: .charge, reportingCategory: .charge,
        sourceID: nil, exchangeRate: nil, status: .available)

    static let reader = FactsReader<BalanceTransactionFacts>()
}

extension PayoutFacts: StorableFacts {
    static let mapping: [FactColumn<PayoutFacts>] = [
        .init("id", { $0.pointee.id.sqlValue }, { $0.id = try .init(row: $1, at: $2) }),
        .init("created", { $0.pointee.created.sqlValue }, { $0.created = try .init(row: $1, at: $2) }),
        .init("currency", { $0.pointee.currency.sqlValue }, { $0.currency = try .init(row: $1, at: $2) }),
        .init("amount", { $0.pointee.amount.sqlValue }, { $0.amount = try .init(row: $1, at: $2) }),
        .init("arrival_date", { $0.pointee.arrivalDate.sqlValue }, { $0.arrivalDate = try .init(row: $1, at: $2) }),
        .init("status", { $0.pointee.status.sqlValue }, { $0.status = try .init(row: $1, at: $2) }),
        .init("automatic", { $0.pointee.automatic.sqlValue }, { $0.automatic = try .init(row: $1, at: $2) }),
        .init(
            "balance_transaction_id", { $0.pointee.balanceTransactionID.sqlValue },
            { $0.balanceTransactionID = try .init(row: $1, at: $2) }),
        .init(
            "failure_balance_transaction_id", { $0.pointee.failureBalanceTransactionID.sqlValue },
            { $0.failureBalanceTransactionID = try .init(row: $1, at: $2) }),
        .init("failure_code", { $0.pointee.failureCode.sqlValue }, { $0.failureCode = try .init(row: $1, at: $2) }),
        .init("livemode", { $0.pointee.livemode.sqlValue }, { $0.livemode = try .init(row: $1, at: $2) }),
        .init(
            "reconciliation_status", { $0.pointee.reconciliationStatus.sqlValue },
            { $0.reconciliationStatus = try .init(row: $1, at: $2) }),
    ]

    static let blank = PayoutFacts(
        id: "", created: 0, currency: .usd, amount: 0, arrivalDate: 0, status: .paid, automatic: false,
        balanceTransactionID: nil, failureBalanceTransactionID: nil, failureCode: nil, livemode: false)

    static let reader = FactsReader<PayoutFacts>()
}

// MARK: - Column helpers

/// A stored value that does not fit its facts type: the file was changed by something else than connect-recon.
struct FactsColumnError: Error, CustomStringConvertible {
    let description: String
}

enum FactsColumn {
    /// A currency column; a value that is not a three-letter code is an error, as it was for the decoder.
    static func currency(_ row: SQLRow, _ index: Int) throws -> Currency {
        try currency(code: try row.decode(atIndex: index))
    }

    /// The currency a currency column's text `code` names; an error when it is not a three-letter code.
    static func currency(code: String) throws -> Currency {
        guard let currency = Currency(rawValue: code) else {
            throw FactsColumnError(description: "'\(code.prefix(20))' in a currency column is not a currency code")
        }
        return currency
    }
}

/// A list of ids stored as a JSON array of strings (`["txn_1","txn_2"]`), written byte for byte as GRDB's
/// `Codable` encoding wrote it, so histories written by either mapping hold the same text.
enum IDList {
    /// The JSON text of `ids`, escaped as `JSONEncoder` escapes (`"`, `\`, `/` and control characters).
    static func json(_ ids: [String]) -> String {
        if let plain = plainJSON(ids) { return plain }
        var text = "["
        for (index, id) in ids.enumerated() {
            if index > 0 { text += "," }
            text += "\""
            for scalar in id.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case "/": text += "\\/"
                case "\n": text += "\\n"
                case "\r": text += "\\r"
                case "\t": text += "\\t"
                case "\u{08}": text += "\\b"
                case "\u{0C}": text += "\\f"
                case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
                default: text.unicodeScalars.append(scalar)
                }
            }
            text += "\""
        }
        return text + "]"
    }

    /// The common case, fast: ids of printable ASCII without `"`, `\` or `/` need no escaping, so their bytes
    /// are copied as they are (the reconcile sends tens of thousands of ids per query).
    private static func plainJSON(_ ids: [String]) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(ids.reduce(2) { $0 + $1.utf8.count + 3 })
        func isPlain(_ byte: UInt8) -> Bool {
            byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
                && byte != UInt8(ascii: "/")
        }
        bytes.append(UInt8(ascii: "["))
        // By index, each id's bytes checked and copied at once where they are (`enumerated()` copied every id, and a
        // byte at a time was most of the time).
        for index in ids.indices {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            let copied = ids[index].utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
                guard utf8.allSatisfy(isPlain) else { return false }
                bytes.append(contentsOf: utf8)
                return true
            }
            switch copied {
            case true: break
            case false: return nil
            case nil:
                for byte in ids[index].utf8 {
                    guard isPlain(byte) else { return nil }
                    bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The ids of a JSON array of strings. Plain ids (no escapes) are split directly; anything else goes
    /// through `JSONDecoder`.
    static func ids(_ json: String) throws -> [String] {
        let bytes = Array(json.utf8)
        if let ids = plain(bytes) { return ids }
        do {
            return try JSONDecoder().decode([String].self, from: Data(bytes))
        } catch {
            throw FactsColumnError(
                description: "'\(json.prefix(40))' in an id-list column is not a JSON array of strings")
        }
    }

    /// `["a","b"]` without white space or escapes, or `nil`.
    private static func plain(_ bytes: [UInt8]) -> [String]? {
        let quote = UInt8(ascii: "\"")
        let comma = UInt8(ascii: ",")
        let backslash = UInt8(ascii: "\\")
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return nil }
        var ids: [String] = []
        var index = 1
        let end = bytes.count - 1
        while index < end {
            guard bytes[index] == quote else { return nil }
            var close = index + 1
            while close < end, bytes[close] != quote {
                if bytes[close] == backslash || bytes[close] < 0x20 { return nil }
                close += 1
            }
            guard close < end else { return nil }
            ids.append(String(decoding: bytes[(index + 1)..<close], as: UTF8.self))
            index = close + 1
            if index < end {
                guard bytes[index] == comma, index + 1 < end else { return nil }
                index += 1
            }
        }
        return ids
    }
}
