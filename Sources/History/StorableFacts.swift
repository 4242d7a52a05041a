import Foundation
import ReconCore

/// A facts type the history keeps in a table of its own, one row per object id.
///
/// The one place facts map to and from rows: ``columns`` names the table's fact columns (the facts' coding keys),
/// ``sqlValues`` gives them in that order for binding, and ``init(row:)`` reads them back by index from a
/// `SELECT` of ``selection``. Positional, not Codable: the history stores and loads millions of rows, and a
/// dictionary or a decoder per row was most of the time they took.
protocol StorableFacts: ObjectFacts {
    /// The fact columns, `id` first, in the order of ``sqlValues`` and ``init(row:)``.
    static var columns: [String] { get }
    /// The values of ``columns``, in order.
    var sqlValues: [SQLValue] { get }
    /// Reads the facts from a row whose first columns are ``columns``, in order.
    init(row: SQLRow) throws
}

extension StorableFacts {
    /// The kind's table (its catalogue entry's).
    static var table: String { kind.entry.table }
    /// `id, created, …`: the `SELECT` list that ``init(row:)`` reads.
    static var selection: String { columns.joined(separator: ", ") }
    /// `t.id, t.created, …`: ``selection`` for a query that names the table `t`.
    static var qualifiedSelection: String { columns.map { "t.\($0)" }.joined(separator: ", ") }
}

extension ChargeFacts: StorableFacts {
    static let columns = [
        "id", "created", "currency", "amount", "amount_captured", "amount_refunded", "status", "captured",
        "payment_intent_id", "transfer_id", "application_fee_id", "application_fee_amount", "transfer_destination",
        "transfer_data_amount", "balance_transaction_id", "livemode",
    ]

    var sqlValues: [SQLValue] {
        [
            id.sqlValue, created.sqlValue, currency.rawValue.sqlValue, amount.sqlValue,
            amountCaptured.sqlValue, amountRefunded.sqlValue, status.sqlValue, captured.sqlValue,
            paymentIntentID.sqlValue, transferID.sqlValue, applicationFeeID.sqlValue,
            applicationFeeAmount.sqlValue, destinationAccountID.sqlValue, transferDataAmount.sqlValue,
            balanceTransactionID.sqlValue, livemode.sqlValue,
        ]
    }

    init(row: SQLRow) throws {
        self.init(
            id: try row.decode(atIndex: 0), created: try row.decode(atIndex: 1),
            currency: try FactsColumn.currency(row, 2), amount: try row.decode(atIndex: 3),
            amountCaptured: try row.decode(atIndex: 4), amountRefunded: try row.decode(atIndex: 5),
            status: try row.decode(atIndex: 6), captured: try row.decode(atIndex: 7),
            paymentIntentID: try row.decode(atIndex: 8), transferID: try row.decode(atIndex: 9),
            applicationFeeID: try row.decode(atIndex: 10), applicationFeeAmount: try row.decode(atIndex: 11),
            destinationAccountID: try row.decode(atIndex: 12), transferDataAmount: try row.decode(atIndex: 13),
            balanceTransactionID: try row.decode(atIndex: 14), livemode: try row.decode(atIndex: 15))
    }
}

extension PaymentIntentFacts: StorableFacts {
    static let columns = [
        "id", "created", "currency", "amount", "application_fee_amount", "transfer_destination",
        "transfer_data_amount", "status", "latest_charge_id", "livemode",
    ]

    var sqlValues: [SQLValue] {
        [
            id.sqlValue, created.sqlValue, currency.rawValue.sqlValue, amount.sqlValue,
            applicationFeeAmount.sqlValue, destinationAccountID.sqlValue, transferDataAmount.sqlValue,
            status.sqlValue, latestChargeID.sqlValue, livemode.sqlValue,
        ]
    }

    init(row: SQLRow) throws {
        self.init(
            id: try row.decode(atIndex: 0), created: try row.decode(atIndex: 1),
            currency: try FactsColumn.currency(row, 2), amount: try row.decode(atIndex: 3),
            applicationFeeAmount: try row.decode(atIndex: 4), destinationAccountID: try row.decode(atIndex: 5),
            transferDataAmount: try row.decode(atIndex: 6), status: try row.decode(atIndex: 7),
            latestChargeID: try row.decode(atIndex: 8), livemode: try row.decode(atIndex: 9))
    }
}

extension TransferFacts: StorableFacts {
    static let columns = [
        "id", "created", "currency", "amount", "amount_reversed", "destination", "source_transaction_id",
        "balance_transaction_id", "transfer_group", "dispute_id_metadata", "livemode",
    ]

