import ReconCore

extension ChargePlan {
    /// The plans of the late outcomes: charges created during the day before the world's last day (between
    /// `end − 2 days` and `end − 1 day`, away from its edges) whose object changes state during the last day, so
    /// that the world served as of ``SandboxWorld/earlierMoment`` (`end − 1 day`) shows the earlier state and the
    /// world served as of its end the later one. Each delay below is a day to a day and an hour after an event of
    /// that day, which puts the change inside the last day.
    static func late() -> [ChargePlan] {
        collect { add in
            // Bank debits pending at the earlier moment: skipped, succeeded with their transfer and fee, failed.
            add {
                $0.method = .bankDebit
                $0.style = .transferAmount
                $0.currency = .usd
                $0.skipped = true
                $0.settleDelay = aDayLater
                $0.tags = [.lateSkippedTransfer]
            }
            add {
                $0.method = .bankDebit
                $0.style = .applicationFee
                $0.currency = .usd
                $0.settleDelay = aDayLater
                $0.tags = [.lateSucceeded]
            }
            add {
                $0.method = .bankDebit
                $0.style = .fullTransfer
                $0.currency = .usd
                $0.outcome = .failed
                $0.settleDelay = aDayLater
                $0.tags = [.lateFailedCharge]
            }
            // A refund that reversed the transfer, pending at the earlier moment, failed by the end.
            add {
                $0.style = .transferAmount
                $0.currency = .usd
                $0.refunds = [
                    Refund(
                        perMille: 500, reverseTransfer: true, refundApplicationFee: false, delay: 600...3_600,
                        fails: true,
                        failureDelay: aDayLater, pendingUntilFailure: true, tag: .lateFailedRefund)
                ]
            }
            // A chargeback needing a response at the earlier moment, won by the end; an inquiry at the earlier moment
            // that escalated and was lost by the end. Neither is recovered from the connected account.
            add {
                $0.style = .fullTransfer
                $0.currency = .usd
                $0.disputes = [
                    Dispute(
                        status: .won, delay: 600...3_600, decision: aDayLater, beforeDecision: .needsResponse,
                        tag: .lateDisputeWon)
                ]
            }
            add {
                $0.style = .applicationFee
                $0.currency = .usd
                $0.disputes = [Dispute(status: .lost, delay: 600...3_600, escalation: aDayLater, tag: .lateDisputeLost)]
            }
        }
    }

    /// The late outcomes of the platform's other money (worlds made with `otherMoney`): disputes on destination
    /// charges made `on_behalf_of` their account, one `under_review` at the earlier moment and lost by the end, one
    /// needing a response throughout; neither recovered from the connected account.
    static func lateOtherMoney() -> [ChargePlan] {
        collect { add in
            add {
                $0.style = .fullTransfer
                $0.currency = .usd
                $0.onBehalfOf = true
                $0.disputes = [
                    Dispute(
                        status: .lost, delay: 600...3_600, decision: aDayLater, beforeDecision: .underReview,
                        tag: .lateOnBehalfOfDisputeLost)
                ]
            }
            add {
                $0.style = .applicationFee
                $0.currency = .usd
                $0.onBehalfOf = true
                $0.disputes = [Dispute(status: .needsResponse, delay: 600...3_600)]
                $0.tags = [.onBehalfOfDisputeOpen]
            }
            // 100.00 full-transfer charges refunded 40.00 without reverse_transfer, whose seller the platform debits
            // the 40.00 share during the last day (``WorldBuilder/debitSlots``), the debit naming the charge, naming nothing,
            // or made with a transfer on the account that names the charge;
            // and one disputed, under review, whose 100.00 the platform debits, naming the dispute.
            for tag in [
                SandboxScenario.lateRefundRecoveredByDebit, .lateRefundDebitedUnlinked,
                .lateRefundRecoveredByTransferDebit,
            ] {
                add {
                    $0.style = .fullTransfer
                    $0.currency = .usd
                    $0.amount = 10_000
                    $0.refunds = [
                        Refund(perMille: 400, reverseTransfer: false, refundApplicationFee: false, delay: 600...3_600)
                    ]
                    $0.tags = [tag]
                }
            }
            add {
                $0.style = .fullTransfer
                $0.currency = .usd
                $0.amount = 10_000
                $0.disputes = [Dispute(status: .underReview, delay: 600...3_600)]
                $0.tags = [.lateDisputeRecoveredByDebit]
            }
        }
    }

    /// A day to a day and an hour: the delay that puts what follows an event of the day before the world's last day
    /// inside its last day.
    static let aDayLater: ClosedRange<Int64> = 86_400...(86_400 + 3_600)

    /// The plans `body` adds, each configured from a default plan, in order.
    static func collect(_ body: (_ add: ((inout ChargePlan) -> Void) -> Void) -> Void) -> [ChargePlan] {
        var plans: [ChargePlan] = []
        body { configure in
            var plan = ChargePlan()
            configure(&plan)
            plans.append(plan)
        }
        return plans
    }
}
