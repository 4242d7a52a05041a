import Synchronization

/// The report runs the sandbox was asked to create, and their files: the one thing the sandbox keeps between
/// requests (the world is immutable).
///
/// A run is `pending` when created and on its first poll, and done from the second: `succeeded` with its file, or
/// `failed` when the options say so; with ``SandboxOptions/reportRunsNeverFinish`` it stays `pending`.
final class ReportRunTable: Sendable {
    /// One run as created.
    struct Run: Sendable {
        var number: Int
        var type: SandboxReportType
        var intervalStart: Int64
        var intervalEnd: Int64
        var currency: WorldCurrency
        var columns: [String]
        var created: Int64
        var polls = 0
        /// The file, once the run succeeded.
        var file: [UInt8]?
    }

    /// What a run looks like at a poll.
    enum Status: Sendable {
        case pending
        case succeeded
        case failed
    }

    private struct State {
        var runs: [Run] = []
        /// `http://127.0.0.1:PORT`, known once the server listens.
        var baseURL = ""
    }

    private let state = Mutex(State())
    let failRuns: Bool
    let neverFinish: Bool

    init(failRuns: Bool, neverFinish: Bool) {
        self.failRuns = failRuns
        self.neverFinish = neverFinish
    }

    /// The base URL the files' `url` names.
    var baseURL: String {
        get { state.withLock { $0.baseURL } }
        set { state.withLock { $0.baseURL = newValue } }
    }

    /// Records a new run and returns it.
    func create(_ make: (Int) -> Run) -> Run {
        state.withLock { state in
            let run = make(state.runs.count + 1)
            state.runs.append(run)
            return run
        }
    }

    /// Counts a poll of run `number` and returns it with its status; `file` makes its file the first time it
    /// succeeds.
    func poll(_ number: Int, file: (Run) -> [UInt8]) -> (run: Run, status: Status)? {
        state.withLock { state in
            guard (1...state.runs.count).contains(number) else { return nil }
            state.runs[number - 1].polls += 1
            var run = state.runs[number - 1]
            if neverFinish || run.polls < 2 { return (run, .pending) }
            if failRuns { return (run, .failed) }
            if run.file == nil {
                run.file = file(run)
                state.runs[number - 1].file = run.file
            }
            return (run, .succeeded)
        }
    }

    /// The file of run `number`, once it succeeded.
    func file(_ number: Int) -> [UInt8]? {
        state.withLock { state in
            guard (1...state.runs.count).contains(number) else { return nil }
            return state.runs[number - 1].file
        }
    }

    // MARK: Ids

    /// `frr_1SbxRun000000000000001` for run 1.
    static func runID(_ number: Int) -> String { "frr_1SbxRun" + padded(number) }
    /// `file_1SbxRun000000000000001` for run 1's file.
    static func fileID(_ number: Int) -> String { "file_1SbxRun" + padded(number) }

    /// The run number of a run id or file id, `nil` for none of the sandbox's.
    static func number(runID id: String) -> Int? { number(id, prefix: "frr_1SbxRun") }
    static func number(fileID id: String) -> Int? { number(id, prefix: "file_1SbxRun") }

    private static func padded(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 15 - digits.count)) + digits
    }

    private static func number(_ id: String, prefix: String) -> Int? {
        guard id.hasPrefix(prefix) else { return nil }
        let digits = id.dropFirst(prefix.count)
        guard digits.count == 15, digits.allSatisfy(\.isASCIIDigit), let number = Int(digits), number >= 1 else {
            return nil
        }
        return number
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
