import ReconCore

extension ChargePlan {
    /// The plans every world of a few hundred charges holds, one per situation docs/RULES.md names: the seed's worked
    /// examples, every fee style, currency, refund and dispute shape, asynchronous payments and the deliberate
    /// inconsistencies.
    static func guaranteed() -> [ChargePlan] {
        typealias P = ChargePlan
        typealias R = ChargePlan.Refund
        func dispute(status: WorldDisputeStatus, recovery: ChargePlan.Recovery = .none, repaid: Bool = false)
            -> ChargePlan.Dispute
        {
            ChargePlan.Dispute(
                status: status, recovery: recovery, repaid: repaid, delay: 43_200...(2 * 86_400),
                decision: (2 * 86_400)...(4 * 86_400))
        }
        let day: Int64 = 86_400
        var plans: [ChargePlan] = []
        func add(_ configure: (inout ChargePlan) -> Void) { plans.append(ChargePlan.configured(configure)) }
        // The seed's worked examples, exact amounts.
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.amount = 1000
            $0.retained = 123
            $0.tags = [.seedExampleApplicationFee]
        }
        add {
            $0.style = .transferAmount
            $0.currency = .usd
            $0.amount = 1000
            $0.retained = 123
            $0.tags = [.seedExampleTransferAmount]
        }
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.amount = 1000
            $0.retained = 123
            $0.refunds = [R(perMille: 1000, reverseTransfer: true, refundApplicationFee: true, delay: 3600...7200)]
            $0.tags = [.seedExampleFullRefundReversed]
        }
        add {
            $0.style = .transferAmount
            $0.currency = .usd
            $0.amount = 1000
            $0.retained = 123
            $0.refunds = [
                R(perMille: 1000, reverseTransfer: false, refundApplicationFee: false, delay: 2 * day...(2 * day + 600))
            ]
            $0.tags = [.seedExampleFullRefundNotReversed]
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .usd
            $0.amount = 1000
            $0.tags = [.seedExampleFullTransfer]
        }
        // Fee styles, currencies, refunds.
        add {
            $0.style = nil
            $0.currency = .usd
        }
        add {
            $0.style = .transferAmount
            $0.currency = .usd
            $0.refunds = [R(perMille: 400, reverseTransfer: true, refundApplicationFee: false)]
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .usd
            $0.refunds = [R(perMille: 300, reverseTransfer: false, refundApplicationFee: false, delay: day...(3 * day))]
        }
        // Refunds recovered by hand: the platform reverses the account's share itself, hours later, in full or short.
        add {
            $0.style = .transferAmount
            $0.currency = .usd
            $0.amount = 10_000
            $0.retained = 2_000
            $0.refunds = [
                R(
                    perMille: 400, reverseTransfer: false, refundApplicationFee: false, delay: 3_600...day,
                    recoveredByHand: (1000, 3_600...(6 * 3_600)))
            ]
        }
        add {
            $0.style = .applicationFee
            $0.currency = .eur
            $0.refunds = [
                R(
                    perMille: 1000, reverseTransfer: false, refundApplicationFee: false, delay: 3_600...day,
                    recoveredByHand: (500, 3_600...(6 * 3_600)))
            ]
        }
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.refunds = [
                R(perMille: 250, reverseTransfer: true, refundApplicationFee: true),
                R(perMille: 1000, reverseTransfer: true, refundApplicationFee: true),
            ]
        }
        add {
            $0.style = .applicationFee
            $0.currency = .jpy
        }
        add {
            $0.style = .transferAmount
            $0.currency = .bhd
            $0.amount = 12_340
            $0.retained = 1_230
            $0.refunds = [R(perMille: 333, reverseTransfer: true, refundApplicationFee: false)]
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .eur
            $0.refunds = [R(perMille: 500, reverseTransfer: true, refundApplicationFee: false)]
        }
        add {
            $0.style = .applicationFee
            $0.currency = .eur
        }
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.amount = 60_000
            $0.retained = 6_000
            $0.refunds = (0..<13).map { _ in
                R(perMille: 40, reverseTransfer: true, refundApplicationFee: true, delay: 600...(day / 2))
            }
        }
        // Disputes in every status, with and without recovery.
        add {
            $0.style = .fullTransfer
            $0.disputes = [dispute(status: .warningNeedsResponse)]
        }
        add {
            $0.style = .transferAmount
            $0.disputes = [dispute(status: .warningUnderReview)]
        }
        add {
            $0.style = .applicationFee
            $0.disputes = [dispute(status: .warningClosed)]
        }
        add {
            $0.style = .fullTransfer
            $0.disputes = [dispute(status: .needsResponse)]
        }
        add {
            $0.style = .transferAmount
            $0.disputes = [dispute(status: .underReview, recovery: .partial)]
        }
        add {
            $0.style = .applicationFee
            $0.disputes = [dispute(status: .lost, recovery: .full)]
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .eur
            $0.disputes = [dispute(status: .lost)]
        }
        add {
            $0.style = .fullTransfer
            $0.disputes = [dispute(status: .won, recovery: .full, repaid: true)]
        }
        add {
            $0.style = .transferAmount
            $0.disputes = [dispute(status: .won, recovery: .full, repaid: false)]
        }
        add {
            $0.style = .applicationFee
            $0.disputes = [dispute(status: .won)]
        }
        add {
            $0.style = .fullTransfer
            $0.disputes = [dispute(status: .prevented)]
        }
        add {
            $0.style = .transferAmount
            $0.currency = .jpy
            $0.disputes = [dispute(status: .needsResponse, recovery: .full)]
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .usd
            $0.refunds = [R(perMille: 300, reverseTransfer: true, refundApplicationFee: false, delay: 600...day)]
            $0.disputes = [dispute(status: .lost, recovery: .partial)]
        }
        add {
            $0.style = .applicationFee
            $0.disputes = [dispute(status: .warningClosed), dispute(status: .lost, recovery: .full)]
        }
        add {
            $0.style = nil
            $0.disputes = [dispute(status: .lost)]
        }
        // Asynchronous payments.
        add {
            $0.method = .bankDebit
            $0.style = .transferAmount
            $0.skipped = true
            $0.currency = .usd
        }
        add {
            $0.method = .bankDebit
            $0.style = .applicationFee
            $0.skipped = true
            $0.currency = .usd
        }
        add {
            $0.method = .bankDebit
            $0.style = .fullTransfer
            $0.skipped = true
            $0.currency = .eur
        }
        add {
            $0.method = .bankDebit
            $0.style = .applicationFee
            $0.outcome = .pending
            $0.currency = .usd
        }
        add {
            $0.method = .bankDebit
            $0.style = .fullTransfer
            $0.outcome = .failed
            $0.currency = .usd
        }
        add {
            $0.method = .bankDebit
            $0.style = .transferAmount
            $0.currency = .usd
            $0.refunds = [R(perMille: 1000, reverseTransfer: true, refundApplicationFee: false)]
        }
        add {
            $0.method = .bankDebit
            $0.style = .applicationFee
            $0.currency = .eur
        }
        // Deliberate inconsistencies.
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.anomaly = .feeMissing
        }
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.anomaly = .feeMismatch
        }
        add {
            $0.style = .transferAmount
            $0.currency = .usd
            $0.anomaly = .transferAmountMismatch
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .usd
            $0.anomaly = .transferCurrencyMismatch
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .usd
            $0.anomaly = .transferDestinationMismatch
        }
        add {
            $0.style = nil
            $0.currency = .usd
            $0.anomaly = .sourceTransactionOnly
        }
        add {
            $0.style = nil
            $0.currency = .usd
            $0.anomaly = .missingChargeBT
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .usd
            $0.anomaly = .missingTransferBT
        }
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.anomaly = .missingFeeBT
        }
        plans += moneySituations()
        plans += captureSituations()
        plans += transferGroupSituations()
        return plans
    }

    /// docs/RULES.md's partial and multiple captures: a legacy partial capture with the refund of its uncaptured
    /// remainder, an authorisation that expired uncaptured, a partially captured bank debit whose transfer Stripe
    /// skipped, and a multicapture in progress.
    private static func captureSituations() -> [ChargePlan] {
        var plans: [ChargePlan] = []
        func add(_ configure: (inout ChargePlan) -> Void) { plans.append(ChargePlan.configured(configure)) }
        // 100.00 usd authorised, application_fee_amount 12.30, captured 60.00: transfer 60.00, fee 12.30, a 40.00
        // refund of the remainder; DPF 12.30.
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.amount = 10_000
            $0.retained = 1_230
            $0.capture = .legacyPartial(perMille: 600)
        }
        // 50.00 usd authorised with application_fee_amount 5.00, expired: a 50.00 refund, no row.
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.amount = 5_000
            $0.retained = 500
            $0.capture = .expired
        }
        // 100.00 usd bank debit, transfer_data[amount] 87.70, captured 60.00, transfer skipped: 60.00 owed.
        add {
            $0.method = .bankDebit
            $0.settleDelay = 86_400...(2 * 86_400)
            $0.style = .transferAmount
            $0.skipped = true
            $0.currency = .usd
            $0.amount = 10_000
            $0.retained = 1_230
            $0.capture = .partial(perMille: 600)
        }
        // 80.00 usd, application_fee_amount 8.00, 30.00 captured so far: transfer 30.00, fee 8.00; DPF 8.00.
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.amount = 8_000
            $0.retained = 800
            $0.capture = .multicaptureInProgress(perMille: 375)
        }
        return plans
    }

    /// Cross-border application fees (kept whole, refunded with a refund, refunded separately later, and one of
    /// Stripe's pricing tools that cannot be converted), `on_behalf_of` charges settling in their account's currency,
    /// failed refunds with and without a transfer reversal, and refunds and disputes drawing on the prefunding
    /// balance.
    private static func moneySituations() -> [ChargePlan] {
        typealias R = ChargePlan.Refund
        let day: Int64 = 86_400
        var plans: [ChargePlan] = []
        func add(_ configure: (inout ChargePlan) -> Void) { plans.append(ChargePlan.configured(configure)) }
        // 100.00 usd, application_fee_amount 12.30, to an account settling in jpy: a fee of about 1,845 jpy.
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.amount = 10_000
            $0.retained = 1_230
            $0.account = .settlesIn(.jpy)
        }
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.amount = 20_000
            $0.retained = 2_000
            $0.account = .settlesIn(.gbp)
            $0.refunds = [R(perMille: 500, reverseTransfer: true, refundApplicationFee: true, delay: 3_600...day)]
        }
        add {
            $0.style = .applicationFee
            $0.currency = .eur
            $0.account = .settlesIn(.jpy)
            $0.refunds = [
                R(
                    perMille: 400, reverseTransfer: true, refundApplicationFee: false, delay: 3_600...day,
                    feeRefundDelay: 3_600...day)
            ]
        }
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.account = .settlesIn(.jpy)
            $0.pricingToolFee = true
        }
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.account = .settlesIn(.jpy)
            $0.onBehalfOf = true
        }
        add {
            $0.style = .transferAmount
            $0.currency = .eur
            $0.account = .settlesIn(.gbp)
            $0.onBehalfOf = true
            $0.refunds = [R(perMille: 300, reverseTransfer: true, refundApplicationFee: false, delay: 3_600...day)]
        }
        // Failed refunds: with the transfer reversed (full and partial), and without a reversal.
        add {
            $0.style = .transferAmount
            $0.currency = .usd
            $0.refunds = [
                R(perMille: 1000, reverseTransfer: true, refundApplicationFee: false, delay: 3_600...day, fails: true)
            ]
        }
        add {
            $0.style = .applicationFee
            $0.currency = .usd
            $0.refunds = [
                R(perMille: 400, reverseTransfer: true, refundApplicationFee: false, delay: 3_600...day, fails: true)
            ]
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .usd
            $0.refunds = [
                R(perMille: 500, reverseTransfer: false, refundApplicationFee: false, delay: 3_600...day, fails: true)
            ]
        }
        // The prefunding balance.
        add {
            $0.style = .transferAmount
            $0.currency = .usd
            $0.prefunding = true
            $0.refunds = [R(perMille: 500, reverseTransfer: true, refundApplicationFee: false, delay: 3_600...day)]
        }
        add {
            $0.style = .fullTransfer
            $0.currency = .usd
            $0.prefunding = true
            $0.disputes = [
                ChargePlan.Dispute(status: .lost, delay: 43_200...(2 * day), decision: (2 * day)...(4 * day))
            ]
        }
        return plans
    }

    /// A plan with the defaults, then `configure` applied.
    private static func configured(_ configure: (inout ChargePlan) -> Void) -> ChargePlan {
        var plan = ChargePlan()
        configure(&plan)
        return plan
    }
}
