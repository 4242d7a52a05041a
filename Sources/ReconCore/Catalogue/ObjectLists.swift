/// Objects of any kinds, one list per element type, with the payout links `?payout=` listed: the one container of
/// objects. A batch the extraction stores holds stored objects (``ObjectLists/subscript(_:)`` with the history's
/// stored type), the reconciler's input and its parts hold facts, a test's world holds facts too; none of them
/// names the kinds, so a kind the catalogue gains needs no new member here.
///
/// A list is found by its element type: `objects[ChargeFacts.self]`. The rules' names for the facts lists
/// (`objects.charges`) are in `ObjectLists+Facts.swift`.
public struct ObjectLists: Sendable {
    private var lists: [ObjectIdentifier: any KindList] = [:]
    /// Which payout's `?payout=` list held each balance transaction. Links are not objects and are not counted.
    public var payoutTransactions: [PayoutTransactionLink] = []

    public init() {}

    /// The objects of type `Element`, in the order they were added.
    public subscript<Element: KindObject>(_ type: Element.Type) -> [Element] {
        get { (lists[ObjectIdentifier(type)] as? [Element]) ?? [] }
        _modify {
            // Taken out while modified, so that appending does not copy the list.
            var list = (lists.removeValue(forKey: ObjectIdentifier(type)) as? [Element]) ?? []
            defer { lists[ObjectIdentifier(type)] = list }
            yield &list
        }
    }

    /// How many objects the lists hold, of every kind.
    public var count: Int { lists.values.reduce(0) { $0 + $1.count } }

    /// Whether the lists hold no object and no payout link.
    public var isEmpty: Bool { count == 0 && payoutTransactions.isEmpty }

    /// The kinds of the objects held, each once, in the catalogue's order.
    public var kinds: [ObjectKind] {
        let held = Set(lists.values.filter { $0.count > 0 }.map(\.kind))
        return ObjectKind.allCases.filter(held.contains)
    }

    /// Appends another container's objects and links, list by list.
    public mutating func append(contentsOf other: ObjectLists) {
        for list in other.lists.values where list.count > 0 { list.append(to: &self) }
        payoutTransactions += other.payoutTransactions
    }

    /// The lists with each object once: the first of those sharing an id, in order.
    public func uniqued() -> ObjectLists {
        var result = ObjectLists()
        for list in lists.values { list.appendUnique(to: &result) }
        result.payoutTransactions = payoutTransactions
        return result
    }

    /// How many of the objects of `kind` whose ids are in `ids` were created before `moment`.
    public func count(of kind: ObjectKind, in ids: Set<String>, createdBefore moment: Int64) -> Int {
        guard !ids.isEmpty else { return 0 }
        return lists.values.reduce(0) { total, list in
            list.kind == kind ? total + list.count(in: ids, createdBefore: moment) : total
        }
    }
}

/// One list of ``ObjectLists``, whatever its element type.
private protocol KindList: Sendable {
    var count: Int { get }
    var kind: ObjectKind { get }
    func append(to lists: inout ObjectLists)
    func appendUnique(to lists: inout ObjectLists)
    func count(in ids: Set<String>, createdBefore moment: Int64) -> Int
}

extension Array: KindList where Element: KindObject {
    fileprivate var kind: ObjectKind { Element.kind }

    fileprivate func append(to lists: inout ObjectLists) { lists[Element.self] += self }

    fileprivate func appendUnique(to lists: inout ObjectLists) {
        var seen = Set<String>()
        lists[Element.self] += filter { seen.insert($0.id).inserted }
    }

    fileprivate func count(in ids: Set<String>, createdBefore moment: Int64) -> Int {
        // Each object where it is: `count(where:)` handed its closure a copy of each (retaining each of its strings).
        var count = 0
        forEachInPlace { object in
            if object.pointee.created < moment, ids.contains(object.pointee.id) { count += 1 }
        }
        return count
    }
}
