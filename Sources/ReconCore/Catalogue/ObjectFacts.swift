/// The facts of one kind of object: what the history stores and the rules read of it.
public protocol ObjectFacts: Sendable {
    /// The kind whose facts these are.
    static var kind: ObjectKind { get }
    var id: String { get }
    /// When Stripe created the object, in Unix seconds.
    var created: Int64 { get }
}
