/// The transfer groups of some charges and transfers (docs/RULES.md, "Separately transferred charges"): which group
/// each charge belongs to, and each group's charges and transfers, in creation order (ties by id). The rules read a
/// part's groups through it, and the history's part reader finds with it which groups a part must hold whole.
public struct TransferGroupIndex: Sendable {
    /// Charge id → its group, for the charges that belong to one.
    public let groupOfCharge: [String: String]
    /// Group → its charges.
    public let charges: [String: [ChargeFacts]]
    /// Group → its transfers (only groups with a charge: a bonus transfer's group has none).
    public let transfers: [String: [TransferFacts]]

    public static let empty = TransferGroupIndex(groupOfCharge: [:], charges: [:], transfers: [:])

    private init(
        groupOfCharge: [String: String], charges: [String: [ChargeFacts]], transfers: [String: [TransferFacts]]
    ) {
        self.groupOfCharge = groupOfCharge
        self.charges = charges
        self.transfers = transfers
    }

    /// A charge belongs to the group it names (``ChargeFacts/namedTransferGroup(intent:)``), else to the group of
    /// the earliest transfer naming it as `source_transaction`; a transfer to its ``TransferFacts/transferGroupKey``.
    public init(
        charges: [ChargeFacts], transfers: [TransferFacts], intent: (ChargeFacts) -> PaymentIntentFacts?
    ) {
        var groupOfCharge: [String: String] = [:]
        var unnamed: [String] = []
        // By index (`for charge in charges` copies every charge, retaining each of its strings), and the PaymentIntent
        // looked up only for a charge that may belong to a group: most are destination charges, which say so
        // themselves.
        for position in charges.indices {
            guard charges[position].canBelongToTransferGroup(intent: intent(charges[position])) else { continue }
            // A charge that may belong: its PaymentIntent looked up once more, for the group it names.
            let found = intent(charges[position])
            if let group = charges[position].namedTransferGroup(intent: found) {
                groupOfCharge[charges[position].id] = group
            } else {
                unnamed.append(charges[position].id)
            }
        }
        if !unnamed.isEmpty {
            let candidates = Set(unnamed)
            // The transfers naming one of them, earliest first, by position: sorting every transfer of the part
            // copied each of them.
            let naming = transfers.indices.filter {
                transfers[$0].sourceTransactionID.map(candidates.contains) == true
            }.sorted { (transfers[$0].created, transfers[$0].id) < (transfers[$1].created, transfers[$1].id) }
            for position in naming {
                guard let source = transfers[position].sourceTransactionID, groupOfCharge[source] == nil,
                    let group = transfers[position].transferGroupKey
                else { continue }
                groupOfCharge[source] = group
            }
        }
        guard !groupOfCharge.isEmpty else {
            self = .empty
            return
        }
        var groupCharges: [String: [ChargeFacts]] = [:]
        for position in charges.indices {
            if let group = groupOfCharge[charges[position].id] {
                groupCharges[group, default: []].append(charges[position])
            }
        }
        var groupTransfers: [String: [TransferFacts]] = [:]
        for transfer in transfers {
            guard let group = transfer.transferGroupKey, groupCharges[group] != nil else { continue }
            groupTransfers[group, default: []].append(transfer)
        }
        let order: (ChargeFacts, ChargeFacts) -> Bool = { ($0.created, $0.id) < ($1.created, $1.id) }
        self.groupOfCharge = groupOfCharge
        self.charges = groupCharges.mapValues { $0.sorted(by: order) }
        self.transfers = groupTransfers.mapValues { $0.sorted { ($0.created, $0.id) < ($1.created, $1.id) } }
    }

    /// The group `charge` belongs to, if any.
    public func group(of charge: ChargeFacts) -> String? { groupOfCharge[charge.id] }
}
