import ReconCore

/// The automatic payouts arriving from a range on, with their own `payout` balance transaction: Stripe's Balance
/// report dates that transaction at the payout's arrival, so a payout created days before the range can leave the
/// balance inside it, and one created before Stripe's balance read can still be in transit (docs/RULES.md, "The
/// books close"). One list, usually one page: a platform's payouts are a few a day.
enum PayoutArrivals {
    /// A day before `from`: an arrival date is a day's midnight, and a payout's transaction is dated at its arrival.
    static let margin: Int64 = 86_400

    /// `GET /v1/payouts?arrival_date[gte]=…&expand[]=data.balance_transaction`: every payout arriving from the range
    /// on, or (`until`) only those arriving up to a day after it, when nothing after the range is listed.
    static func stream(from: Int64, until to: Int64? = nil) -> ListStream {
        var filter = [("arrival_date[gte]", String(from - margin))]
        if let to { filter.append(("arrival_date[lt]", String(to + margin))) }
        var stream = ListStream(kind: .payouts, filter: filter)
        stream.expansions = ["data.balance_transaction"]
        return stream
    }
}
