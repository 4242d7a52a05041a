/// A small, fast, seedable pseudo-random generator (SplitMix64, Steele et al. 2014).
///
/// The world must be byte-identical for a seed on every platform and Swift version, so it never uses
/// `SystemRandomNumberGenerator` or the standard library's unspecified algorithms (`shuffled`, `randomElement`).
struct SplitMix64: Sendable {
    private(set) var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.mix(state)
    }

    /// The SplitMix64 finaliser: a good 64-bit hash of `value`.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `range` (bias below 2^-32 for the ranges used here).
    mutating func int(_ range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(range.upperBound - range.lowerBound) &+ 1
        guard width != 0 else { return Int64(bitPattern: next()) }
        return range.lowerBound + Int64(next() % width)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int(int(Int64(range.lowerBound)...Int64(range.upperBound)))
    }

    /// `true` with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) * 0x1.0p-53 < probability
    }

    /// Picks an index with the given integer weights.
    mutating func pick(_ weights: [Int]) -> Int {
        let total = weights.reduce(0, +)
        var roll = Int(next() % UInt64(max(total, 1)))
        for (index, weight) in weights.enumerated() {
            if roll < weight { return index }
            roll -= weight
        }
        return weights.count - 1
    }
}
