import ReconCore

// One charge and everything that follows it: its balance transactions, its transfer and application fee, its
// refunds (with their reversals and fee refunds) and its disputes (with their recoveries and repayments). Each
// step draws from the charge's own random stream in a fixed order, so the world stays the same for a seed.

/// What is settled about a charge once its terms are drawn.
struct ChargeTerms {
    let index: Int
    let created: Int64
    let plan: ChargePlan
    let currency: WorldCurrency
    let amount: Int64
    /// The intended destination account, `-1` for a plain charge.
    let destination: Int16
    /// The application fee (application-fee style) or the retained part (transfer-amount style).
    let retained: Int64
    /// The currency of the charge's balance transactions (and its transfer's, refunds' and disputes'): the
    /// platform's settlement currency for the charge's currency, or the destination account's for an
    /// `on_behalf_of` charge.
    let settlement: WorldCurrency
    /// Presentment → `settlement` exchange rate in millionths, 0 when they are the same.
    let rate: Int32
    /// The application fee's currency: the charge's, or the destination account's settlement currency when it
    /// settles in another (a cross-border fee).
    let feeCurrency: WorldCurrency
    /// Charge currency → `feeCurrency` exchange rate in millionths, 0 when they are the same.
    let feeRate: Int32
    let outcome: ChargePlan.Outcome
    /// When the money settled: at once for cards, days later for bank debits.
    let settledAt: Int64
    /// `amount_captured`: the amount, less for a partial capture, what was captured so far for a multicapture in
    /// progress, 0 for an authorisation that expired.
    let captured: Int64

    var granularity: Int64 { currency.granularity }
    /// A card under asynchronous capture in the world's last hour: no transfer yet.
    var young: Bool { plan.method == .cardAsyncCapture }
    /// Stripe skipped the intended transfer of a succeeded payment.
    var skipped: Bool { plan.skipped && outcome == .succeeded }
    /// The payment succeeded and its transfer (if any) is in place: refunds can follow.
    var settledInFull: Bool { outcome == .succeeded && !skipped && !young }
    /// A destination charge whose transfer was made (nothing is transferred of an authorisation never captured).
    var transferred: Bool { plan.style != nil && settledInFull && captured > 0 }
    /// The uncaptured remainder Stripe refunded: a legacy partial capture's, or an expired authorisation's whole
    /// amount; 0 for any other charge.
    var remainderRefund: Int64 {
        switch plan.capture {
        case .legacyPartial, .expired: amount - captured
        case .full, .partial, .multicaptureInProgress: 0
        }
    }
}

/// The charge's transfer and application fee, as later steps refer to them.
struct ChargeLinks {
    var transfer: Int32 = -1
    var transferAmount: Int64 = 0
    var fee: Int32 = -1
    /// In the fee's currency.
    var feeAmount: Int64 = 0
    /// The currency of the fee's balance transaction and its refunds', and the fee currency → it exchange rate.
    var feeSettlement = WorldCurrency.usd
    var feeSettlementRate: Int32 = 0
}

extension WorldBuilder {
    func generateCharge(_ c: Int, created t: Int64, plan: ChargePlan, rng: inout SplitMix64) {
        let terms = drawTerms(c, created: t, plan: plan, rng: &rng)
        appendCharge(terms)
        if let link = plan.debitOf {
            // The seller of the charge it gives back.
            charges.payingAccount[Int32(c)] = max(0, charges.intentDestination[link.charge])
            charges.debitLinks[Int32(c)] = link
        } else if plan.method.isFromAnAccount {
            charges.payingAccount[Int32(c)] = Int16(rng.int(0...(accountCount - 1)) as Int)
        }
        addChargeBalanceTransactions(terms)
        let links = addTransferAndFee(terms, rng: &rng)
        var group = addSeparateTransfers(terms, rng: &rng)
        let (refunded, lastRefund) = addRefunds(terms, links, &group, rng: &rng)
        charges.amountRefunded.append(refunded)
        let disputed = addDisputes(terms, links, group, refunded: refunded, after: lastRefund, rng: &rng)
        if let group, group.group >= 0, group.group == openGroup { openGroupDraft = group }

        var flags: UInt8 = 0
        switch plan.capture {
        case .expired, .multicaptureInProgress: flags |= ChargeTable.uncaptured
        case .full, .legacyPartial, .partial: break
        }
        let asked = !terms.skipped && (!terms.young || plan.partsPending)
        if plan.style != nil && asked { flags |= ChargeTable.hasTransferData }
        if plan.style == .applicationFee && !plan.pricingToolFee && asked { flags |= ChargeTable.showsFeeAmount }
        if plan.onBehalfOf && plan.style != nil { flags |= ChargeTable.onBehalfOf }
        charges.flags.append(flags | (disputed ? ChargeTable.disputed : 0))
        tagCharge(c, plan: plan, young: terms.young, skipped: terms.skipped, outcome: terms.outcome)
    }