    var sqlValues: [SQLValue] {
        [
            id.sqlValue, created.sqlValue, currency.rawValue.sqlValue, amount.sqlValue,
            amountReversed.sqlValue, destinationAccountID.sqlValue, sourceTransactionID.sqlValue,
            balanceTransactionID.sqlValue, transferGroup.sqlValue, disputeIDMetadata.sqlValue,
            livemode.sqlValue,
        ]
    }

    init(row: SQLRow) throws {
        self.init(
            id: try row.decode(atIndex: 0), created: try row.decode(atIndex: 1),
            currency: try FactsColumn.currency(row, 2), amount: try row.decode(atIndex: 3),
            amountReversed: try row.decode(atIndex: 4), destinationAccountID: try row.decode(atIndex: 5),
            sourceTransactionID: try row.decode(atIndex: 6), balanceTransactionID: try row.decode(atIndex: 7),
            transferGroup: try row.decode(atIndex: 8), disputeIDMetadata: try row.decode(atIndex: 9),
            livemode: try row.decode(atIndex: 10))
    }
}

extension TransferReversalFacts: StorableFacts {
    static let columns = [
        "id", "transfer_id", "created", "currency", "amount", "source_refund_id", "balance_transaction_id",
        "dispute_id_metadata",
    ]

    var sqlValues: [SQLValue] {
        [
            id.sqlValue, transferID.sqlValue, created.sqlValue, currency.rawValue.sqlValue,
            amount.sqlValue, sourceRefundID.sqlValue, balanceTransactionID.sqlValue,
            disputeIDMetadata.sqlValue,
        ]
    }

    init(row: SQLRow) throws {
        self.init(
            id: try row.decode(atIndex: 0), transferID: try row.decode(atIndex: 1), created: try row.decode(atIndex: 2),
            currency: try FactsColumn.currency(row, 3), amount: try row.decode(atIndex: 4),
            sourceRefundID: try row.decode(atIndex: 5), balanceTransactionID: try row.decode(atIndex: 6),
            disputeIDMetadata: try row.decode(atIndex: 7))
    }
}

extension ApplicationFeeFacts: StorableFacts {
    static let columns = [
        "id", "created", "currency", "amount", "amount_refunded", "originating_charge_id", "account_id",
        "balance_transaction_id", "livemode",
    ]

    var sqlValues: [SQLValue] {
        [
            id.sqlValue, created.sqlValue, currency.rawValue.sqlValue, amount.sqlValue,
            amountRefunded.sqlValue, originatingChargeID.sqlValue, accountID.sqlValue,
            balanceTransactionID.sqlValue, livemode.sqlValue,
        ]
    }

    init(row: SQLRow) throws {
        self.init(
            id: try row.decode(atIndex: 0), created: try row.decode(atIndex: 1),
            currency: try FactsColumn.currency(row, 2), amount: try row.decode(atIndex: 3),
            amountRefunded: try row.decode(atIndex: 4), originatingChargeID: try row.decode(atIndex: 5),
            accountID: try row.decode(atIndex: 6), balanceTransactionID: try row.decode(atIndex: 7),
            livemode: try row.decode(atIndex: 8))
    }
}

extension FeeRefundFacts: StorableFacts {
    static let columns = ["id", "fee_id", "created", "currency", "amount", "balance_transaction_id"]

    var sqlValues: [SQLValue] {
        [
            id.sqlValue, feeID.sqlValue, created.sqlValue, currency.rawValue.sqlValue,
            amount.sqlValue, balanceTransactionID.sqlValue,
        ]
    }

    init(row: SQLRow) throws {
        self.init(
            id: try row.decode(atIndex: 0), feeID: try row.decode(atIndex: 1), created: try row.decode(atIndex: 2),
            currency: try FactsColumn.currency(row, 3), amount: try row.decode(atIndex: 4),
            balanceTransactionID: try row.decode(atIndex: 5))
    }
}

extension RefundFacts: StorableFacts {
    static let columns = [
        "id", "charge_id", "created", "currency", "amount", "status", "transfer_reversal_id", "balance_transaction_id",
        "failure_balance_transaction_id", "failure_reason",
    ]

    var sqlValues: [SQLValue] {
        [
            id.sqlValue, chargeID.sqlValue, created.sqlValue, currency.rawValue.sqlValue,
            amount.sqlValue, status.sqlValue, transferReversalID.sqlValue,
            balanceTransactionID.sqlValue, failureBalanceTransactionID.sqlValue, failureReason.sqlValue,
        ]
    }

