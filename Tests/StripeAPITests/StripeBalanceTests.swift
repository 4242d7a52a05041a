import Foundation
import ReconCore
import StripeAPI
import Testing

/// `GET /v1/balance` (https://docs.stripe.com/api/balance/balance_object) as the roll-forward's snapshot.
@Suite struct StripeBalanceTests {
    /// Stripe's example object with every bucket, a currency listed in two buckets, and members connect-recon does
    /// not read (`instant_available`, `connect_reserved`, `source_types`, and one Stripe may add).
    static let json = """
        {
          "object": "balance",
          "available": [{"amount": 2217713, "currency": "usd", "source_types": {"bank_account": 0, "card": 2217713}},
                        {"amount": 877, "currency": "jpy", "source_types": {"card": 877}}],
          "connect_reserved": [{"amount": 0, "currency": "usd"}],
          "instant_available": [{"amount": 2217713, "currency": "usd"}],
          "livemode": false,
          "pending": [{"amount": -3000, "currency": "usd", "source_types": {"card": -3000}},
                      {"amount": 8770, "currency": "bhd"}],
          "refund_and_dispute_prefunding": {"available": [{"amount": 500, "currency": "usd"}],
                                            "pending": [{"amount": 25, "currency": "usd"}]},
          "issuing": {"available": [{"amount": -6485, "currency": "usd"}]},
          "a_member_stripe_adds_later": {"anything": [1, 2]}
        }
        """

    @Test func availablePlusPendingPerCurrencyAndBucketInstantAvailableNeverAdded() throws {
        let balance = try JSONDecoder().decode(StripeBalance.self, from: Data(Self.json.utf8))
        let snapshot = try #require(balance.snapshot(takenAt: 1_795_224_600))
        #expect(snapshot.takenAt == 1_795_224_600)
        #expect(snapshot.amount(BalanceKey(currency: .usd, balanceType: .payments)) == 2_214_713)
        #expect(snapshot.amount(BalanceKey(currency: .jpy, balanceType: .payments)) == 877)
        #expect(snapshot.amount(BalanceKey(currency: .bhd, balanceType: .payments)) == 8_770)
        #expect(snapshot.amount(BalanceKey(currency: .usd, balanceType: .refundAndDisputePrefunding)) == 525)
        #expect(snapshot.amount(BalanceKey(currency: .usd, balanceType: .issuing)) == -6_485)
        // A reported bucket without the currency is zero; a bucket Stripe did not report has no figure
        #expect(snapshot.amount(BalanceKey(currency: .gbp, balanceType: .payments)) == 0)
        #expect(snapshot.amount(BalanceKey(currency: .usd, balanceType: .riskReserved)) == nil)
    }

    @Test func anotherObjectIsRefused() {
        let json = #"{"object": "list", "available": [], "pending": []}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StripeBalance.self, from: Data(json.utf8)) }
    }

    @Test func anAccountWithoutPrefundingOrIssuingReportsPaymentsOnly() throws {
        let json = #"{"object": "balance", "available": [{"amount": 1, "currency": "usd"}], "pending": []}"#
        let snapshot = try #require(
            try JSONDecoder().decode(StripeBalance.self, from: Data(json.utf8)).snapshot(takenAt: 0))
        #expect(snapshot.reportedTypes == [.payments])
    }

    @Test func amountsThatAddUpPast64BitsGiveNoSnapshot() throws {
        let json = """
            {"object": "balance", "available": [{"amount": 9223372036854775807, "currency": "usd"}],
             "pending": [{"amount": 1, "currency": "usd"}]}
            """
        let balance = try JSONDecoder().decode(StripeBalance.self, from: Data(json.utf8))
        #expect(balance.snapshot(takenAt: 0) == nil)
    }
}
