/// A card payment's `payment_method_details` as the sandbox writes it: Stripe's example, with the fields that differ
/// per charge filled in from the world.
package enum CardPaymentDetails {
    /// The fields the world fills in: the amounts, the card's brand, number, expiry and fingerprint, and the
    /// authorization code differ per charge; the world's card payments have no installment plan, no 3-D Secure
    /// result and no wallet, so those are null where the example has one of each.
    enum Field: String, CaseIterable, Sendable {
        case amountAuthorized = "card.amount_authorized"
        case authorizationCode = "card.authorization_code"
        case brand = "card.brand"
        case expiryMonth = "card.exp_month"
        case expiryYear = "card.exp_year"
        case fingerprint = "card.fingerprint"
        case installments = "card.installments"
        case last4 = "card.last4"
        case network = "card.network"
        case maximumAmountCapturable = "card.overcapture.maximum_amount_capturable"
        case threeDSecure = "card.three_d_secure"
        case wallet = "card.wallet"
    }

    /// `payment_method_details` of Stripe's example charge, verbatim: the fixture `charge.json` from Stripe's OpenAPI
    /// description (a copy is `Tests/StripeAPITests/Fixtures/charge.json`; a test keeps the two the same).
    package static let fixture = """
        {
          "card": {
            "amount_authorized": null,
            "brand": "visa",
            "checks": {
              "address_line1_check": null,
              "address_postal_code_check": null,
              "cvc_check": "pass"
            },
            "country": "US",
            "exp_month": 8,
            "exp_year": 2030,
            "extended_authorization": {
              "status": "disabled"
            },
            "fingerprint": "AOB934RVNwzk6xtn",
            "funding": "credit",
            "incremental_authorization": {
              "status": "unavailable"
            },
            "installments": {
              "plan": {
                "count": null,
                "interval": null,
                "type": "fixed_count"
              }
            },
            "last4": "4242",
            "mandate": null,
            "multicapture": {
              "status": "unavailable"
            },
            "network": "visa",
            "network_token": {
              "used": false
            },
            "overcapture": {
              "maximum_amount_capturable": 100,
              "status": "unavailable"
            },
            "three_d_secure": {
              "authentication_flow": null,
              "electronic_commerce_indicator": null,
              "exemption_indicator": null,
              "result": null,
              "result_reason": null,
              "transaction_id": null,
              "version": null
            },
            "wallet": {
              "dynamic_last4": null,
              "type": "link"
            },
            "authorization_code": null,
            "regulated_status": null,
            "network_transaction_id": null,
            "transaction_link_id": null
          },
          "type": "card"
        }
        """

    /// The fixture, parsed once.
    static let template: FixtureTemplate<Field> = {
        do {
            return try FixtureTemplate(json: fixture)
        } catch {
            preconditionFailure("The stored charge fixture cannot be used: \(error)")
        }
    }()

    /// The brands the world's cards rotate through, and the test card number's last four digits of each.
    static let cards: [(brand: String, last4: String)] = [
        ("visa", "4242"), ("mastercard", "4444"), ("amex", "8431"), ("visa", "1881"),
    ]
}