    init(row: SQLRow) throws {
        self.init(
            id: try row.decode(atIndex: 0), chargeID: try row.decode(atIndex: 1), created: try row.decode(atIndex: 2),
            currency: try FactsColumn.currency(row, 3), amount: try row.decode(atIndex: 4),
            status: try row.decode(atIndex: 5), transferReversalID: try row.decode(atIndex: 6),
            balanceTransactionID: try row.decode(atIndex: 7), failureBalanceTransactionID: try row.decode(atIndex: 8),
            failureReason: try row.decode(atIndex: 9))
    }
}

extension DisputeFacts: StorableFacts {
    static let columns = ["id", "charge_id", "created", "currency", "amount", "status", "balance_transaction_ids"]

    var sqlValues: [SQLValue] {
        [
            id.sqlValue, chargeID.sqlValue, created.sqlValue, currency.rawValue.sqlValue,
            amount.sqlValue, status.sqlValue, IDList.json(balanceTransactionIDs).sqlValue,
        ]
    }

    init(row: SQLRow) throws {
        self.init(
            id: try row.decode(atIndex: 0), chargeID: try row.decode(atIndex: 1), created: try row.decode(atIndex: 2),
            currency: try FactsColumn.currency(row, 3), amount: try row.decode(atIndex: 4),
            status: try row.decode(atIndex: 5), balanceTransactionIDs: try IDList.ids(try row.decode(atIndex: 6)))
    }
}

extension BalanceTransactionFacts: StorableFacts {
    static let columns = [
        "id", "created", "currency", "amount", "fee", "net", "type", "reporting_category", "source_id",
        "exchange_rate", "status", "available_on", "balance_type",
    ]

    var sqlValues: [SQLValue] {
        [
            id.sqlValue, created.sqlValue, currency.rawValue.sqlValue, amount.sqlValue,
            fee.sqlValue, net.sqlValue, type.sqlValue, reportingCategory.sqlValue,
            sourceID.sqlValue, exchangeRate.sqlValue, status.sqlValue, availableOn.sqlValue,
            balanceType.sqlValue,
        ]
    }

    init(row: SQLRow) throws {
        self.init(
            id: try row.decode(atIndex: 0), created: try row.decode(atIndex: 1),
            currency: try FactsColumn.currency(row, 2), amount: try row.decode(atIndex: 3),
            fee: try row.decode(atIndex: 4), net: try row.decode(atIndex: 5), type: try row.decode(atIndex: 6),
            reportingCategory: try row.decode(atIndex: 7), sourceID: try row.decode(atIndex: 8),
            exchangeRate: try row.decode(atIndex: 9), status: try row.decode(atIndex: 10),
            availableOn: try row.decode(atIndex: 11), balanceType: try row.decode(atIndex: 12))
    }
}

extension PayoutFacts: StorableFacts {
    static let columns = [
        "id", "created", "currency", "amount", "arrival_date", "status", "automatic", "balance_transaction_id",
        "failure_balance_transaction_id", "failure_code", "livemode", "reconciliation_status",
    ]

    var sqlValues: [SQLValue] {
        [
            id.sqlValue, created.sqlValue, currency.rawValue.sqlValue, amount.sqlValue,
            arrivalDate.sqlValue, status.sqlValue, automatic.sqlValue,
            balanceTransactionID.sqlValue, failureBalanceTransactionID.sqlValue, failureCode.sqlValue,
            livemode.sqlValue, reconciliationStatus.sqlValue,
        ]
    }

    init(row: SQLRow) throws {
        self.init(
            id: try row.decode(atIndex: 0), created: try row.decode(atIndex: 1),
            currency: try FactsColumn.currency(row, 2), amount: try row.decode(atIndex: 3),
            arrivalDate: try row.decode(atIndex: 4), status: try row.decode(atIndex: 5),
            automatic: try row.decode(atIndex: 6), balanceTransactionID: try row.decode(atIndex: 7),
            failureBalanceTransactionID: try row.decode(atIndex: 8), failureCode: try row.decode(atIndex: 9),
            livemode: try row.decode(atIndex: 10), reconciliationStatus: try row.decode(atIndex: 11))
    }
}

// MARK: - Column helpers

/// A stored value that does not fit its facts type: the file was changed by something else than connect-recon.
struct FactsColumnError: Error, CustomStringConvertible {
    let description: String
}

enum FactsColumn {
    /// A currency column; a value that is not a three-letter code is an error, as it was for the decoder.
    static func currency(_ row: SQLRow, _ index: Int) throws -> Currency {
        let code: String = try row.decode(atIndex: index)
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
        bytes.append(UInt8(ascii: "["))
        for (index, id) in ids.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            for byte in id.utf8 {
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"),
                    byte != UInt8(ascii: "/")
                else { return nil }
                bytes.append(byte)
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
