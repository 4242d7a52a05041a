import Foundation
import TestSupport
import Testing

@testable import History
@testable import ReconCore

/// A charge that succeeded with a part still to come (its balance transaction, the transfer it asked for, the fee it
/// asked for) is defined once in Swift (`ChargeFacts.lacksAPartToCome(intent:)`) and once more as the SQL the look-back
/// reads charges again by (`LateOutcomeKind`). On generated histories of every combination, both must agree.
@Suite("One definition of a charge with a part to come: the look-back's SQL against the Swift")
struct LateOutcomeDefinitionTests {
    /// Charges of every status with and without a balance transaction, a transfer, a destination (their own or
    /// their PaymentIntent's, stored or not), an application fee asked for and one made.
    private static func history(seed: UInt64) -> ObjectLists {
        var random = SeededGenerator(state: seed)
        let statuses: [ChargeStatus] = [.succeeded, .succeeded, .pending, .failed]
        func maybe(_ value: String) -> String? { Bool.random(using: &random) ? value : nil }
        var charges: [StoredObject<ChargeFacts>] = []
        var intents: [StoredObject<PaymentIntentFacts>] = []
        for index in 0..<80 {
            let id = "ch_\(seed)_\(index)"
            let intentID = maybe("pi_\(seed)_\(index)")
            if let intentID, Int.random(in: 0..<4, using: &random) > 0 {
                intents.append(
                    StoredObject(
                        facts: PaymentIntentFacts(
                            id: intentID, created: 1_795_219_200, currency: .usd, amount: 1_000,
                            applicationFeeAmount: nil, destinationAccountID: maybe("acct_1"), transferDataAmount: nil,
                            status: .succeeded, latestChargeID: id, livemode: false),
                        rawJSON: #"{"id":"\#(intentID)"}"#))
            }
            charges.append(
                StoredObject(
                    facts: ChargeFacts(
                        id: id, created: 1_795_219_200 + Int64(index), currency: .usd, amount: 1_000,
                        amountCaptured: 1_000, amountRefunded: 0,
                        status: statuses.randomElement(using: &random) ?? .succeeded, captured: true,
                        paymentIntentID: intentID, transferID: maybe("tr_\(seed)_\(index)"),
                        applicationFeeID: maybe("fee_\(seed)_\(index)"),
                        applicationFeeAmount: Bool.random(using: &random) ? 100 : nil,
                        destinationAccountID: maybe("acct_1"), transferDataAmount: nil,
                        balanceTransactionID: maybe("txn_\(seed)_\(index)"), livemode: false),
                    rawJSON: #"{"id":"\#(id)"}"#))
        }
        var batch = ObjectLists()
        batch[stored: ChargeFacts.self] = charges
        batch[stored: PaymentIntentFacts.self] = intents
        return batch
    }

    @Test("on 20 generated histories the SQL finds the charges with a part to come that the Swift finds")
    func sqlAnswersAsSwift() async throws { try await sqlAnswersAsSwift(backend: .sqlite) }

    @Test(
        "on 20 generated histories the SQL finds the charges with a part to come that the Swift finds, on PostgreSQL",
        .postgreSQLServer)
    func sqlAnswersAsSwiftOnPostgreSQL() async throws { try await sqlAnswersAsSwift(backend: .postgreSQL) }

    func sqlAnswersAsSwift(backend: TestHistoryBackend) async throws {
        let database = try TemporaryDatabase(backend)
        let store = try database.open()
        var found = 0
        for seed in UInt64(1)...20 {
            let run = try store.runs.beginRun(start()).runID
            let batch = Self.history(seed: seed)
            try await store.objects.write(batch, run: run, now: 1_795_300_000)
            // The Swift definition
            let intents = Dictionary(
                uniqueKeysWithValues: batch[stored: PaymentIntentFacts.self].map { ($0.facts.id, $0.facts) })
            let swift = Set(
                batch[stored: ChargeFacts.self].map(\.facts).filter { charge in
                    charge.status == .succeeded
                        && charge.lacksAPartToCome(intent: charge.paymentIntentID.flatMap { intents[$0] })
                }.map(\.id))
            // The SQL: a charge's compared state is `succeeded|young` exactly when it succeeded with a part to come
            // and is young (here: always)
            let state = LateOutcomeKind.charge.state(youngWhen: "TRUE")
            let sql = try await store.gaps.readDatabase { db in
                try db.all("SELECT t.id, \(state) FROM charges AS t WHERE t.id LIKE 'ch_\(seed)_%'") {
                    (try String(row: $0, at: 0), try String(row: $0, at: 1))
                }
            }
            #expect(Set(sql.filter { $0.1.hasSuffix("|young") }.map(\.0)) == swift, "seed \(seed)")
            found += swift.count
            try store.runs.finishRun(run, status: .completed, finishedAt: 1_795_300_100, message: nil, details: nil)
        }
        // The generated histories hold such charges, and others
        #expect(found > 100 && found < 20 * 80)
    }
}