    /// Currency, amount, destination, retained part, exchange rates, and when and how the payment settled.
    private func drawTerms(_ c: Int, created t: Int64, plan: ChargePlan, rng: inout SplitMix64) -> ChargeTerms {
        let currency =
            plan.currency ?? [WorldCurrency.usd, .eur, .gbp, .jpy, .bhd][rng.pick([55, 15, 10, 12, 8])]
        let g = currency.granularity
        let amount = plan.amount ?? currency.randomAmount(&rng)
        let destination: Int16 =
            plan.style == nil ? -1 : account(rng.int(0...(accountCount - 1)), plan.account, currency: currency)
        let retained = plan.retained ?? max(g, roundNearest(amount * rng.int(80...150) / 1000, g))
        var settlement = currency.settlement
        var rate: Int32 = currency.settlement != currency ? Int32(1_070_000 + rng.int(0...30_000)) : 0
        var outcome = plan.outcome
        var settledAt = t
        if plan.method == .bankDebit {
            settledAt = t + rng.int(plan.settleDelay ?? 86_400...(4 * 86_400))
            if settledAt >= end { outcome = .pending }
        }
        // A connected account that settles in another currency: the fee is converted into it at the day's rate
        // (the reference rate within ±1 %), and an `on_behalf_of` charge settles in it altogether.
        var feeCurrency = currency
        var feeRate: Int32 = 0
        if destination >= 0, let accountCurrency = Self.settlementCurrency(ofAccount: Int(destination)),
            accountCurrency != currency
        {
            let reference = Int64(currency.referenceRate(to: accountCurrency))
            let crossRate = Int32(reference * (1_000 + rng.int(-10...10)) / 1_000)
            feeCurrency = accountCurrency
            feeRate = crossRate
            if plan.onBehalfOf {
                settlement = accountCurrency
                rate = crossRate
            }
        }
        let captured: Int64 =
            switch plan.capture {
            case .full: amount
            case .expired: 0
            case .legacyPartial(let perMille), .partial(let perMille), .multicaptureInProgress(let perMille):
                min(amount - g, max(g, roundNearest(amount * perMille / 1000, g)))
            }
        return ChargeTerms(
            index: c, created: t, plan: plan, currency: currency, amount: amount, destination: destination,
            retained: retained, settlement: settlement, rate: rate, feeCurrency: feeCurrency, feeRate: feeRate,
            outcome: outcome, settledAt: settledAt, captured: captured)
    }

    /// The charge's own columns and its PaymentIntent's.
    private func appendCharge(_ terms: ChargeTerms) {
        let plan = terms.plan
        charges.created.append(terms.created)
        charges.amount.append(terms.amount)
        charges.currency.append(terms.currency)
        charges.status.append(
            terms.outcome == .succeeded ? .succeeded : terms.outcome == .pending ? .pending : .failed)
        charges.method.append(plan.method)
        charges.settledAt.append(terms.settledAt)
        charges.style.append(plan.style)
        charges.intentDestination.append(terms.destination)
        charges.intentTransferAmount.append(plan.style == .transferAmount ? terms.amount - terms.retained : -1)
        charges.intentFeeAmount.append(plan.style == .applicationFee && !plan.pricingToolFee ? terms.retained : -1)
        charges.rate.append(terms.rate)
        charges.amountCaptured.append(terms.captured)
    }

