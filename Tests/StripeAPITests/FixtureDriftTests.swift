import Foundation
import ReconCore
import StripeAPI
import Testing

/// The shared fixtures the copies in `Fixtures/` were taken from: `<repository>/../shared/fixtures/stripe`,
/// when that folder exists next to the repository (it does on the team's machines, not in a bare clone).
enum SharedFixtures {
    static func folder(filePath: String = #filePath) -> URL? {
        let repository = URL(fileURLWithPath: filePath)
            .deletingLastPathComponent()  // StripeAPITests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // the repository
        let folder = repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures/stripe")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { return nil }
        return folder
    }

    static var isPresent: Bool { folder() != nil }

    static func jsonFileNames(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
    }

    /// `ENUMS_AND_PARAMS.md`, the enum values extracted from Stripe's API description.
    static func enumsDocument() throws -> String {
        let shared = try #require(folder())
        return try String(contentsOf: shared.appendingPathComponent("ENUMS_AND_PARAMS.md"), encoding: .utf8)
    }

    /// The `backticked` words of `text`.
    static func backticked<S: StringProtocol>(_ text: S) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The first non-empty line after the line that starts with `heading`.
    static func line(after heading: String, in document: String) throws -> Substring {
        let lines = document.split(separator: "\n")
        let index = try #require(lines.firstIndex { $0.hasPrefix(heading) }, "no '\(heading)' in ENUMS_AND_PARAMS.md")
        return try #require(lines[(index + 1)...].first { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
    }

    /// The 2026 column of the "Other enums" table row for `field`.
    static func otherEnum(_ field: String, in document: String) throws -> [String] {
        let row = try #require(document.split(separator: "\n").first { $0.hasPrefix("| `\(field)` ") })
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        let latest = cells[2].hasPrefix("(same") ? cells[1] : cells[2]
        return latest.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}

@Test(.enabled(if: SharedFixtures.isPresent, "../shared/fixtures/stripe is not next to the repository"))
func fixtureCopiesAreByteIdenticalToTheSharedFixtures() throws {
    // Given the shared fixtures and the copies in this test target
    let shared = try #require(SharedFixtures.folder())
    let copies = try Fixture.folder()

    // Then they hold the same JSON files
    let sharedNames = try SharedFixtures.jsonFileNames(in: shared)
    #expect(!sharedNames.isEmpty)
    #expect(try SharedFixtures.jsonFileNames(in: copies) == sharedNames)

    // And each copy has exactly the shared file's bytes
    for name in sharedNames {
        let original = try Data(contentsOf: shared.appendingPathComponent(name))
        let copy = try Data(contentsOf: copies.appendingPathComponent(name))
        #expect(
            copy == original, "Tests/StripeAPITests/Fixtures/\(name) differs from ../shared/fixtures/stripe/\(name)")
    }
}

@Test(.enabled(if: SharedFixtures.isPresent, "../shared/fixtures/stripe is not next to the repository"))
func knownBalanceTransactionTypesMatchTheSharedEnumList() throws {
    let document = try SharedFixtures.enumsDocument()
    let line = try SharedFixtures.line(
        after: "### stripe-node 2026-07-29.dahlia `BalanceTransaction.Type`", in: document)

    let listed = SharedFixtures.backticked(line)

    #expect(listed.count == 50)
    #expect(BalanceTransactionType.knownValues.map(\.rawValue) == listed)
}

@Test(.enabled(if: SharedFixtures.isPresent, "../shared/fixtures/stripe is not next to the repository"))
func knownValuesOfTheOtherEnumsMatchTheSharedEnumList() throws {
    // Given the values ENUMS_AND_PARAMS.md lists for the latest API version
    let document = try SharedFixtures.enumsDocument()
    let balanceTypes = try SharedFixtures.line(after: "## `balance_transaction.balance_type`", in: document)
    let feeTypes = try #require(
        document.split(separator: "\n").first { $0.hasPrefix("- stripe-node 2026: Type of the fee") })
    func known<Value: StripeEnum>(_ type: Value.Type) -> Set<String> { Set(type.knownValues.map(\.rawValue)) }
    func listed(_ field: String) throws -> Set<String> { Set(try SharedFixtures.otherEnum(field, in: document)) }

    let comparisons: [(field: String, ours: Set<String>, listed: Set<String>)] = [
        (
            "balance_transaction.balance_type", known(BalanceType.self),
            Set(SharedFixtures.backticked(balanceTypes.prefix { $0 != "(" }))
        ),
        ("balance_transaction.fee_details[].type", known(FeeDetailType.self), Set(SharedFixtures.backticked(feeTypes))),
        ("charge.status", known(ChargeStatus.self), try listed("charge.status")),
        ("dispute.status", known(DisputeStatus.self), try listed("dispute.status")),
        ("refund.reason", known(RefundReason.self), try listed("refund.reason")),
        ("payment_intent.status", known(PaymentIntentStatus.self), try listed("payment_intent.status")),
        ("application_fee.fee_source.type", known(FeeSourceType.self), try listed("application_fee.fee_source.type")),
        ("error.type", known(StripeErrorType.self), try listed("error.type")),
    ]

    // Then the models know exactly those values
    for comparison in comparisons {
        #expect(!comparison.listed.isEmpty, "\(comparison.field)")
        #expect(comparison.ours == comparison.listed, "\(comparison.field)")
    }
}
