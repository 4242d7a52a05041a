import Foundation
import ReconCore
import Sandbox
import SandboxTruth
import Testing

/// Money moved by hand, across time (docs/RULES.md), in the sandbox: a world made with `movesByHand` served as of its
/// earlier moment and as of its end. The charges are of the day before the earlier moment (day D); the moves come
/// after it; the ground truth of D computes each case as of both moments on its own.
@Suite struct MovedByHandTruthTests {
    static let start = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01
    static let full = SandboxWorld(seed: 42, charges: 1_000, start: start, days: 10, movesByHand: true)
    static let earlier = full.served(asOf: full.earlierMoment)

    static func id(_ scenario: SandboxScenario) throws -> String {
        try #require(full.ids(for: scenario).first, "\(scenario.rawValue) is in the world")
    }

    static func json(_ world: SandboxWorld, _ id: String) throws -> [String: Any] {
        let data = try #require(world.renderedObject(id: id), "\(id) is served")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Day D's ground truth as the world served it at `world`'s end.
    static func truthOfD(_ world: SandboxWorld) throws -> GroundTruth {
        let dayD = full.earlierMoment.addingTimeInterval(-86_400)
        let range = try ReportingRange(from: dayD, to: full.earlierMoment, timeZone: .gmt)
        return world.groundTruth(for: range, asOf: world.end, skippedTransferGrace: 3_600)
    }

    @Test func theChargesAreOfDayDAndTheirMoneyMovesAfterTheEarlierMoment() throws {
        let moment = Int64(Self.full.earlierMoment.timeIntervalSince1970)
        for scenario in SandboxScenario.movedByHand {
            let charge = try Self.id(scenario)
            let created = try #require(try Self.json(Self.full, charge)["created"] as? Int)
            #expect((moment - 86_400..<moment).contains(Int64(created)), "\(scenario.rawValue)")
        }
        // A world made without it holds none of them
        let plain = SandboxWorld(seed: 42, charges: 1_000, start: Self.start, days: 10)
        #expect(SandboxScenario.movedByHand.allSatisfy { plain.ids(for: $0).isEmpty })
        // The reversed transfer shows its reversal only at the end
        let transfer = try #require(
            try Self.json(Self.full, try Self.id(.lateRefundRecoveredByHand))["transfer"] as? String)
        #expect(try Self.json(Self.earlier, transfer)["amount_reversed"] as? Int == 0)
        #expect(try Self.json(Self.full, transfer)["amount_reversed"] as? Int == 4_000)
    }

    @Test func theGroundTruthOfDayDComputesEachCaseAtBothMoments() throws {
        let (before, after) = (try Self.truthOfD(Self.earlier), try Self.truthOfD(Self.full))
        func refundNotRecovered(_ truth: GroundTruth, _ object: String) -> GroundTruth.Exception? {
            truth.exceptions.first { $0.kind == .refundNotRecovered && $0.objectID == object }
        }
        let exact = try Self.id(.lateRefundRecoveredByHand)
        let short = try Self.id(.lateRefundRecoveredShort)
        let group = try #require(try Self.json(Self.full, try Self.id(.lateGroupTransfer))["transfer_group"] as? String)
        let refundedGroup = try #require(
            try Self.json(Self.full, try Self.id(.lateGroupRefundRecovered))["transfer_group"] as? String)
        let disputed = try Self.id(.lateDisputeRecoveredByHand)
        let paid = try Self.id(.lateGroupDisputedThenPaid)

        // Before the moves: the refunds' shares not given back, the dispute not recovered, one transfer of the group
        for (object, share) in [(exact, Int64(4_000)), (short, 4_000), (refundedGroup, 3_400)] {
            let finding = try #require(refundNotRecovered(before, object), "\(object)")
            #expect(finding.expected == .amount(share) && finding.actual == .amount(0))
        }
        #expect(before.unreversedDisputes.contains { $0.chargeID == disputed })
        #expect(!before.unreversedDisputes.contains { $0.chargeID == paid })
        let rowBefore = try #require(before.transferGroups.first { $0.transferGroup == group })
        #expect(rowBefore.transferred == 6_000 && rowBefore.platformTake == 4_000)

        // After them: recovered exactly, 2.00 short, the dispute recovered, the second transfer, the paid seller
        #expect(refundNotRecovered(after, exact) == nil && refundNotRecovered(after, refundedGroup) == nil)
        let shortAfter = try #require(refundNotRecovered(after, short))
        #expect(shortAfter.expected == .amount(4_000) && shortAfter.actual == .amount(3_800))
        #expect(!after.unreversedDisputes.contains { $0.chargeID == disputed })
        let paidRow = try #require(after.unreversedDisputes.first { $0.chargeID == paid })
        #expect(paidRow.recoverable == 5_000 && paidRow.unrecovered == 5_000)
        let rowAfter = try #require(after.transferGroups.first { $0.transferGroup == group })
        #expect(rowAfter.transferred == 8_500 && rowAfter.platformTake == 1_500)
    }
}