    /// The payment's balance transaction (none yet for a charge whose parts are pending) and, for a failed bank
    /// debit, the one that returned the money.
    private func addChargeBalanceTransactions(_ terms: ChargeTerms) {
        let plan = terms.plan
        let c = terms.index
        let rate = terms.rate
        var chargeBT: Int32 = -1
        if plan.anomaly != .missingChargeBT && !plan.partsPending && terms.captured > 0 {
            // A legacy partial capture books the whole authorisation, then reverses the remainder (its refund's
            // balance transaction); Stripe's fee is on what was captured.
            let booked = terms.remainderRefund > 0 ? terms.amount : terms.captured
            let settled = convert(booked, rate: rate)
            chargeBT = addBT(
                terms.created, plan.method == .bankDebit || plan.method.isFromAnAccount ? .payment : .charge,
                amount: settled,
                fee: stripeFee(convert(terms.captured, rate: rate), terms.settlement, plan.method),
                currency: terms.settlement, rate: rate,
                source: .charge, c, availableOn: availableOn(terms.settledAt, days: 2),
                pending: terms.outcome == .pending)
        }
        var failureBT: Int32 = -1
        if terms.outcome == .failed {
            failureBT = addBT(
                terms.settledAt, .paymentFailureRefund, amount: -convert(terms.amount, rate: rate),
                currency: terms.settlement, rate: rate, source: .charge, c)
        }
        charges.balanceTransaction.append(chargeBT)
        charges.failureBalanceTransaction.append(failureBT)
    }

    /// The destination charge's transfer and application fee, with the plan's deliberate inconsistencies, and
    /// the transfer of a plain charge that names it as its `source_transaction` and carries no `transfer_group`
    /// (``SandboxScenario/sourceTransactionOnly``: a group of its own, keyed by the charge's id).
    private func addTransferAndFee(_ terms: ChargeTerms, rng: inout SplitMix64) -> ChargeLinks {
        let plan = terms.plan
        let c = terms.index
        let g = terms.granularity
        var links = ChargeLinks()
        if terms.transferred {
            // Capped at what was captured (a partial capture caps the transfer).
            links.transferAmount = min(
                plan.style == .transferAmount ? terms.amount - terms.retained : terms.amount, terms.captured)
            var transferCurrency = terms.currency
            var transferRate = terms.rate
            var transferDestination = terms.destination
            switch plan.anomaly {
            case .transferAmountMismatch: links.transferAmount -= 10 * g
            case .transferCurrencyMismatch:
                // A eur transfer for a usd charge: it still settles in usd, so the platform net stays in one currency.
                transferCurrency = .eur
                transferRate = Int32(1_070_000 + rng.int(0...30_000))
            case .transferDestinationMismatch:
                transferDestination = Int16((Int(terms.destination) + 1) % accountCount)
            default: break
            }
            links.transfer = addTransfer(
                terms.settledAt, amount: links.transferAmount, currency: transferCurrency,
                settlement: terms.settlement, rate: transferRate, destination: transferDestination,
                sourceCharge: Int32(c), role: .destination, withBT: plan.anomaly != .missingTransferBT)
        }
        charges.transfer.append(links.transfer)
        if terms.transferred, plan.style == .applicationFee, plan.anomaly != .feeMissing {
            addFee(terms, &links)
        }
        charges.fee.append(links.fee)
        if plan.anomaly == .sourceTransactionOnly {
            _ = addTransfer(
                min(terms.created + rng.int(3_600...10_800), end - 1), amount: roundDown(terms.amount / 2, g),
                currency: terms.currency, settlement: terms.settlement, rate: terms.rate,
                destination: Int16(rng.int(0...(accountCount - 1))), sourceCharge: Int32(c), role: .separateCharge)
        }
        return links
    }

