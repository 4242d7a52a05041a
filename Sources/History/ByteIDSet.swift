import ReconCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ids held as their UTF-8 bytes, all in one buffer, found by ``ByteHash``: the range's charge ids, against which
/// ``PartLoader/orphanParts(owned:_:)`` tells the range's objects whose charge is not one of the range's straight from
/// each row's bytes. A `Set<String>` made a string of every row's charge id and hashed it with SipHash, and held
/// 20 MiB more at 150,000 charges (docs/BENCHMARKS.md, "The orphans by the range's charge ids"). Also the ids a part
/// holds of each kind while its context is read (``PartLoader/add(_:_:to:)``), where SipHash was a third of what a
/// step cost beside its queries ("The ledger's reads from the sums' pass").
///
/// Ids are equal when their bytes are, as SQLite compares them (a `Set<String>` also takes canonically equivalent
/// Unicode for equal).
struct ByteIDSet {
    /// The ids' bytes, one after another.
    private var bytes: [UInt8] = []
    /// Where each id starts in ``bytes``, then where the next would (one more than there are ids).
    private var starts: [Int] = [0]
    /// Open addressing: a slot holds the place of an id in ``starts`` plus one; 0: empty. A power of two at least
    /// twice as many slots as ids, so that probes stay short. Four bytes a slot: up to 2³¹ − 1 ids, a thousand times
    /// the charges of the largest range measured.
    private var slots = [Int32](repeating: 0, count: 16)

    /// How many ids.
    var count: Int { starts.count - 1 }

    /// A set with room for `capacity` ids of about 32 bytes each, so that it is allocated once: grown by doubling,
    /// each buffer it let go of stayed in the process's heap (at 1,250,000 charges the peak rose by 30–46 MiB).
    init(capacity: Int = 0) {
        bytes.reserveCapacity(32 * capacity)
        starts.reserveCapacity(capacity + 1)
        var slotCount = 16
        while slotCount < 2 * capacity { slotCount *= 2 }
        slots = [Int32](repeating: 0, count: slotCount)
    }

    /// Adds the id of UTF-8 bytes `id` (once, however often it is given); whether it was not held before.
    @discardableResult
    mutating func insert(_ id: UnsafeBufferPointer<UInt8>) -> Bool {
        guard case .absent(let slot) = find(id) else { return false }
        bytes.append(contentsOf: id)
        starts.append(bytes.count)
        slots[slot] = Int32(count)
        if 2 * count > slots.count { grow() }
        return true
    }

    /// Adds `id`'s UTF-8 bytes (``insert(_:)-(UnsafeBufferPointer<UInt8>)``); whether it was not held before.
    @discardableResult
    mutating func insert(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { insert($0) }
    }

    /// Whether the id of UTF-8 bytes `id` is held.
    func contains(_ id: UnsafeBufferPointer<UInt8>) -> Bool {
        if case .held = find(id) { return true }
        return false
    }

    /// Whether `id`'s UTF-8 bytes are held.
    func contains(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { contains($0) }
    }

    private enum Place {
        case held
        /// Not held: the slot it would take.
        case absent(Int)
    }

    private func find(_ id: UnsafeBufferPointer<UInt8>) -> Place {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: ByteHash.of(id)) & mask
        return bytes.withUnsafeBufferPointer { held in
            while slots[slot] != 0 {
                let place = Int(slots[slot]) - 1
                let start = starts[place]
                if starts[place + 1] - start == id.count, Self.equal(held.baseAddress, start, id) { return .held }
                slot = (slot + 1) & mask
            }
            return .absent(slot)
        }
    }

    /// Whether the `id.count` bytes at `start` in `held` are `id`'s.
    private static func equal(_ held: UnsafePointer<UInt8>?, _ start: Int, _ id: UnsafeBufferPointer<UInt8>) -> Bool {
        guard id.count > 0 else { return true }
        guard let held, let other = id.baseAddress else { return false }
        return memcmp(held + start, other, id.count) == 0
    }

    /// Twice the slots, every id placed again.
    private mutating func grow() {
        slots = [Int32](repeating: 0, count: 2 * slots.count)
        let mask = slots.count - 1
        bytes.withUnsafeBufferPointer { held in
            for place in 0..<count {
                let id = UnsafeBufferPointer(rebasing: held[starts[place]..<starts[place + 1]])
                var slot = Int(truncatingIfNeeded: ByteHash.of(id)) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(place + 1)
            }
        }
    }
}
