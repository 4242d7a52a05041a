import Foundation
import ReconCore

/// One of Stripe's costs outside charges the world bills the platform (docs/RULES.md, "The platform's other money"):
/// a `stripe_fee` or `network_cost` balance transaction with no source, and what its description names.
package struct WorldStripeCost: Sendable, Hashable {
    /// What the cost is for: its description's words.
    package enum Kind: UInt8, Sendable {
        /// IC+ card fees of a day: `Card payments (D): Stripe volume fees`.
        case volumeFees
        /// `Card payments (D): Stripe per-authorization fees`.
        case perAuthorizationFees
        /// Fees assessed earlier given back: `Card payments (D): Credit for previously-assessed fees` (a credit).
        case feeCredit
        /// `Card payments (D): Transaction network costs` (type `network_cost`), billed days to weeks late.
        case networkCosts
        /// A month of Connect fees: `Connect (D1 - D2): Account Volume Billing`.
        case connectBilling
        /// A cost whose description names no day: `Radar: Standard`.
        case radarUndated
    }

    package var kind: Kind
    /// The first day the description names (UTC midnight, Unix seconds); `nil` for ``Kind/radarUndated``.
    package var namedDay: Int64?
    /// A period's last day (``Kind/connectBilling``).
    package var namedEnd: Int64?
    /// Written with a date no calendar has (`2026-02-30`): bad input, counted on its `created` day.
    package var unparseable = false

    /// The description as Stripe writes it.
    package var description: String {
        func date(_ day: Int64?) -> String { day.map(Self.utcDate) ?? "" }
        let named = unparseable ? "\(date(namedDay).prefix(4))-02-30" : date(namedDay)
        switch kind {
        case .volumeFees: return "Card payments (\(named)): Stripe volume fees"
        case .perAuthorizationFees: return "Card payments (\(named)): Stripe per-authorization fees"
        case .feeCredit: return "Card payments (\(named)): Credit for previously-assessed fees"
        case .networkCosts: return "Card payments (\(named)): Transaction network costs"
        case .connectBilling: return "Connect (\(named) - \(date(namedEnd))): Account Volume Billing"
        case .radarUndated: return "Radar: Standard"
        }
    }

    /// The report's kind of the cost: what it is for, without its dates.
    package var reportKind: String {
        switch kind {
        case .volumeFees: "Card payments: Stripe volume fees"
        case .perAuthorizationFees: "Card payments: Stripe per-authorization fees"
        case .feeCredit: "Card payments: Credit for previously-assessed fees"
        case .networkCosts: "Card payments: Transaction network costs"
        case .connectBilling: "Connect: Account Volume Billing"
        case .radarUndated: "Radar: Standard"
        }
    }

    /// The day the report counts the cost on, when the description names one it can read.
    package var reportDay: String? { unparseable ? nil : namedDay.map(Self.utcDate) }

    static func utcDate(_ seconds: Int64) -> String {
        String(RFC3339.string(unixSeconds: seconds, in: .gmt).prefix(10))
    }
}
