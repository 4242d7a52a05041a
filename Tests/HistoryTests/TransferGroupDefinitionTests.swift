import Foundation
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// docs/RULES.md's "Separately transferred charges" is defined once in Swift (`ChargeFacts.namedTransferGroup`,
/// `canBelongToTransferGroup`, `isDestinationCharge`) and once more as SQL, where the history works out which groups'
/// transfers the extraction lists (`HistoryGaps.transferGroups`). On generated histories of every combination the
/// definition turns on, both must name the same groups and the same transfers.
@Suite("One definition of a transfer group: the history's SQL against the rules' Swift")
struct TransferGroupDefinitionTests {
    /// One generated history: charges of every status, captured or not, destination (by `transfer_data`, by
    /// `transfer`, by their PaymentIntent's) or not, naming a group themselves, through their PaymentIntent or not
    /// at all (Stripe's `group_pi_…` labels included); and transfers naming groups, charges, both or neither.
    private static func history(seed: UInt64) -> ObjectLists {
        var random = SeededGenerator(state: seed)
        let groups: [String?] = [nil, "order_1", "order_2", "order_3", "group_pi_x"]
        let statuses: [ChargeStatus] = [.succeeded, .succeeded, .pending, .failed]
        var charges: [StoredObject<ChargeFacts>] = []
        var intents: [StoredObject<PaymentIntentFacts>] = []
        for index in 0..<60 {
            let id = "ch_\(seed)_\(index)"
            var intentID: String?
            if Bool.random(using: &random) {
                intentID = "pi_\(seed)_\(index)"
                intents.append(
                    StoredObject(
                        facts: PaymentIntentFacts(
                            id: "pi_\(seed)_\(index)", created: 1_795_219_200, currency: .usd, amount: 1_000,
                            applicationFeeAmount: nil,
                            destinationAccountID: Int.random(in: 0..<4, using: &random) == 0 ? "acct_1" : nil,
                            transferDataAmount: nil, status: .succeeded, latestChargeID: id, livemode: false,
                            transferGroup: groups.randomElement(using: &random) ?? nil),
                        rawJSON: #"{"id":"pi_\#(seed)_\#(index)"}"#))
            }
            let status = statuses.randomElement(using: &random) ?? .succeeded
            charges.append(
                StoredObject(
                    facts: ChargeFacts(
                        id: id, created: 1_795_219_200 + Int64(index), currency: .usd, amount: 1_000,
                        amountCaptured: Bool.random(using: &random) ? 1_000 : 0, amountRefunded: 0, status: status,
                        captured: Bool.random(using: &random), paymentIntentID: intentID,
                        transferID: Int.random(in: 0..<5, using: &random) == 0 ? "tr_of_\(id)" : nil,
                        applicationFeeID: nil, applicationFeeAmount: nil,
                        destinationAccountID: Int.random(in: 0..<5, using: &random) == 0 ? "acct_1" : nil,
                        transferDataAmount: nil, balanceTransactionID: nil, livemode: false,
                        transferGroup: groups.randomElement(using: &random) ?? nil),
                    rawJSON: #"{"id":"\#(id)"}"#))
        }
        let transfers = (0..<30).map { index in
            StoredObject(
                facts: TransferFacts(
                    id: "tr_\(seed)_\(index)", created: 1_795_219_200 + Int64(index), currency: .usd, amount: 600,
                    amountReversed: 0, destinationAccountID: "acct_1",
                    sourceTransactionID: Bool.random(using: &random)
                        ? "ch_\(seed)_\(Int.random(in: 0..<60, using: &random))" : nil,
                    balanceTransactionID: nil, transferGroup: groups.randomElement(using: &random) ?? nil,
                    disputeIDMetadata: nil, livemode: false),
                rawJSON: #"{"id":"tr_\#(seed)_\#(index)"}"#)
        }
        var batch = ObjectLists()
        batch[stored: ChargeFacts.self] = charges
        batch[stored: PaymentIntentFacts.self] = intents
        batch[stored: TransferFacts.self] = transfers
        return batch
    }

    @Test(
        "on 30 generated histories the SQL names the groups and transfers the Swift definition names, on PostgreSQL",
        .postgreSQLServer)
    func sqlAnswersAsSwiftOnPostgreSQL() async throws { try await sqlAnswersAsSwift(backend: .postgreSQL) }

    @Test(
        "on 30 generated histories the SQL names the groups and transfers the Swift definition names",
        arguments: [TestHistoryBackend.sqlite])
    func sqlAnswersAsSwift(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        var checkedGroups = 0
        for seed in UInt64(1)...30 {
            let run = try store.runs.beginRun(start()).runID
            let batch = Self.history(seed: seed)
            try await store.objects.write(batch, run: run, now: 1_795_300_000)

            // The Swift definition, as the rules apply it
            let intents = Dictionary(
                uniqueKeysWithValues: batch[stored: PaymentIntentFacts.self].map { ($0.facts.id, $0.facts) })
            var separate: Set<String> = []
            var names: Set<String> = []
            for charge in batch[stored: ChargeFacts.self].map(\.facts) {
                let intent = charge.paymentIntentID.flatMap { intents[$0] }
                if charge.canBelongToTransferGroup(intent: intent) { separate.insert(charge.id) }
                if let name = charge.namedTransferGroup(intent: intent) { names.insert(name) }
            }
            var transfers: Set<String> = []
            for transfer in batch[stored: TransferFacts.self].map(\.facts) {
                let byGroup = transfer.transferGroup.map { names.contains($0) } ?? false
                let bySource = transfer.sourceTransactionID.map { separate.contains($0) } ?? false
                if byGroup || bySource { transfers.insert(transfer.id) }
            }

            // The SQL, on this run's objects
            let prefix = "ch_\(seed)_"
            let answer = try await store.gaps.readDatabase { db in
                try HistoryGaps.transferGroups(
                    charges: "SELECT id FROM charges WHERE id LIKE '\(prefix)%'", seen: "(\(run))", db: db)
            }
            #expect(Set(answer.names) == names, "seed \(seed)")
            #expect(Set(answer.transfers.filter { $0.hasPrefix("tr_\(seed)_") }) == transfers, "seed \(seed)")
            checkedGroups += names.count
            try store.runs.finishRun(run, status: .completed, finishedAt: 1_795_300_100, message: nil, details: nil)
        }
        // The generated histories hold groups to compare, not only empty answers
        #expect(checkedGroups > 30)
    }
}
