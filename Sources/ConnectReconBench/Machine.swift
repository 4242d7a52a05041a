import Foundation
import ReconCore

/// The machine a benchmark runs on, and the memory high-water mark of this process.
enum Machine {
    /// Cores this process may use.
    static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Physical memory in bytes.
    static var memoryBytes: UInt64 { ProcessInfo.processInfo.physicalMemory }

    /// `Intel(R) Xeon(R) …` from `/proc/cpuinfo`, or `unknown CPU`.
    static var cpuModel: String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown CPU" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown CPU"
    }

    /// One line naming the machine: cores, CPU, memory, kernel.
    static var description: String {
        let memory = String(format: "%.1f GiB", Double(memoryBytes) / 1_073_741_824)
        let kernel = ProcessInfo.processInfo.operatingSystemVersionString
        return "\(cores) cores (\(cpuModel)), \(memory) memory, \(kernel)"
    }

    /// `load 1.23 0.98 0.75`: the 1, 5 and 15 minute load averages, to tell a quiet machine from a busy one.
    static var loadAverage: String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "load unknown" }
        return "load " + text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// The peak resident set size of this process (`VmHWM`), in bytes.
    static func peakResidentBytes() -> UInt64? { statusField("VmHWM") }

    /// The current resident set size of this process (`VmRSS`), in bytes.
    static func residentBytes() -> UInt64? { statusField("VmRSS") }

    /// Reads a `kB` field of `/proc/self/status`.
    private static func statusField(_ name: String) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
            return UInt64(digits).map { $0 * 1024 }
        }
        return nil
    }
}

/// Wall-clock timing in seconds.
struct Stopwatch {
    private let clock = ContinuousClock()
    private var start: ContinuousClock.Instant

    init() { start = clock.now }

    /// Seconds since the stopwatch started.
    var seconds: Double {
        (clock.now - start).inSeconds
    }

    /// Seconds since the last lap (or the start), restarting the lap.
    mutating func lap() -> Double {
        let value = seconds
        start = clock.now
        return value
    }
}

/// Number formatting for the table.
enum Format {
    static func seconds(_ value: Double) -> String {
        value < 10 ? String(format: "%.2f s", value) : String(format: "%.1f s", value)
    }

    static func bytes(_ value: UInt64) -> String {
        let mib = Double(value) / 1_048_576
        return mib < 1024 ? String(format: "%.0f MiB", mib) : String(format: "%.2f GiB", mib / 1024)
    }

    /// `1,234,567`.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return value < 0 ? "-" + result : result
    }

    static func rate(_ value: Double, unit: String) -> String { "\(count(Int(value.rounded()))) \(unit)/s" }

    static func percent(_ value: Double) -> String { String(format: "%.1f %%", value * 100) }

    static func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }
}
