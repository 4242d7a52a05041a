import ReconCore
import Synchronization

/// The shared, locked state of a running server: statistics, rate windows and the fault dice. The rate windows
/// measure time with the clock the server was started with.
final class FaultState: Sendable {
    enum Decision {
        case drop
        case rateLimited(reason: String)
        case fail
        case serve(truncate: Bool)
    }

    private struct State {
        var stats = SandboxRequestStats()
        var global = RateWindow()
        var endpoints: [String: RateWindow] = [:]
        var dice: SplitMix64
        var requestNumber: UInt64 = 0
    }

    /// A sliding window: at most `capacity` admitted requests within `window` seconds; times are nanoseconds.
    struct RateWindow {
        var times: [UInt64] = []
        var head = 0

        mutating func admit(now: UInt64, rate: Double) -> Bool {
            let capacity = max(1, Int(rate.rounded(.down)))
            let window = UInt64(Double(capacity) / rate * 1e9)
            while head < times.count, times[head] + window <= now { head += 1 }
            if head > 1024 {
                times.removeFirst(head)
                head = 0
            }
            guard times.count - head < capacity else { return false }
            times.append(now)
            return true
        }
    }

    private let state: Mutex<State>
    private let elapsed: ElapsedClock
    let options: SandboxOptions

    init(options: SandboxOptions, clock: any Clock<Duration>) {
        self.options = options
        elapsed = ElapsedClock(clock)
        state = Mutex(State(dice: SplitMix64(seed: options.seed ^ 0xFA17)))
    }

    var stats: SandboxRequestStats { state.withLock { $0.stats } }

    /// Counts the request, checks the rate windows at the clock's current time and rolls its faults.
    func decide(endpoint: String) -> Decision {
        let now = UInt64(max(0, elapsed.now.wholeNanoseconds))
        return state.withLock { state in
            state.stats.total += 1
            state.stats.byEndpoint[endpoint, default: 0] += 1
            if let rate = options.rateLimit, rate > 0, !state.global.admit(now: now, rate: rate) {
                state.stats.rateLimited += 1
                return .rateLimited(reason: "global-rate")
            }
            if let rate = options.endpointRateLimit, rate > 0,
                !state.endpoints[endpoint, default: RateWindow()].admit(now: now, rate: rate)
            {
                state.stats.rateLimited += 1
                return .rateLimited(reason: "endpoint-rate")
            }
            if options.dropRate > 0, state.dice.chance(options.dropRate) {
                state.stats.dropped += 1
                return .drop
            }
            if options.failRate > 0, state.dice.chance(options.failRate) {
                state.stats.injectedFailures += 1
                return .fail
            }
            let truncate = options.truncateRate > 0 && state.dice.chance(options.truncateRate)
            if truncate { state.stats.truncated += 1 }
            return .serve(truncate: truncate)
        }
    }

    /// Rolls whether a response is delayed by ``SandboxOptions/slowLatency`` (a latency spike).
    func rollSlow() -> Bool {
        guard options.slowRate > 0 else { return false }
        return state.withLock { state in
            guard state.dice.chance(options.slowRate) else { return false }
            state.stats.slowed += 1
            return true
        }
    }

    func record(status: Int, expandedObjects: Int = 0) {
        state.withLock {
            $0.stats.byStatus[status, default: 0] += 1
            $0.stats.expandedObjects += expandedObjects
        }
    }

    /// A fresh `req_…` id.
    func nextRequestNumber() -> UInt64 {
        state.withLock { state in
            state.requestNumber += 1
            return state.requestNumber
        }
    }
}