    /// The destination charge's application fee: in the charge's currency, settling like the charge, or converted
    /// into the destination account's currency (a cross-border fee), settling in that currency.
    private func addFee(_ terms: ChargeTerms, _ links: inout ChargeLinks) {
        let plan = terms.plan
        // Capped at what was captured (a partial capture caps the fee).
        let asked = min(terms.retained, terms.captured)
        let requested = plan.anomaly == .feeMismatch ? asked + 5 * terms.granularity : asked
        let crossBorder = terms.feeCurrency != terms.currency
        links.feeAmount = crossBorder ? convert(requested, rate: terms.feeRate) : requested
        links.feeSettlement = crossBorder ? terms.feeCurrency.settlement : terms.settlement
        links.feeSettlementRate = crossBorder ? 0 : terms.rate
        links.fee = Int32(fees.count)
        fees.created.append(terms.settledAt)
        fees.charge.append(Int32(terms.index))
        fees.currency.append(terms.feeCurrency)
        fees.amount.append(links.feeAmount)
        fees.amountRefunded.append(0)
        fees.balanceTransaction.append(
            plan.anomaly == .missingFeeBT
                ? -1
                : addBT(
                    terms.settledAt, .applicationFee, amount: convert(links.feeAmount, rate: links.feeSettlementRate),
                    currency: links.feeSettlement, rate: links.feeSettlementRate, source: .applicationFee,
                    Int(links.fee)))
    }

    /// The plan's refunds that fit in the world, each with its transfer reversal and application fee refund as
    /// the plan asks, and the failure of a refund planned to fail when it comes before the world's end; returns the
    /// amount refunded (failed refunds not counted, as Stripe's `amount_refunded`) and when the last refund (or the
    /// settlement) happened.
    private func addRefunds(
        _ terms: ChargeTerms, _ links: ChargeLinks, _ group: inout GroupDraft?, rng: inout SplitMix64
    ) -> (refunded: Int64, last: Int64) {
        var refunded: Int64 = 0
        var failed: Int64 = 0
        // A separately transferred charge is refunded after its transfers were made.
        var last = group?.lastTransfer ?? terms.settledAt
        let remainder = addRemainderRefund(terms)
        guard terms.settledInFull, terms.captured > 0 else { return (remainder, last) }
        // The customer's refunds are shares of what was captured.
        let amount = terms.captured
        let g = terms.granularity
        let feeGranularity = terms.feeCurrency.granularity
        for refundPlan in terms.plan.refunds {
            let remaining = amount - refunded
            guard remaining > 0 else { break }
            let share = refundPlan.perMille >= 1000 ? remaining : roundNearest(amount * refundPlan.perMille / 1000, g)
            let refundAmount = min(max(share, g), remaining)
            let created = last + rng.int(refundPlan.delay)
            guard created < end else { break }
            last = created
            refunded += refundAmount
            let refund = appendRefund(terms, amount: refundAmount, at: created)
            var reversal: Int32 = -1
            if refundPlan.reverseTransfer, links.transfer >= 0 {
                let transfer = Int(links.transfer)
                let left = transfers.amount[transfer] - transfers.amountReversed[transfer]
                let proportional = roundNearest(links.transferAmount * refundAmount / amount, g)
                let reverse = refunded == amount ? left : min(left, proportional)
                if reverse > 0 {
                    reversal = addReversal(
                        created, transfer: links.transfer, amount: reverse, refund: Int32(refund), dispute: -1)
                }
                if refundPlan.refundApplicationFee, links.fee >= 0 {
                    let feeShare = roundNearest(links.feeAmount * refundAmount / amount, feeGranularity)
                    refundFee(links, share: feeShare, all: refunded == amount, at: created)
                }
            }
            if let recovery = refundPlan.recoveredByHand, !refundPlan.reverseTransfer, links.transfer >= 0 {
                // The platform gives itself back the account's share by hand, later: a reversal naming no refund.
                let at = created + rng.int(recovery.delay)
                let transfer = Int(links.transfer)
                let left = transfers.amount[transfer] - transfers.amountReversed[transfer]
                let share = roundNearest((links.transferAmount * refundAmount + amount / 2) / amount, g)
                let reverse = min(left, share * recovery.perMille / 1000)
                if at < end, reverse > 0 {
                    addReversal(at, transfer: links.transfer, amount: reverse, refund: -1, dispute: -1)
                    let scenario: SandboxScenario =
                        recovery.perMille >= 1000 ? .refundRecoveredByHand : .refundRecoveredShort
                    tag(scenario, .charge, terms.index)
                }
            }
            if group != nil { recoverGroupRefund(&group!, terms, refund: refundAmount, at: created, rng: &rng) }
            refunds.transferReversal.append(reversal)
            refunds.pendingUntilFailure[refund] = refundPlan.fails && refundPlan.pendingUntilFailure
            if refundPlan.fails,
                failRefund(
                    refund, terms, amount: refundAmount, after: created, delay: refundPlan.failureDelay, rng: &rng)
            {
                failed += refundAmount
                if let scenario = refundPlan.tag { tag(scenario, .refund, refund) }
            }
            // The fee's share refunded on its own, hours or days after a refund that left it alone.
            if let delay = refundPlan.feeRefundDelay, !refundPlan.refundApplicationFee, links.fee >= 0 {
                let at = created + rng.int(delay)
                let feeShare = roundNearest(links.feeAmount * refundAmount / amount, feeGranularity)
                if at < end, refundFee(links, share: feeShare, all: refunded == amount, at: at) {
                    tag(.applicationFeeRefundedLater, .charge, terms.index)
                }
            }
        }
        return (remainder + refunded - failed, last)
    }

