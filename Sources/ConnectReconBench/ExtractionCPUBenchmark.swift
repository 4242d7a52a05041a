import CurlTransport
import Extract
import Foundation
import History
import Logging
import ReconCore
import Sandbox
import StripeAPI
import Synchronization
import WorkerThreads

/// (h) The extraction's own CPU per object (issue 29): the week of (a) extracted from a sandbox in a child process,
/// with no latency and no limits (a loopback population), so that this process's CPU time is the tool's alone. The
/// same response bodies are then parsed once with Foundation's `JSONSerialization`, timed in this process: the
/// calibration a target of "at most 2× a full parse" is measured against, on whatever machine runs it.
struct ExtractionCPUBenchmark {
    var charges: Int
    var days: Int
    var folder: URL

    func run(log: @escaping @Sendable (String) -> Void) async throws -> [Figure] {
        let child = try ChildSandbox.spawn(charges: charges, days: days, hours: 4)
        defer { child.stop() }
        log("extraction-cpu: sandbox in child process \(child.pid) at \(child.baseURL.absoluteString)")
        // The week of (a): days − 30 − 4 … + 7 of the world.
        let from = child.start + Int64(days / 2 - 4) * 86_400
        let to = from + 7 * 86_400
        let now = child.end
        let path = folder.appendingPathComponent("extraction-cpu.sqlite").path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let curl = try ExtractionBenchmark.transport(concurrency: ExtractionBenchmark.concurrency)
        defer { curl.shutdown() }
        let recorder = BodyRecorder(curl)
        let store = try HistoryStore.open(ExtractionBenchmark.freshSQLiteHistory(path))
        let runID = try ExtractionBenchmark.beginRun(
            store, from: from, to: to, now: now, apiBase: child.baseURL.absoluteString)
        let client = StripeClient(
            configuration: StripeClientConfiguration(
                baseURL: child.baseURL, key: try APIKey(ExtractionBenchmark.key),
                stripeVersion: ExtractionBenchmark.stripeVersion, retryPolicy: RetryPolicy(maxRetries: 6)),
            transport: recorder, budget: RequestBudget(globalRate: 1e9, endpointRate: 1e9),
            logger: Logger(label: "bench.client"))
        // The loopback figures measure the tool's own work: the sandbox's report runs finish after a poll or two of
        // fixed waits (0.5 s, then 1 s), which a real run spends beside Stripe's lists and which would only add idle
        // seconds here. Stripe's balance is still read, and what carries it back to the range listed.
        var options = ExtractionBenchmark.options()
        options.compareWithStripeReports = false
        let extractor = Extractor(
            client: client, store: store, options: options, logger: Logger(label: "bench.extract")
        )
        let cpuBefore = ProcessCPU.now()
        let watch = Stopwatch()
        let summary = try await extractor.extract(from: from, to: to, runID: runID, now: now)
        let wall = watch.seconds
        let cpu = ProcessCPU.now() - cpuBefore
        try store.runs.finishRun(runID, status: .completed, finishedAt: now, message: nil, details: nil)

        let bodies = recorder.bodies
        let bytes = bodies.reduce(0) { $0 + $1.count }
        let parseBefore = ProcessCPU.now()
        var parsed = 0
        for body in bodies where (try? JSONSerialization.jsonObject(with: body)) != nil { parsed += 1 }
        let parse = ProcessCPU.now() - parseBefore
        let objects = summary.objects
        log(
            "extraction-cpu: \(Format.count(objects)) objects in \(bodies.count) responses (\(parsed) parsed), "
                + "\(Format.count(bytes)) bytes; CPU \(Format.seconds(cpu.total)) (user \(Format.seconds(cpu.user)), "
                + "sys \(Format.seconds(cpu.system))); JSONSerialization \(Format.seconds(parse.total))")
        return [
            Figure(
                "**(h) the week's extraction CPU, loopback**",
                "\(Format.count(charges)) charges over \(days) days 4 h; the week of (a): "
                    + "\(Format.count(objects)) objects in \(bodies.count) responses, sandbox in a child process",
                target: "no latency, no limits"),
            Figure("response bytes per stored object", "\(Format.count(bytes / max(objects, 1))) bytes"),
            Figure(
                "objects per second (loopback population)", Format.rate(Double(objects) / wall, unit: "objects"),
                target: "≥ 10,000 objects/s (Stripe's ceiling)",
                verdict: Double(objects) / wall >= 10_000 ? .met : .missed),
            Figure(
                "the tool's CPU (user + sys)",
                "\(Format.seconds(cpu.total)) (\(Format.seconds(cpu.user)) + \(Format.seconds(cpu.system))), "
                    + "\(String(format: "%.0f", cpu.total / Double(max(objects, 1)) * 1e6)) µs per object"),
            Figure.atMost(
                "against JSONSerialization of the same bytes", cpu.total / parse.total, 2, format: Format.ratio,
                targetText: "≤ 2× (the parse: \(Format.seconds(parse.total)))"),
        ]
    }
}

