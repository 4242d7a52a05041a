import Foundation

/// Figures that are checks, not targets: the scenarios that check correctness at scale (`sandbox-scale`,
/// `large-sheet`) fail the benchmark when one of these fails, where a missed performance target only reads
/// MISSED.
extension Figure {
    /// A value that must be at most `limit`: met, or FAILED.
    static func required(
        _ name: String, _ value: Double, atMost limit: Double, format: (Double) -> String
    ) -> Figure {
        Figure(
            name, format(value), target: "≤ \(format(limit)) (check)", ratio: Format.ratio(value / limit),
            verdict: value <= limit ? .met : .failed)
    }

    /// A yes-or-no check, with what was seen.
    static func check(_ name: String, passed: Bool, detail: String) -> Figure {
        Figure(name, detail, target: "check", verdict: passed ? .met : .failed)
    }
}

extension Format {
    /// `3.2 ms`.
    static func milliseconds(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
}