    /// The refund Stripe made of the uncaptured remainder, if any (API versions before `2025-03-31.basil`): a legacy
    /// partial capture's at capture time (`reason` null, a `partial_capture_reversal` balance transaction), an
    /// expired authorisation's whole amount when it expired (`reason: expired_uncaptured_charge`, no balance
    /// transaction: nothing was booked), up to 7 days after the authorisation and within the world. Returns its
    /// amount, 0 for none.
    private func addRemainderRefund(_ terms: ChargeTerms) -> Int64 {
        let remainder = terms.remainderRefund
        guard remainder > 0, terms.outcome == .succeeded else { return 0 }
        let expired = terms.captured == 0
        let created = expired ? terms.created + min(7 * 86_400, max(1, (end - terms.created) / 2)) : terms.settledAt
        guard created < end else { return 0 }
        let refund = refunds.count
        refunds.created.append(created)
        refunds.charge.append(Int32(terms.index))
        refunds.amount.append(remainder)
        refunds.balanceTransaction.append(
            expired
                ? -1
                : addBT(
                    created, .partialCaptureReversal, amount: -convert(remainder, rate: terms.rate),
                    currency: terms.settlement, rate: terms.rate, source: .refund, refund))
        refunds.transferReversal.append(-1)
        refunds.failureBalanceTransaction.append(-1)
        refunds.failureReason.append(0)
        refunds.pendingUntilFailure.append(false)
        refunds.reason.append(expired ? .expiredUncapturedCharge : .none)
        refunds.uncapturedRemainder.append(true)
        return remainder
    }

    /// Fails refund `refund` `delay` seconds (hours to days) after it was made, when that comes before the world's end: a
    /// `refund_failure` balance transaction returns its amount to the balance it came from. Returns whether it
    /// failed.
    private func failRefund(
        _ refund: Int, _ terms: ChargeTerms, amount: Int64, after created: Int64, delay: ClosedRange<Int64>,
        rng: inout SplitMix64
    ) -> Bool {
        let at = created + rng.int(delay)
        let reason = UInt8(rng.int(0...(RefundTable.failureReasons.count - 1)))
        guard at < end else { return false }
        refunds.failureBalanceTransaction[refund] = addBT(
            at, .refundFailure, amount: convert(amount, rate: terms.rate), currency: terms.settlement,
            rate: terms.rate, source: .refund, refund, balance: bts.balanceType[Int(refunds.balanceTransaction[refund])]
        )
        refunds.failureReason[refund] = reason
        return true
    }

    /// A refund's columns and balance transaction (its reversal is appended by the caller); returns its index.
    private func appendRefund(_ terms: ChargeTerms, amount: Int64, at created: Int64) -> Int {
        let refund = refunds.count
        refunds.created.append(created)
        refunds.charge.append(Int32(terms.index))
        refunds.amount.append(amount)
        refunds.balanceTransaction.append(
            addBT(
                created, terms.plan.method == .bankDebit ? .paymentRefund : .refund,
                amount: -convert(amount, rate: terms.rate), currency: terms.settlement, rate: terms.rate,
                source: .refund, refund, balance: terms.plan.prefunding ? .refundAndDisputePrefunding : .payments))
        refunds.failureBalanceTransaction.append(-1)
        refunds.failureReason.append(0)
        refunds.pendingUntilFailure.append(false)
        refunds.reason.append(.requestedByCustomer)
        refunds.uncapturedRemainder.append(false)
        return refund
    }
}
