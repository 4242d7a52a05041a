import ReconCore

extension ChargePlan {
    /// The plans of money moved by hand, across time (docs/RULES.md): charges of the day before the world's last day,
    /// placed as the late outcomes are (``late()``), whose money the platform moves by hand during the last day (a day
    /// to a day and an hour after an event of their day), so that the world served as of
    /// ``SandboxWorld/earlierMoment`` shows them before the move and the world served as of its end after it.
    static func lateMovesByHand() -> [ChargePlan] {
        collect { add in
            // A refund of 50.00 of a 100.00 charge that transferred 80.00, made without `reverse_transfer`, whose 40.00
            // share the platform reverses by hand during the last day, exactly and 2.00 short.
            let recoveries: [(Int64, SandboxScenario)] = [
                (1000, .lateRefundRecoveredByHand), (950, .lateRefundRecoveredShort),
            ]
            for (perMille, tag) in recoveries {
                add {
                    $0.style = .transferAmount
                    $0.currency = .usd
                    $0.amount = 10_000
                    $0.retained = 2_000
                    $0.refunds = [
                        Refund(
                            perMille: 500, reverseTransfer: false, refundApplicationFee: false, delay: 600...3_600,
                            recoveredByHand: (perMille, aDayLater))
                    ]
                    $0.tags = [tag]
                }
            }
            // A transfer group whose charge of 100.00 pays 60.00 at once and 25.00 more the next day.
            add {
                $0.style = nil
                $0.currency = .usd
                $0.amount = 10_000
                $0.separate = Separate(
                    transfers: [
                        Separate.Transfer(perMille: 600, delay: 60...3_600),
                        Separate.Transfer(
                            perMille: 250, delay: 3_600...(6 * 3_600), afterChargeDay: true, namesSource: false),
                    ])
                $0.tags = [.lateGroupTransfer]
            }
            // A transfer group's charge of 100.00 that transferred 85.00, refunded 40.00, whose 34.00 share the platform
            // reverses by hand the next day.
            add {
                $0.style = nil
                $0.currency = .usd
                $0.amount = 10_000
                $0.separate = Separate(
                    transfers: [
                        Separate.Transfer(perMille: 600, delay: 60...600),
                        Separate.Transfer(perMille: 250, delay: 60...600, namesSource: false),
                    ], refundRecovery: (1000, aDayLater))
                $0.refunds = [
                    Refund(perMille: 400, reverseTransfer: false, refundApplicationFee: false, delay: 900...3_600)
                ]
                $0.tags = [.lateGroupRefundRecovered]
            }
            // A transfer group's charge disputed on its day, needing a response, whose one transfer the platform still
            // makes the next day: nothing to recover at the earlier moment, 50.00 by the end.
            add {
                $0.style = nil
                $0.currency = .usd
                $0.amount = 10_000
                $0.separate = Separate(
                    transfers: [
                        Separate.Transfer(
                            perMille: 500, delay: 3_600...(6 * 3_600), afterChargeDay: true, madeWhateverHappened: true)
                    ])
                $0.disputes = [Dispute(status: .needsResponse, delay: 600...3_600)]
                $0.tags = [.lateGroupDisputedThenPaid]
            }
            // A dispute under review, recovered from the connected account by a hand reversal the next day.
            add {
                $0.style = .fullTransfer
                $0.currency = .usd
                $0.disputes = [
                    Dispute(status: .underReview, recovery: .full, delay: 600...3_600, recoveryDelay: aDayLater)
                ]
                $0.tags = [.lateDisputeRecoveredByHand]
            }
        }
    }
}
