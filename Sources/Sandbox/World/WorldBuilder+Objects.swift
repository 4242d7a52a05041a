// Appending objects to the draft tables, each with the balance transaction it moves on the platform's balance,
// and the fee and rounding rules they follow.

extension WorldBuilder {
    /// Stripe's processing fee on a settled amount: 0.8 % capped at 5.00 for bank debits, the card rate of
    /// the currency otherwise (bhd rounded to its granularity).
    func stripeFee(_ settled: Int64, _ currency: WorldCurrency, _ method: PaymentMethodKind) -> Int64 {
        if method == .bankDebit { return min((settled * 8 + 500) / 1000, 500) }
        if method.isFromAnAccount { return 0 }
        switch currency {
        case .usd, .eur: return (settled * 29 + 500) / 1000 + 30
        case .gbp: return (settled * 15 + 500) / 1000 + 20
        case .jpy: return (settled * 36 + 500) / 1000
        case .bhd: return ((settled * 29 + 500) / 1000 + 300 + 5) / 10 * 10
        }
    }

    /// Midnight UTC `days` days after `time`'s day: when the money becomes available.
    func availableOn(_ time: Int64, days: Int64) -> Int64 {
        (time - ((time % 86_400) + 86_400) % 86_400) + days * 86_400
    }

    /// Appends a balance transaction; `source` `-1` for one with no source object.
    @discardableResult
    func addBT(
        _ created: Int64, _ type: BTType, amount: Int64, fee: Int64 = 0, currency: WorldCurrency, rate: Int32,
        source kind: StripeIDKind, _ source: Int, availableOn: Int64? = nil, pending: Bool = false,
        balance: WorldBalanceType = .payments
    ) -> Int32 {
        bts.created.append(created)
        bts.type.append(type)
        bts.amount.append(amount)
        bts.fee.append(fee)
        bts.currency.append(currency)
        bts.rate.append(rate)
        bts.sourceKind.append(kind)
        bts.source.append(Int32(source))
        bts.availableOn.append(availableOn ?? created)
        bts.pending.append(pending)
        bts.balanceType.append(balance)
        return Int32(bts.count - 1)
    }

    /// Appends a transfer in `currency` whose balance transaction (and its reversals') is in `settlement`, at `rate`.
    func addTransfer(
        _ created: Int64, amount: Int64, currency: WorldCurrency, settlement: WorldCurrency, rate: Int32,
        destination: Int16, sourceCharge: Int32, role: TransferRole, dispute: Int32 = -1, group: Int32 = -1,
        withBT: Bool = true
    ) -> Int32 {
        let index = transfers.count
        transfers.created.append(created)
        transfers.amount.append(amount)
        transfers.currency.append(currency)
        transfers.settlement.append(settlement)
        transfers.rate.append(rate)
        transfers.destination.append(destination)
        transfers.sourceCharge.append(sourceCharge)
        transfers.group.append(group)
        transfers.role.append(role)
        transfers.dispute.append(dispute)
        transfers.amountReversed.append(0)
        refundReversed.append(0)
        let bt: Int32 =
            withBT
            ? addBT(
                created, .transfer, amount: -convert(amount, rate: rate), currency: settlement, rate: rate,
                source: .transfer, index)
            : -1
        transfers.balanceTransaction.append(bt)
        return Int32(index)
    }

    func addReversal(_ created: Int64, transfer: Int32, amount: Int64, refund: Int32, dispute: Int32) -> Int32 {
        let index = reversals.count
        let t = Int(transfer)
        reversals.created.append(created)
        reversals.transfer.append(transfer)
        reversals.amount.append(amount)
        reversals.sourceRefund.append(refund)
        reversals.dispute.append(dispute)
        transfers.amountReversed[t] += amount
        if refund >= 0 { refundReversed[t] += amount }
        let rate = transfers.rate[t]
        reversals.balanceTransaction.append(
            addBT(
                created, .transferRefund, amount: convert(amount, rate: rate), currency: transfers.settlement[t],
                rate: rate, source: .transferReversal, index))
        return Int32(index)
    }

    /// Refunds `share` of the charge's application fee (whatever is left of it when `all`), never more than is
    /// left, in the fee's currency; `false` when nothing was left to refund.
    @discardableResult
    func refundFee(_ links: ChargeLinks, share: Int64, all: Bool, at created: Int64) -> Bool {
        let fee = links.fee
        let f = Int(fee)
        let left = fees.amount[f] - fees.amountRefunded[f]
        let amount = all ? left : min(left, share)
        guard amount > 0 else { return false }
        let index = feeRefunds.count
        feeRefunds.created.append(created)
        feeRefunds.fee.append(fee)
        feeRefunds.amount.append(amount)
        fees.amountRefunded[f] += amount
        let rate = links.feeSettlementRate
        feeRefunds.balanceTransaction.append(
            addBT(
                created, .applicationFeeRefund, amount: -convert(amount, rate: rate), currency: links.feeSettlement,
                rate: rate, source: .feeRefund, index))
        return true
    }

    func roundDown(_ value: Int64, _ granularity: Int64) -> Int64 { value / granularity * granularity }
    func roundNearest(_ value: Int64, _ granularity: Int64) -> Int64 {
        (value + granularity / 2) / granularity * granularity
    }
}
