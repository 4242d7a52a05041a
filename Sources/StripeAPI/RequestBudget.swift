import ReconCore

/// Keeps requests under Stripe's rate limits: at most `globalRate` requests in any one-second window across
/// all endpoints, and `endpointRate` per endpoint (Stripe: 100/s live, 25/s test, 25/s per endpoint).
///
/// A sliding window, not a token bucket: a bucket that starts full lets nearly twice the rate through in
/// the first second, which is exactly what a sliding-window limiter answers with 429s. Requests are also
/// spaced at least a slot apart (`1 / rate`), so a window's worth is spread over the whole second instead of
/// arriving in bursts that arrival jitter can squeeze into one of the server's windows. When 429s come back anyway
/// (other traffic on the account), the limit that was hit is lowered and then recovers slowly.
public actor RequestBudget {
    /// Who may be asked: the whole account, or one endpoint (`/v1/charges`, `/v1/transfers/{id}`).
    public enum Scope: Sendable, Hashable {
        case global
        case endpoint(String)
    }

    private struct Window {
        let rate: Double
        /// Multiplier on `rate`, lowered by 429s, recovering towards 1.
        var factor: Double = 1
        var lastAdjustment: Duration?
        /// Start times of the requests in the last window (on the budget's clock), oldest first.
        var starts: [Duration] = []
        var head = 0

        var capacity: Int { max(1, Int((rate * factor).rounded(.down))) }
        /// The least time between two starts: one slot.
        var spacing: Duration { .nanoseconds(Int64(1e9 / (rate * factor))) }
        var newest: Duration? { starts.last }

        mutating func prune(before cutoff: Duration) {
            while head < starts.count, starts[head] <= cutoff { head += 1 }
            if head > 256, head * 2 > starts.count {
                starts.removeFirst(head)
                head = 0
            }
        }

        var count: Int { starts.count - head }
        var oldest: Duration? { head < starts.count ? starts[head] : nil }

        /// When one more request fits after `ahead` others take the next slots first: the right start has left the
        /// window, and `ahead + 1` slots have passed since the newest.
        func freeAfter(_ ahead: Int, window: Duration, now: Duration) -> Duration {
            var wait = Duration.zero
            let expiries = count + ahead + 1 - capacity
            if expiries > 0 {
                wait = head + expiries - 1 < starts.count ? starts[head + expiries - 1] + window - now : window
            }
            if let newest { wait = max(wait, newest + spacing * (ahead + 1) - now) }
            return wait
        }
    }

    public let globalRate: Double
    public let endpointRate: Double
    /// The window's length: one second plus a margin for clock skew between us and Stripe.
    private let window: Duration
    /// What the windows are measured on, and slept on.
    private let clock: ElapsedClock
    private var global: Window
    private var endpoints: [String: Window] = [:]
    private var throttled = 0
    /// The endpoint whose full rate is kept free in the global window while it is busy (see ``prioritize(endpoint:)``).
    private var priority: String?
    /// Per endpoint, how many requests wait at each precedence (``acquire(endpoint:precedence:)``).
    private var waiting: [String: [Int: Int]] = [:]

    /// The precedence of a request the next requests of its chain wait for (a payout's pages): before every other.
    public static let ahead = Int.max

    /// - Parameters:
    ///   - globalRate: requests per second across all endpoints.
    ///   - endpointRate: requests per second to any one endpoint.
    ///   - margin: added to the one-second window, so our count never brushes Stripe's.
    ///   - clock: what the windows are measured on and waits sleep on: the continuous clock, or a test's own.
    public init<C: Clock>(
        globalRate: Double, endpointRate: Double, margin: Duration = .milliseconds(30), clock: C = ContinuousClock()
    ) where C.Duration == Duration {
        self.globalRate = globalRate
        self.endpointRate = endpointRate
        self.window = .seconds(1) + margin
        self.clock = ElapsedClock(clock)
        self.global = Window(rate: globalRate)
    }

    /// Waits until a request to `endpoint` fits under both limits, then counts it. Returns at once, uncounted,
    /// when the task is cancelled.
    ///
    /// A request takes the endpoint's next slot before the requests waiting for it at a lower `precedence`; those
    /// wait until it is sent, and the endpoint's rate is the same. The longest chains of requests go first: a
    /// payout's pages (``ahead``), each asked with the cursor of the one before, which would otherwise win a slot
    /// only as often as each of the many parallel streams it shares the endpoint with; then the pieces of a list with
    /// the most pages left, so that its pieces end together instead of one paging alone at the end.
    public func acquire(endpoint: String, precedence: Int = 0) async {
        waiting[endpoint, default: [:]][precedence, default: 0] += 1
        defer {
            waiting[endpoint, default: [:]][precedence, default: 1] -= 1
            if waiting[endpoint]?[precedence] == 0 { waiting[endpoint]?[precedence] = nil }
        }
        while true {
            let now = clock.now
            recover(now: now)
            global.prune(before: now - window)
            var perEndpoint = endpoints[endpoint] ?? Window(rate: endpointRate)
            perEndpoint.prune(before: now - window)
            var wait = Duration.zero
            for scope in [global, perEndpoint] {
                if scope.count >= scope.capacity, let oldest = scope.oldest { wait = max(wait, oldest + window - now) }
                if let newest = scope.newest { wait = max(wait, newest + scope.spacing - now) }
            }
            let reserved = reservedForPriority(now: now, asking: endpoint)
            if reserved > 0, global.count + reserved >= global.capacity, let oldest = global.oldest {
                wait = max(wait, oldest + window - now)
            }
            let before = waiting[endpoint, default: [:]].reduce(0) { $0 + ($1.key > precedence ? $1.value : 0) }
            if before > 0 {
                wait = max(wait, perEndpoint.freeAfter(before, window: window, now: now))
            }
            if wait <= .zero {
                global.starts.append(now)
                perEndpoint.starts.append(now)
                endpoints[endpoint] = perEndpoint
                return
            }
            endpoints[endpoint] = perEndpoint
            throttled += 1
            // A cancelled run stops waiting at once; the caller checks for cancellation before it sends.
            do { try await clock.sleep(until: now + wait) } catch { return }
        }
    }

    /// Stripe answered 429: lower the limit that was hit (`Stripe-Rate-Limited-Reason` says which; without
    /// it, both) to 75 % for a while.
    public func rateLimited(endpoint: String, reason: String?) {
        let now = clock.now
        let endpointOnly = reason?.hasPrefix("endpoint") == true
        let globalOnly = reason?.hasPrefix("global") == true
        if !endpointOnly { lower(&global, now: now) }
        if !globalOnly, var perEndpoint = endpoints[endpoint] {
            lower(&perEndpoint, now: now)
            endpoints[endpoint] = perEndpoint
        }
    }

    /// Whether more requests in flight to `endpoint` would be sent sooner: its window holds fewer than `share` of
    /// its capacity. When an endpoint is saturated, another stream of it only waits here, holding a worker that
    /// an endpoint below its limit could use. (The global limit is not asked: when the account is saturated
    /// every stream waits alike, and the endpoints below their own limit are still the ones to spread.)
    public func hasHeadroom(endpoint: String, share: Double = 0.8) -> Bool {
        let now = clock.now
        guard var perEndpoint = endpoints[endpoint] else { return true }
        perEndpoint.prune(before: now - window)
        endpoints[endpoint] = perEndpoint
        return Double(perEndpoint.count) < Double(perEndpoint.capacity) * share
    }

    /// Keeps `endpoint`'s whole rate free in the global window while it is busy (it sent a request in the last
    /// window): other endpoints share what is left. For the list that decides how long an extraction takes
    /// (balance transactions: at least as many as every other list together), so that while every endpoint
    /// wants more than the account allows, the busiest one still runs at its own limit from the first second.
    public func prioritize(endpoint: String) {
        priority = endpoint
    }

    /// The global slots the priority endpoint may still use in this window, when `endpoint` is another one.
    private func reservedForPriority(now: Duration, asking endpoint: String) -> Int {
        guard let priority, priority != endpoint, var window = endpoints[priority] else { return 0 }
        window.prune(before: now - self.window)
        endpoints[priority] = window
        guard window.count > 0 else { return 0 }
        return max(0, window.capacity - window.count)
    }

    /// How often a request had to wait for the budget (for the run's summary).
    public var waits: Int { throttled }

    /// The current effective limits, for tests and progress.
    public func effectiveRates(endpoint: String) -> (global: Double, endpoint: Double) {
        (globalRate * global.factor, endpointRate * (endpoints[endpoint]?.factor ?? 1))
    }

    private func lower(_ window: inout Window, now: Duration) {
        window.factor = max(0.2, window.factor * 0.75)
        window.lastAdjustment = now
    }

    /// Every 5 quiet seconds a lowered limit climbs back by 10 % of the configured rate.
    private func recover(now: Duration) {
        func step(_ window: inout Window) {
            guard window.factor < 1, let last = window.lastAdjustment, now - last >= .seconds(5) else { return }
            window.factor = min(1, window.factor + 0.1)
            window.lastAdjustment = now
        }
        step(&global)
        for key in endpoints.keys {
            if var window = endpoints[key] {
                step(&window)
                endpoints[key] = window
            }
        }
    }
}
