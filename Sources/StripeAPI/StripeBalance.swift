import ReconCore

/// The platform's balance as `GET /v1/balance` reports it now (https://docs.stripe.com/api/balance/balance_object).
///
/// The object has no id and no time: the moment it describes is the `Date` of Stripe's response
/// (``StripeClient/balance()``). Unknown members (`instant_available`, `connect_reserved`, new buckets) are ignored:
/// `instant_available` is a view of the same money, never added.
public struct StripeBalance: Decodable, Equatable, Sendable {
    /// Funds available to pay out, per currency (the `payments` balance).
    public let available: [BalanceAmount]
    /// Funds not yet available, per currency (the `payments` balance).
    public let pending: [BalanceAmount]
    /// The balance that prefunds refunds and disputes, when the account has one.
    public let refundAndDisputePrefunding: BalanceBucket?
    /// The Issuing balance, when the account has one.
    public let issuing: BalanceBucket?
    public let livemode: Bool?

    private enum CodingKeys: String, CodingKey {
        case object, available, pending, livemode, issuing
        case refundAndDisputePrefunding = "refund_and_dispute_prefunding"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let object = try container.decode(String.self, forKey: .object)
        guard object == "balance" else {
            throw DecodingError.dataCorruptedError(
                forKey: .object, in: container, debugDescription: "expected a 'balance' object, found '\(object)'")
        }
        available = try container.decode([BalanceAmount].self, forKey: .available)
        pending = try container.decodeIfPresent([BalanceAmount].self, forKey: .pending) ?? []
        refundAndDisputePrefunding = try container.decodeIfPresent(
            BalanceBucket.self, forKey: .refundAndDisputePrefunding)
        issuing = try container.decodeIfPresent(BalanceBucket.self, forKey: .issuing)
        livemode = try container.decodeIfPresent(Bool.self, forKey: .livemode)
    }

    /// One currency's amount of a balance (Stripe's `source_types` breakdown is not read).
    public struct BalanceAmount: Decodable, Equatable, Sendable {
        /// Minor units of ``currency``; negative when the account owes Stripe.
        public let amount: Int64
        public let currency: Currency
    }

    /// A balance other than `payments`: its available and pending funds.
    public struct BalanceBucket: Decodable, Equatable, Sendable {
        public let available: [BalanceAmount]
        public let pending: [BalanceAmount]

        private enum CodingKeys: String, CodingKey { case available, pending }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            available = try container.decodeIfPresent([BalanceAmount].self, forKey: .available) ?? []
            pending = try container.decodeIfPresent([BalanceAmount].self, forKey: .pending) ?? []
        }
    }

    /// The snapshot the roll-forward anchors on, taken at `takenAt`: per currency and balance type, available plus
    /// pending (a currency listed twice in one list is added up; a sum that does not fit in 64 bits is `nil`).
    public func snapshot(takenAt: Int64) -> BalanceSnapshot? {
        var amounts: [BalanceKey: Int64] = [:]
        var types: Set<BalanceType> = [.payments]
        var parts: [(BalanceType, [BalanceAmount])] = [(.payments, available), (.payments, pending)]
        if let refundAndDisputePrefunding {
            types.insert(.refundAndDisputePrefunding)
            parts += [
                (.refundAndDisputePrefunding, refundAndDisputePrefunding.available),
                (.refundAndDisputePrefunding, refundAndDisputePrefunding.pending),
            ]
        }
        if let issuing {
            types.insert(.issuing)
            parts += [(.issuing, issuing.available), (.issuing, issuing.pending)]
        }
        for (type, list) in parts {
            for entry in list {
                let key = BalanceKey(currency: entry.currency, balanceType: type)
                let (sum, overflowed) = (amounts[key] ?? 0).addingReportingOverflow(entry.amount)
                guard !overflowed else { return nil }
                amounts[key] = sum
            }
        }
        return BalanceSnapshot(takenAt: takenAt, amounts: amounts, reportedTypes: types)
    }
}
