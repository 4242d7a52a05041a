import ReconCore

/// An object as the history keeps it: the facts the reconciler reads, and Stripe's JSON exactly as received.
public struct StoredObject<Facts: Sendable>: Sendable {
    public var facts: Facts
    /// The object's JSON as the API returned it (white space between tokens removed), so a range can be
    /// re-examined without the API.
    public var rawJSON: String

    public init(facts: Facts, rawJSON: String) {
        self.facts = facts
        self.rawJSON = rawJSON
    }
}

extension StoredObject: KindObject where Facts: ObjectFacts {
    public static var kind: ObjectKind { Facts.kind }
    public var id: String { facts.id }
    public var created: Int64 { facts.created }
}

extension ObjectLists {
    /// The stored objects of `type`'s kind: what a batch the extraction stores holds (`batch[stored: ChargeFacts.self]`).
    public subscript<Facts: ObjectFacts>(stored type: Facts.Type) -> [StoredObject<Facts>] {
        get { self[StoredObject<Facts>.self] }
        _modify { yield &self[StoredObject<Facts>.self] }
    }
}

/// The storable facts type of each kind, in the catalogue's order: what goes through every kind the history stores.
enum StorableKinds {
    /// Each kind's facts type as the history stores it.
    static let all: [any StorableFacts.Type] = ObjectKind.allCases.map(storable)

    private static let byKind = Dictionary(uniqueKeysWithValues: ObjectKind.allCases.map { ($0, storable($0)) })

    /// The facts type of `kind`.
    static func type(of kind: ObjectKind) -> any StorableFacts.Type { byKind[kind] ?? storable(kind) }

    private static let readers = Dictionary(
        uniqueKeysWithValues: ObjectKind.allCases.map { ($0, reader(storable($0))) })

    /// What a reader that knows `kind` only at run time does with its facts, specialised for the kind.
    static func reader(of kind: ObjectKind) -> KindReader { readers[kind] ?? reader(storable(kind)) }

    private static func reader<Facts: StorableFacts>(_ type: Facts.Type) -> KindReader { Facts.reader.erased }

    private static func storable(_ kind: ObjectKind) -> any StorableFacts.Type {
        guard let type = kind.entry.facts as? any StorableFacts.Type else {
            preconditionFailure("\(kind.entry.facts) has no mapping to the history's columns (StorableFacts.swift)")
        }
        return type
    }
}

/// What a write did: objects seen for the first time, objects whose content changed, objects unchanged since an
/// earlier run. Each object counts once per run: seeing it again in the same run (embedded in one page, listed in
/// another) counts nothing.
public struct WriteOutcome: Sendable, Equatable {
    public var new = 0
    public var updated = 0
    public var unchanged = 0

    public init(new: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.new = new
        self.updated = updated
        self.unchanged = unchanged
    }

    /// The change a write by `run` made to an object whose row now names `firstSeen` and `changed` runs: `new`,
    /// `updated`, or `nil` (unchanged). Each object counts once per run: a later sighting in the same run with
    /// other content finds its change already recorded.
    static func change(firstSeen: Int64, changed: Int64, run: Int64) -> String? {
        firstSeen == run ? "new" : (changed == run ? "updated" : nil)
    }

    /// Counts one object written by `run` (see ``change(firstSeen:changed:run:)``); a change counts only when this
    /// write `recorded` it in `changes`.
    mutating func count(firstSeen: Int64, changed: Int64, run: Int64, recorded: Bool) {
        guard let change = Self.change(firstSeen: firstSeen, changed: changed, run: run) else {
            unchanged += 1
            return
        }
        guard recorded else { return }
        if change == "new" { new += 1 } else { updated += 1 }
    }

    public static func + (lhs: WriteOutcome, rhs: WriteOutcome) -> WriteOutcome {
        WriteOutcome(
            new: lhs.new + rhs.new, updated: lhs.updated + rhs.updated, unchanged: lhs.unchanged + rhs.unchanged)
    }
}

/// A finished slice of extraction: one resource over `[from, to)`, committed with its objects.
public struct ExtractionWindow: Sendable, Hashable, Codable {
    public var resource: String
    public var from: Int64
    public var to: Int64

    public init(resource: String, from: Int64, to: Int64) {
        self.resource = resource
        self.from = from
        self.to = to
    }
}
