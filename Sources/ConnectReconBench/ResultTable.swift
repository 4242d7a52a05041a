import Foundation

/// One line of the benchmark's table.
struct Figure: Sendable {
    /// Whether a figure has a target, and whether it met it; a check that fails makes the benchmark exit 1.
    enum Verdict: String, Sendable {
        case met = "met"
        case missed = "MISSED"
        case failed = "FAILED"
        case info = ""
    }

    var name: String
    var value: String
    var target: String
    /// The side-by-side comparison: against the sequential pager, or the value's share of its target.
    var ratio: String
    var verdict: Verdict

    init(_ name: String, _ value: String, target: String = "", ratio: String = "", verdict: Verdict = .info) {
        self.name = name
        self.value = value
        self.target = target
        self.ratio = ratio
        self.verdict = verdict
    }

    /// A figure that must be at least `target` (`value / target` as the ratio).
    static func atLeast(
        _ name: String, _ value: Double, _ target: Double, format: (Double) -> String, targetText: String? = nil
    ) -> Figure {
        Figure(
            name, format(value), target: targetText ?? "≥ \(format(target))", ratio: Format.ratio(value / target),
            verdict: value >= target ? .met : .missed)
    }

    /// A figure that must be at most `target` (`value / target` as the ratio).
    static func atMost(
        _ name: String, _ value: Double, _ target: Double, format: (Double) -> String, targetText: String? = nil
    ) -> Figure {
        Figure(
            name, format(value), target: targetText ?? "≤ \(format(target))", ratio: Format.ratio(value / target),
            verdict: value <= target ? .met : .missed)
    }
}

/// Prints figures as a Markdown table, so the output can go into the README as it is.
enum ResultTable {
    static func render(_ sections: [(title: String, figures: [Figure])]) -> String {
        let header = ["figure", "value", "target", "ratio", "verdict"]
        var rows: [[String]] = []
        for section in sections {
            rows.append(["**\(section.title)**", "", "", "", ""])
            rows += section.figures.map { [$0.name, $0.value, $0.target, $0.ratio, $0.verdict.rawValue] }
        }
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            "| "
                + cells.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: " | ") + " |"
        }
        var lines = [
            line(header), "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|",
        ]
        lines += rows.map(line)
        return lines.joined(separator: "\n")
    }
}
