import ReconCore

/// Where a charges' part starts: the creation time and id of the charge before its first
/// (``PartLoader/rangeCharges()``).
typealias ChargePartStart = (created: Int64, id: String)

/// What the second of two readers of one snapshot hands the first after its charges' parts: the parts it read, and
/// where each of its turns ends (a payouts' group, a kind judged in parts of its own), so that the first reader
/// takes exactly the parts of the turn it waits for.
enum HandedPart: Sendable {
    case part(ReconciliationInput)
    case endOfTurn
}

/// Which reader of a range's parts this is (``HistoryParts/forEach(from:to:asOf:skippedTransferGrace:chargesPerPart:
/// late:run:_:)``), and what it shares with the other.
enum PartReaderRole {
    /// The only reader: it reads every part.
    case alone
    /// The first of two: it finds where the charges' parts start and gives that to the second (`publishStarts`),
    /// reads the orphans' parts, the even charges', the late outcomes' and half of the payouts' groups, and takes the
    /// second's parts in between, in order (`oddChargePart`, then `handed`).
    case first(
        publishStarts: ([ChargePartStart?]) throws -> Void, oddChargePart: () throws -> ReconciliationInput?,
        handed: () throws -> HandedPart?)
    /// The second of two: it reads the odd charges' parts (`oddChargePart`) where the first found they start
    /// (`starts`), then the other half of the payouts' groups, the kinds judged in parts of their own, the ledger and
    /// the last part (`hand`, each turn ended by ``HandedPart/endOfTurn``).
    case second(
        starts: () throws -> [ChargePartStart?]?, oddChargePart: (ReconciliationInput) throws -> Void,
        hand: (HandedPart) throws -> Void)
}
