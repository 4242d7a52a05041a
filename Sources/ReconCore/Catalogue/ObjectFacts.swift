/// One object of one kind, as far as a container of objects needs to know it: its kind, id and creation time.
/// Facts (``ObjectFacts``) are such objects, and so are the history's stored objects (facts with their JSON).
public protocol KindObject: Sendable {
    /// The kind of the object.
    static var kind: ObjectKind { get }
    var id: String { get }
    /// When Stripe created the object, in Unix seconds.
    var created: Int64 { get }
}

/// The facts of one kind of object: what the history stores and the rules read of it.
public protocol ObjectFacts: KindObject {}
