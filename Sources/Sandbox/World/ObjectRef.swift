import ReconCore

/// One object of the world.
enum ObjectRef: Sendable, Equatable {
    case charge(Int)
    case paymentIntent(Int)
    case transfer(Int)
    case transferReversal(Int)
    case applicationFee(Int)
    case feeRefund(Int)
    case refund(Int)
    case dispute(Int)
    case balanceTransaction(Int)
    case payout(Int)

    /// The object of `kind` at `index` in its table.
    init(_ kind: ObjectKind, _ index: Int) {
        self =
            switch kind {
            case .charge: .charge(index)
            case .paymentIntent: .paymentIntent(index)
            case .transfer: .transfer(index)
            case .transferReversal: .transferReversal(index)
            case .applicationFee: .applicationFee(index)
            case .feeRefund: .feeRefund(index)
            case .refund: .refund(index)
            case .dispute: .dispute(index)
            case .balanceTransaction: .balanceTransaction(index)
            case .payout: .payout(index)
            }
    }

    var kind: ObjectKind {
        switch self {
        case .charge: .charge
        case .paymentIntent: .paymentIntent
        case .transfer: .transfer
        case .transferReversal: .transferReversal
        case .applicationFee: .applicationFee
        case .feeRefund: .feeRefund
        case .refund: .refund
        case .dispute: .dispute
        case .balanceTransaction: .balanceTransaction
        case .payout: .payout
        }
    }
}

extension ObjectKind {
    /// The kind of id an object of this kind carries.
    var idKind: StripeIDKind {
        switch self {
        case .charge: .charge
        case .paymentIntent: .paymentIntent
        case .transfer: .transfer
        case .transferReversal: .transferReversal
        case .applicationFee: .applicationFee
        case .feeRefund: .feeRefund
        case .refund: .refund
        case .dispute: .dispute
        case .balanceTransaction: .balanceTransaction
        case .payout: .payout
        }
    }
}
