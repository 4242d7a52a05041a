import Foundation
import History
import ReconCore
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `connect-recon reconcile`, the shipped executable built next to this benchmark, run on a history as cron runs it
/// (its defaults: the look-back on, "now" the real clock): its wall time, its own peak resident memory (the
/// `ru_maxrss` that `wait4` reports for it alone), and the phases its own log line reports.
enum ProductReconcile {
    /// What one run of the product took.
    struct Measurement {
        var seconds: Double
        var peakResident: UInt64
        /// The phases of the product's `reconcile:` log line, in seconds (`read`, `rules`, `findings`, `finish`,
        /// `csv`, `xlsx rows`, `xlsx zip`), and its counts (`parts`, `objects`).
        var phases: [String: Double]
        var log: String

        func phase(_ name: String) -> Double { phases[name] ?? .nan }
    }

    /// The executable next to this benchmark's (`swift build -c release --scratch-path .build-release` builds both).
    static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("connect-recon")
    }

    /// Runs `connect-recon reconcile` of `[from, to)` on the history at `database`, its reports under `output`, its
    /// log in `output/../reconcile-<name>.log`. The history's location travels in the environment
    /// (`CONNECT_RECON_OUTPUT_DATABASE`), so a URL's password is in no process list.
    static func run(database: HistoryLocation, output: String, from: Int64, to: Int64) throws -> Measurement {
        let program = executable.path
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw BenchError(
                "\(program) is missing: build it with the benchmark (swift build -c release --scratch-path "
                    + ".build-release)")
        }
        let folder = URL(fileURLWithPath: output).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Only this run's reports: an earlier run's range folders would be compared too.
        try? FileManager.default.removeItem(atPath: output)
        let config = folder.appendingPathComponent("bench-config.yaml").path
        try Data().write(to: URL(fileURLWithPath: config))
        let logPath = folder.appendingPathComponent("reconcile-\(URL(fileURLWithPath: output).lastPathComponent).log")
            .path
        let arguments = [
            "reconcile", "--config", config, "--from", RFC3339.utcString(date(from)), "--to",
            RFC3339.utcString(date(to)), "--out", output, "--log-level", "info",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["CONNECT_RECON_OUTPUT_DATABASE"] = database.setting
        forgetOwnPeakMemory()
        let watch = Stopwatch()
        let child = try ChildProcess(
            program, arguments, environment: environment, output: .file(logPath), error: .standardOutput)
        let (status, usage) = child.waitForExitWithUsage()
        let seconds = watch.seconds
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            let how = status < 0 ? "was killed by signal \(-status)" : "exited with status \(status)"
            throw BenchError("connect-recon reconcile \(how); its log: \(logPath)")
        }
        return Measurement(
            seconds: seconds, peakResident: UInt64(max(usage.ru_maxrss, 0)) * 1_024, phases: phases(of: log),
            log: log)
    }

    private static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

    /// Brings the benchmark's own peak resident memory down to what it holds now, before it spawns the product: the
    /// child's `ru_maxrss` includes the peak of the memory it was spawned from. `posix_spawn` starts the child in its
    /// parent's address space (`CLONE_VM`), and when the child's `exec` leaves that address space, Linux keeps its peak
    /// as the child's (`exec_mmap`). A reconcile spawned after the floor's read of every table (1.2 million facts held
    /// at once) reported 197–205 MiB where the same executable under GNU time took 115 MiB (docs/BENCHMARKS.md, "The
    /// close's copy, the parts' page cache, and rounds"). `malloc_trim` gives the freed memory back; `5` in
    /// `/proc/self/clear_refs` resets the peak to the resident memory left. Best effort: where either fails, the figure
    /// may only be higher.
    private static func forgetOwnPeakMemory() {
        #if os(Linux)
            // glibc's `malloc_trim`, which Swift does not import (`malloc.h`).
            typealias Trim = @convention(c) (Int) -> Int32
            if let trim = dlsym(nil, "malloc_trim") { _ = unsafeBitCast(trim, to: Trim.self)(0) }
            if let file = fopen("/proc/self/clear_refs", "w") {
                fputs("5", file)
                fclose(file)
            }
        #endif
    }

    /// The numbers of the product's `reconcile: … parts, … objects read; read … s, rules … s, …` log line.
    static func phases(of log: String) -> [String: Double] {
        guard
            let line = log.split(separator: "\n").last(where: { $0.contains("reconcile: ") && $0.contains(" parts, ") })
        else { return [:] }
        var phases: [String: Double] = [:]
        let patterns: [(String, String)] = [
            ("parts", #"([0-9]+) parts"#), ("objects", #"([0-9]+) objects read"#),
            ("read", #"read ([0-9.]+) s"#), ("rules", #"rules ([0-9.]+) s"#),
            ("findings", #"findings ([0-9.]+) s"#), ("finish", #"reports finished ([0-9.]+) s"#),
            ("csv", #"CSV ([0-9.]+) s"#), ("xlsx rows", #"XLSX rows ([0-9.]+) s"#),
            ("xlsx zip", #"XLSX zip ([0-9.]+) s"#),
        ]
        let text = String(line)
        for (name, pattern) in patterns {
            guard let regex = try? NSRegularExpression(pattern: pattern),
                let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                let range = Range(match.range(at: 1), in: text)
            else { continue }
            phases[name] = Double(text[range])
        }
        return phases
    }
}
