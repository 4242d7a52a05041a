import CurlTransport
import Extract
import Foundation
import History
import Logging
import ReconCore
import Sandbox
import StripeAPI
import Synchronization
import TestSupport
import WorkerThreads

/// (h) The extraction's own CPU per object (issue 29): the week of (a) extracted from a sandbox in a child process,
/// with no latency and no limits (a loopback population), so that this process's CPU time is the tool's alone. The
/// same response bodies are then parsed once with Foundation's `JSONSerialization`, timed in this process: the
/// calibration a target of "at most 2× a full parse" is measured against, on whatever machine runs it.
struct ExtractionCPUBenchmark {
    var charges: Int
    var days: Int
    var folder: URL
    /// A server already serving this week's recording (`--recorded-bytes-server`), instead of the child's.
    var recordedBytesServer: URL?

    func run(log: @escaping @Sendable (String) -> Void) async throws -> [Figure] {
        let child = try ChildSandbox.spawn(charges: charges, days: days, hours: 4)
        defer { child.stop() }
        log("extraction-cpu: sandbox in child process \(child.pid) at \(child.baseURL.absoluteString)")
        // The week of (a): days − 30 − 4 … + 7 of the world.
        let from = child.start + Int64(days / 2 - 4) * 86_400
        let week = Week(from: from, to: from + 7 * 86_400, now: child.end)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fromSandbox = try await extract(week, from: child.baseURL, history: "extraction-cpu.sqlite", record: true)
        child.stop()

        let responses = fromSandbox.recorded
        let bodies = responses.map(\.body)
        let bytes = bodies.reduce(0) { $0 + $1.count }
        let parseBefore = ProcessCPU.now()
        var parsed = 0
        for body in bodies where (try? JSONSerialization.jsonObject(with: body)) != nil { parsed += 1 }
        let parse = ProcessCPU.now() - parseBefore
        let objects = fromSandbox.objects
        let cpu = fromSandbox.cpu
        log(
            "extraction-cpu: \(Format.count(objects)) objects in \(bodies.count) responses (\(parsed) parsed), "
                + "\(Format.count(bytes)) bytes; CPU \(Format.seconds(cpu.total)) (user \(Format.seconds(cpu.user)), "
                + "sys \(Format.seconds(cpu.system))); JSONSerialization \(Format.seconds(parse.total))")

        // The same week again, from the recorded bytes, into a fresh history. The recording stays in the scratch folder
        // (`extraction-cpu.recording`, ``RecordingFile``), for serving it from another server.
        let recording = folder.appendingPathComponent("extraction-cpu.recording")
        try RecordingFile.write(responses, to: recording)
        let fromBytes: (objects: Int, cpu: ProcessCPU, wall: Double, recorded: [RecordedResponse])
        let misses: Int
        if let server = recordedBytesServer {
            log("extraction-cpu: the recorded bytes from \(server.absoluteString)")
            fromBytes = try await extract(week, from: server, history: "extraction-cpu-recorded.sqlite")
            misses = 0
        } else {
            let replay = try ChildRecordedBytes.spawn(recording: recording)
            log(
                "extraction-cpu: recorded-bytes server in child process \(replay.pid) at \(replay.baseURL.absoluteString)"
            )
            do {
                fromBytes = try await extract(week, from: replay.baseURL, history: "extraction-cpu-recorded.sqlite")
            } catch {
                _ = replay.stop()
                throw error
            }
            misses = replay.stop()
        }
        let replayCPU = fromBytes.cpu
        log(
            "extraction-cpu: from the recorded bytes \(Format.count(fromBytes.objects)) objects, \(misses) requests "
                + "not in the recording; CPU \(Format.seconds(replayCPU.total)) (user "
                + "\(Format.seconds(replayCPU.user)), sys \(Format.seconds(replayCPU.system)))")
        let sandboxRatio = cpu.total / parse.total
        let bytesRatio = replayCPU.total / parse.total
        let apart = abs(sandboxRatio - bytesRatio) / max(sandboxRatio, bytesRatio)
        return [
            Figure(
                "**(h) the week's extraction CPU, loopback**",
                "\(Format.count(charges)) charges over \(days) days 4 h; the week of (a): "
                    + "\(Format.count(objects)) objects in \(bodies.count) responses, sandbox in a child process",
                target: "no latency, no limits"),
            Figure("response bytes per stored object", "\(Format.count(bytes / max(objects, 1))) bytes"),
            Figure(
                "objects per second (loopback population)",
                Format.rate(Double(objects) / fromSandbox.wall, unit: "objects"),
                target: "≥ 10,000 objects/s (Stripe's ceiling)",
                verdict: Double(objects) / fromSandbox.wall >= 10_000 ? .met : .missed),
            Figure(
                "the tool's CPU (user + sys)",
                "\(Format.seconds(cpu.total)) (\(Format.seconds(cpu.user)) + \(Format.seconds(cpu.system))), "
                    + "\(String(format: "%.0f", cpu.total / Double(max(objects, 1)) * 1e6)) µs per object"),
            Figure.atMost(
                "against JSONSerialization of the same bytes", sandboxRatio, 2, format: Format.ratio,
                targetText: "≤ 2× (the parse: \(Format.seconds(parse.total)))"),
            Figure(
                "the same week from the recorded bytes",
                "\(Format.count(fromBytes.objects)) objects, \(misses) requests not in the recording; CPU "
                    + "\(Format.seconds(replayCPU.total)) (\(Format.seconds(replayCPU.user)) + "
                    + "\(Format.seconds(replayCPU.system)))",
                target: "every request in the recording",
                verdict: misses == 0 && fromBytes.objects == objects ? .met : .missed),
            Figure.atMost(
                "against JSONSerialization, recorded bytes", bytesRatio, 2, format: Format.ratio,
                targetText: "≤ 2× (the parse: \(Format.seconds(parse.total)))"),
            Figure.atMost(
                "the two servers' ratios apart", apart * 100, 10, format: { String(format: "%.1f %%", $0) },
                targetText: "≤ 10 %"),
        ]
    }