/// Keeps every response body it passes on (the week's are about 70 MB).
final class BodyRecorder: HTTPTransport, Sendable {
    private let inner: any HTTPTransport
    private let recorded = Mutex<[Data]>([])

    init(_ inner: any HTTPTransport) { self.inner = inner }

    func get(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let response = try await inner.get(request)
        recorded.withLock { $0.append(response.body) }
        return response
    }

    var bodies: [Data] { recorded.withLock { $0 } }
}

/// This process's CPU time so far (`getrusage`), user and system.
struct ProcessCPU {
    var user: Double
    var system: Double
    var total: Double { user + system }

    static func now() -> ProcessCPU {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ProcessCPU(user: seconds(usage.ru_utime), system: seconds(usage.ru_stime))
    }

    static func - (lhs: ProcessCPU, rhs: ProcessCPU) -> ProcessCPU {
        ProcessCPU(user: lhs.user - rhs.user, system: lhs.system - rhs.system)
    }
}

/// A sandbox served by this executable started again with ``flag``, so that its CPU is not this process's.
struct ChildSandbox {
    static let flag = "--child-sandbox"

    let process: Process
    let input: Pipe
    let baseURL: URL
    /// The world's start and end (its "now"), Unix seconds.
    let start: Int64
    let end: Int64

    var pid: Int32 { process.processIdentifier }

    /// Starts the child and waits for the line that names its address and world.
    static func spawn(charges: Int, days: Int, hours: Int) throws -> ChildSandbox {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [flag, String(charges), String(days), String(hours)]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 {
            line.append(first)
        }
        let fields = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard fields.count == 3, let url = URL(string: String(fields[0])), let start = Int64(fields[1]),
            let end = Int64(fields[2])
        else {
            process.terminate()
            throw BenchError("the sandbox child process did not start")
        }
        return ChildSandbox(process: process, input: input, baseURL: url, start: start, end: end)
    }

    /// Closes the child's standard input, which stops it, and waits for it.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The child's body: serves the world with no latency and no limits until its standard input closes.
    static func main(_ arguments: [String]) async throws {
        guard arguments.count == 3, let charges = Int(arguments[0]), let days = Int(arguments[1]),
            let hours = Int(arguments[2])
        else { throw BenchError("usage: \(flag) CHARGES DAYS HOURS") }
        var options = SandboxOptions()
        options.charges = charges
        options.days = days
        options.hours = hours
        let server = try await SandboxServer.start(options)
        let start = Int64(server.world.start.timeIntervalSince1970)
        let end = Int64(server.world.end.timeIntervalSince1970)
        FileHandle.standardOutput.write(Data("\(server.baseURL.absoluteString) \(start) \(end)\n".utf8))
        // Until the parent closes our standard input.
        _ = await OwnThread.run(name: "stdin") { FileHandle.standardInput.readDataToEndOfFile() }
        try await server.shutdown()
    }
}
