import Foundation
import ReconCore

/// What the `Run` sheet says about the run that produced a report. The writer prints it; it computes
/// nothing from it.
public struct ReportMetadata: Sendable, Hashable {
    /// A further named setting worth showing (configuration file, database, grace period, output folder…),
    /// listed on the Run sheet in the order given.
    public struct Parameter: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The reconciled range; it also names the report folder.
    public var range: ReportingRange
    /// The history's id of this run.
    public var runID: Int64
    /// When the run started and finished, Unix seconds.
    public var startedAt: Int64
    public var finishedAt: Int64
    /// The command that ran (`run`, `reconcile`, `demo`).
    public var command: String
    /// connect-recon's version.
    public var toolVersion: String
    /// The `Stripe-Version` the API was called with (for `reconcile`: the one the data was fetched with).
    public var stripeVersion: String
    /// Test or live mode.
    /// Which kind of key the run used. The key itself never reaches a report.
    public var mode: StripeMode
    /// The API base URL. Any user name or password in it is left out of the report.
    public var apiBase: String
    /// Objects per kind (`charge` → 1200, …), listed sorted by kind.
    public var counts: [String: Int]
    /// Seconds per phase (`extract` → 12.5, …), listed sorted by phase.
    public var timings: [String: Double]
    /// Findings of earlier runs about objects this run judged that are gone now.
    public var resolvedFindings: [ResolvedFinding]
    /// Earlier ranges whose reports are out of date because an outcome of one of their objects arrived since
    /// (docs/RULES.md, "Late outcomes"): re-run them to update their reports.
    public var outOfDateRanges: [ReportingRange]
    /// Anything else the Run sheet should show, in order.
    public var parameters: [Parameter]
    /// Links of the range's account debits that name nothing the history holds (debit, link): they recover nothing
    /// (docs/RULES.md, "The platform's other money").
    public var unmatchedDebitLinks: [UnmatchedDebitLink] = []

    public init(
        range: ReportingRange, runID: Int64, startedAt: Int64, finishedAt: Int64, command: String,
        toolVersion: String, stripeVersion: String, mode: StripeMode, apiBase: String, counts: [String: Int] = [:],
        timings: [String: Double] = [:], resolvedFindings: [ResolvedFinding] = [],
        outOfDateRanges: [ReportingRange] = [], parameters: [Parameter] = []
    ) {
        self.range = range
        self.runID = runID
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.command = command
        self.toolVersion = toolVersion
        self.stripeVersion = stripeVersion
        self.mode = mode
        self.apiBase = apiBase
        self.counts = counts
        self.timings = timings
        self.resolvedFindings = resolvedFindings
        self.outOfDateRanges = outOfDateRanges
        self.parameters = parameters
    }
}

// MARK: - Keeping secrets out

/// Removes what must never be written to a report: the user and password of a URL, and anything shaped like
/// a Stripe secret or restricted key (`sk_live_…`, `rk_test_…`), wherever it appears.
package enum SecretRedaction {
    static func url(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.user != nil || components.password != nil
        else { return redacted(text) }
        components.user = nil
        components.password = nil
        return redacted(components.string ?? "(an API base URL with credentials, not shown)")
    }

    /// `text` with every `sk_`/`rk_` + `test_`/`live_` + key characters replaced by `[redacted key]`.
    package static func redacted(_ text: String) -> String {
        guard text.contains("k_test_") || text.contains("k_live_") else { return text }
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if let end = keyEnd(in: scalars, at: index) {
                output.append(contentsOf: "[redacted key]".unicodeScalars)
                index = end
            } else {
                output.append(scalars[index])
                index += 1
            }
        }
        return String(output)
    }

    private static func keyEnd(in scalars: [Unicode.Scalar], at start: Int) -> Int? {
        let prefixes = ["sk_test_", "sk_live_", "rk_test_", "rk_live_"].map { Array($0.unicodeScalars) }
        guard start == 0 || !isKeyCharacter(scalars[start - 1]) else { return nil }
        for prefix in prefixes where scalars[start...].starts(with: prefix) {
            var end = start + prefix.count
            while end < scalars.count, isKeyCharacter(scalars[end]) { end += 1 }
            return end
        }
        return nil
    }

    private static func isKeyCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
    }
}