    /// The range (h) extracts, and the moment it is extracted at.
    struct Week {
        var from: Int64
        var to: Int64
        var now: Int64
    }

    /// One extraction of `week` from `server` into a fresh history, with no latency and no limits; this process's CPU
    /// and wall time over it, and every response when `record`.
    private func extract(
        _ week: Week, from server: URL, history: String, record: Bool = false
    ) async throws -> (objects: Int, cpu: ProcessCPU, wall: Double, recorded: [RecordedResponse]) {
        let curl = try ExtractionBenchmark.transport(concurrency: ExtractionBenchmark.concurrency)
        defer { curl.shutdown() }
        let recorder = ResponseRecorder(curl)
        let store = try HistoryStore.open(
            ExtractionBenchmark.freshSQLiteHistory(folder.appendingPathComponent(history).path))
        let runID = try ExtractionBenchmark.beginRun(
            store, from: week.from, to: week.to, now: week.now, apiBase: server.absoluteString)
        let client = StripeClient(
            configuration: StripeClientConfiguration(
                baseURL: server, key: try APIKey(ExtractionBenchmark.key),
                stripeVersion: ExtractionBenchmark.stripeVersion, retryPolicy: RetryPolicy(maxRetries: 6)),
            transport: record ? recorder : curl, budget: RequestBudget(globalRate: 1e9, endpointRate: 1e9),
            logger: Logger(label: "bench.client"))
        // The loopback figures measure the tool's own work: the sandbox's report runs finish after a poll or two of
        // fixed waits (0.5 s, then 1 s), which a real run spends beside Stripe's lists and which would only add idle
        // seconds here. Stripe's balance is still read, and what carries it back to the range listed.
        var options = ExtractionBenchmark.options()
        options.compareWithStripeReports = false
        let extractor = Extractor(
            client: client, store: store, options: options, logger: Logger(label: "bench.extract"))
        let cpuBefore = ProcessCPU.now()
        let watch = Stopwatch()
        let summary = try await extractor.extract(from: week.from, to: week.to, runID: runID, now: week.now)
        let wall = watch.seconds
        let cpu = ProcessCPU.now() - cpuBefore
        try store.runs.finishRun(runID, status: .completed, finishedAt: week.now, message: nil, details: nil)
        return (summary.objects, cpu, wall, record ? recorder.responses : [])
    }
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

    let child: ChildServer
    let baseURL: URL
    /// The world's start and end (its "now"), Unix seconds.
    let start: Int64
    let end: Int64

    var pid: Int32 { child.pid }

    /// Starts the child and waits for the line that names its address and world.
    static func spawn(charges: Int, days: Int, hours: Int) throws -> ChildSandbox {
        let child = try ChildServer.start([flag, String(charges), String(days), String(hours)])
        let fields = try child.line().split(separator: " ")
        guard fields.count == 3, let url = URL(string: String(fields[0])), let start = Int64(fields[1]),
            let end = Int64(fields[2])
        else {
            child.terminate()
            throw BenchError("the sandbox child process did not start")
        }
        return ChildSandbox(child: child, baseURL: url, start: start, end: end)
    }

    /// Closes the child's standard input, which stops it, and waits for it.
    func stop() {
        child.closeInput()
        child.wait()
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

/// The ``RecordedBytesServer`` in a child process.
struct ChildRecordedBytes {
    let child: ChildServer
    let baseURL: URL

    var pid: Int32 { child.pid }

    /// Starts the child on `recording` and waits for the line that names its address.
    static func spawn(recording: URL) throws -> ChildRecordedBytes {
        let child = try ChildServer.start([RecordedBytesServer.flag, recording.path])
        guard let url = URL(string: try child.line()), url.port != nil else {
            child.terminate()
            throw BenchError("the recorded-bytes server's child process did not start")
        }
        return ChildRecordedBytes(child: child, baseURL: url)
    }

    /// Closes the child's standard input, which stops it; the requests it could not answer from the recording.
    func stop() -> Int {
        child.closeInput()
        let misses = (try? child.line()).flatMap { Int($0) } ?? -1
        child.wait()
        return misses
    }
}

/// This executable started again with `arguments`, a server whose CPU the benchmark's process does not count: it
/// speaks by lines on its standard output, and stops when its standard input closes.
struct ChildServer {
    private let child: ChildProcess
    private let input: PipeEnds
    private let output: FileHandle

    var pid: Int32 { child.pid }

    static func start(_ arguments: [String]) throws -> ChildServer {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let input = try PipeEnds()
        let output = try PipeEnds()
        let child = try ChildProcess.start(executable, arguments, environment: nil, input: input, output: output)
        return ChildServer(
            child: child, input: input, output: FileHandle(fileDescriptor: output.read, closeOnDealloc: true))
    }

    /// The next line it writes, without its newline.
    func line() throws -> String {
        var line = Data()
        while let byte = try output.read(upToCount: 1), let first = byte.first, first != 10 {
            line.append(first)
        }
        return String(decoding: line, as: UTF8.self)
    }

    func closeInput() { close(input.write) }

    func terminate() { kill(child.pid, SIGTERM) }

    func wait() { _ = child.waitForExit() }
}
