import Dispatch
import FutureBridge
import FutureBridgeInternals

/// Time that moves only when the test says so, so that timers, delays, timeouts,
/// retries and cache lifetimes are tested without sleeping.
///
/// It drives both forms of FutureBridge's time functions:
/// - as a Swift `Clock` (macOS 13, iOS 16, tvOS 16, watchOS 9 and later), passed as the
///   `clock:` argument: `future.timeout(after: .seconds(5), clock: clock)`;
/// - as a `Timekeeper` (``timekeeper``), on every deployment target, for
///   the `DispatchTimeInterval` forms: `future.timeout(after: .seconds(5),
///   timekeeper: clock.timekeeper)`.
///
/// Time starts at 0 and moves with ``advance(to:)``, ``advance(byNanoseconds:)``,
/// ``advance(byInterval:)``, ``advance(by:)`` (a `Duration`), and
/// ``runUntilIdle()``. Moving it wakes what is due in deadline order (ties in the order
/// they started waiting), stepping the clock's ``now`` to each deadline in turn.
///
/// ## Executors and isolation
/// The class holds no isolation: call it from any thread, task or actor (a
/// `@MainActor` test included). A ``timekeeper`` job runs synchronously on the thread
/// that moves time, inside the call that moves it; a task sleeping on the clock is
/// resumed there and then continues on its own executor, after the call may have
/// returned. Nothing runs under the clock's lock.
///
/// ## Cancellation
/// A task cancelled while it sleeps on the clock leaves at once, throwing
/// `CancellationError`, without waiting for time to move; cancelling a ``timekeeper``
/// job (what a cancel request on a timer future does) removes it at once. Either way,
/// ``sleeperCount`` drops by one.
///
/// ```swift
/// import FutureBridgeTesting
///
/// func fiveSecondTimer() {
///     let clock = ManualClock()
///     let timer = Future<Void>.after(.seconds(5), timekeeper: clock.timekeeper)
///     clock.advance(byInterval: .seconds(4))
///     assert(!timer.isCompleted)
///     clock.advance(byInterval: .seconds(1))
///     assert(timer.isCompleted)
/// }
/// ```
public final class ManualClock: Sendable {
    /// A point in this clock's time: nanoseconds since the clock was made.
    ///
    /// On macOS 13, iOS 16, tvOS 16, watchOS 9 and later it is the clock's
    /// `InstantProtocol` instant, with `Duration` arithmetic. A plain value: it runs
    /// nothing, so no executor, isolation or cancellation applies to it.
    public struct Instant: Sendable, Hashable, Comparable {
        /// Nanoseconds since the clock was made.
        public var nanoseconds: UInt64

        /// The instant `nanoseconds` after the clock was made.
        public init(nanoseconds: UInt64) {
            self.nanoseconds = nanoseconds
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

        /// This instant moved later by `nanoseconds`, saturating at the largest instant.
        func adding(nanoseconds delay: UInt64) -> Instant {
            let (sum, overflow) = nanoseconds.addingReportingOverflow(delay)
            return Instant(nanoseconds: overflow ? .max : sum)
        }
    }

    /// What wakes at a deadline: a sleeping task or a timekeeper's job.
    private enum Wake {
        case sleeper(UnsafeContinuation<Void, any Error>)
        case job(@Sendable () -> Void)

        func run() {
            switch self {
            case .sleeper(let continuation): continuation.resume()
            case .job(let job): job()
            }
        }
    }

    private struct Waiting {
        var deadline: Instant
        var wake: Wake
    }

    private struct State {
        var now = Instant(nanoseconds: 0)
        var nextID = 0
        var waiting: [Int: Waiting] = [:]
        /// Sleeps cancelled before they registered.
        var cancelled: Set<Int> = []

        mutating func newID() -> Int {
            defer { nextID += 1 }
            return nextID
        }

        /// Deadlines in a binary min-heap of `(deadline, id)`, so that taking the earliest
        /// costs O(log n) with a million waiting. An entry whose id has left `waiting`
        /// (cancelled) is stale and dropped when it reaches the top.
        var order: [(deadline: Instant, id: Int)] = []

        /// Registers `entry` under `id`.
        mutating func schedule(_ id: Int, _ entry: Waiting) {
            if order.count >= 64 && order.count >= 2 * waiting.count { dropCancelledEntries() }
            waiting[id] = entry
            order.append((entry.deadline, id))
            var child = order.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.precedes(order[child], order[parent]) else { break }
                order.swapAt(child, parent)
                child = parent
            }
        }

        /// The id of what waits with the earliest deadline (the first scheduled among
        /// equals), if its deadline is at or before `limit`.
        mutating func earliest(notAfter limit: Instant) -> Int? {
            while let top = order.first {
                guard waiting[top.id] != nil else {
                    removeTop()
                    continue
                }
                return top.deadline <= limit ? top.id : nil
            }
            return nil
        }

        /// Removes `id`, which ``earliest(notAfter:)`` just returned, and its heap entry.
        mutating func take(_ id: Int) -> Waiting {
            removeTop()
            return waiting.removeValue(forKey: id)!
        }

        private mutating func removeTop() {
            order.swapAt(0, order.count - 1)
            order.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var first = parent
                if left < order.count && Self.precedes(order[left], order[first]) { first = left }
                if right < order.count && Self.precedes(order[right], order[first]) { first = right }
                if first == parent { return }
                order.swapAt(parent, first)
                parent = first
            }
        }

        /// Rebuilds the heap from what waits, once the entries of cancelled sleepers and
        /// jobs are half of it: a clock whose jobs are mostly cancelled (timeouts around
        /// work that finishes first) keeps an entry per job waiting, not one per job ever
        /// scheduled. Amortized O(log n) per job: a rebuild of w entries follows at least
        /// w cancellations or schedulings. A sorted array is a min-heap.
        private mutating func dropCancelledEntries() {
            order = waiting.map { (deadline: $0.value.deadline, id: $0.key) }
            order.sort(by: Self.precedes)
        }

        private static func precedes(_ a: (deadline: Instant, id: Int), _ b: (deadline: Instant, id: Int)) -> Bool {
            (a.deadline, a.id) < (b.deadline, b.id)
        }
    }

    private let state = Locked(State())

    /// A clock whose time is 0 until the test moves it.
    public init() {}

    /// The current time, read under the clock's lock from any thread or isolation.
    public var now: Instant { state.withLock { $0.now } }

    /// How many tasks sleep, and ``timekeeper`` jobs wait, on this clock now (read under
    /// its lock; a cancelled sleeper or job no longer counts).
    public var sleeperCount: Int { state.withLock { $0.waiting.count } }

    /// Entries in the clock's deadline heap, those of cancelled sleepers and jobs not yet
    /// dropped included (for tests).
    package var heapEntryCount: Int { state.withLock { $0.order.count } }

    /// The earliest deadline among the sleepers and jobs waiting now, or `nil` when
    /// none waits (read under the clock's lock).
    public var nextDeadline: Instant? {
        state.withLock { state in
            state.earliest(notAfter: Instant(nanoseconds: .max)).map { state.waiting[$0]!.deadline }
        }
    }

    /// This clock as a `Timekeeper`, for the `DispatchTimeInterval` forms of
    /// FutureBridge's time functions, on every deployment target.
    ///
    /// Its "now" is ``now``; a job it schedules waits, counted in ``sleeperCount``, until
    /// time reaches its deadline, and then runs synchronously on the thread that moves
    /// time (so the future it completes is completed when ``advance(to:)`` returns).
    /// A job scheduled with no delay waits for the next move, `advance(byNanoseconds: 0)`
    /// included. Cancelling a job removes it at once.
    public var timekeeper: Timekeeper {
        Timekeeper(
            now: { [self] in now.nanoseconds },
            schedule: { [self] nanoseconds, job in
                let id = state.withLock { state in
                    let id = state.newID()
                    state.schedule(id, Waiting(deadline: state.now.adding(nanoseconds: nanoseconds), wake: .job(job)))
                    return id
                }
                return { [self] in
                    let removed = state.withLock { $0.waiting.removeValue(forKey: id) }
                    withExtendedLifetime(removed) {}  // the job's captures are released outside the lock
                }
            })
    }

    /// Suspends until time reaches `deadline` (at once if it has), or throws
    /// `CancellationError` when the task is cancelled, at once, without waiting for time
    /// to move. The task resumes on its own executor.
    func sleep(untilNanoseconds deadline: UInt64) async throws {
        let id = state.withLock { $0.newID() }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let resumeNow: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now.nanoseconds { return .success(()) }
                    state.schedule(id, Waiting(deadline: Instant(nanoseconds: deadline), wake: .sleeper(continuation)))
                    return nil
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            let removed = state.withLock { state in
                guard let waiting = state.waiting.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return Waiting?.none
                }
                return waiting
            }
            if case .sleeper(let continuation)? = removed?.wake {
                continuation.resume(throwing: CancellationError())
            }
        }
    }

    /// Moves time forward to `deadline`, waking in deadline order everything due by
    /// then: time steps to each deadline in turn, so that a ``timekeeper`` job that
    /// schedules another measures from its own deadline, and the new job runs in this
    /// same call if it is due by `deadline`. A `deadline` in the past moves nothing
    /// (time never goes back) but still wakes what is due now.
    ///
    /// Runs on the calling thread, in the caller's isolation; ``timekeeper`` jobs run
    /// synchronously inside it, and sleeping tasks are resumed (they continue on their
    /// own executors). It is synchronous: cancelling the calling task does not stop it.
    ///
    /// - Parameter deadline: The time to move to.
    public func advance(to deadline: Instant) {
        while let wake = takeEarliest(notAfter: deadline) {
            wake.run()
        }
        state.withLock { $0.now = max($0.now, deadline) }
    }

    /// Removes what waits with the earliest deadline if it is due by `limit`, moving time
    /// to that deadline.
    private func takeEarliest(notAfter limit: Instant) -> Wake? {
        state.withLock { state in
            guard let id = state.earliest(notAfter: max(limit, state.now)) else { return nil }
            let waiting = state.take(id)
            state.now = max(state.now, waiting.deadline)
            return waiting.wake
        }
    }

    /// Moves time forward by `nanoseconds`, as ``advance(to:)`` does (on the calling
    /// thread, jobs run inside it; not affected by cancellation).
    ///
    /// - Parameter nanoseconds: How far to move; 0 wakes only what is due now.
    public func advance(byNanoseconds nanoseconds: UInt64) {
        advance(to: now.adding(nanoseconds: nanoseconds))
    }

    /// Moves time forward by `interval` (`.never`: as far as it goes), as
    /// ``advance(to:)`` does (on the calling thread, jobs run inside it; not affected by
    /// cancellation); the form for every deployment target (named apart from
    /// ``advance(by:)``, whose `Duration` literals `.seconds(1)` would be ambiguous).
    ///
    /// - Parameter interval: How far to move.
    public func advance(byInterval interval: DispatchTimeInterval) {
        advance(byNanoseconds: interval.nanoseconds)
    }

    /// Moves time to each waiting deadline in turn, waking what waits there, until
    /// nothing waits; returns how many sleepers and jobs it woke.
    ///
    /// Runs on the calling thread, in the caller's isolation, and is synchronous:
    /// cancelling the calling task does not stop it. Jobs that ``timekeeper`` jobs
    /// schedule run in this call too (a retry's next
    /// attempt after its delay). A task woken from sleep continues on its own executor,
    /// maybe after this returns: if it sleeps again, wait for it with
    /// ``waitForSleepers(count:)`` and run again. A job that always schedules another
    /// keeps this running forever, like a repeating timer would.
    @discardableResult
    public func runUntilIdle() -> Int {
        var woken = 0
        while let wake = takeEarliest(notAfter: Instant(nanoseconds: .max)) {
            wake.run()
            woken += 1
        }
        return woken
    }

    /// Suspends (yielding, never sleeping) until at least `count` tasks sleep or jobs
    /// wait on this clock: `true` then, `false` if the waiting task is cancelled first.
    ///
    /// Runs in no isolation of its own; it yields in a loop, so that the tasks it waits
    /// for, on whatever executor, get to run.
    ///
    /// - Parameter count: How many sleepers and jobs to wait for.
    @discardableResult
    public func waitForSleepers(count: Int) async -> Bool {
        while sleeperCount < count {
            if Task.isCancelled { return false }
            await Task.yield()
        }
        return true
    }
}

@available(ClockAPI, *)
extension ManualClock.Instant: InstantProtocol {
    /// This instant moved by `duration` (earlier for a negative one), saturating at 0 and
    /// at the largest instant.
    public func advanced(by duration: Duration) -> Self {
        if duration < .zero {
            let back = (Duration.zero - duration).nanoseconds
            return Self(nanoseconds: nanoseconds >= back ? nanoseconds - back : 0)
        }
        return adding(nanoseconds: duration.nanoseconds)
    }

    /// The duration from this instant to `other` (negative if `other` is earlier).
    public func duration(to other: Self) -> Duration {
        other >= self
            ? .nanoseconds(Int64(clamping: other.nanoseconds - nanoseconds))
            : .nanoseconds(-Int64(clamping: nanoseconds - other.nanoseconds))
    }
}

@available(ClockAPI, *)
extension ManualClock: Clock {
    /// Zero: the clock wakes sleepers exactly at their deadlines.
    public var minimumResolution: Duration { .zero }

    /// Suspends until time reaches `deadline` (returns at once if it has), or throws
    /// `CancellationError` at once when the task is cancelled; `tolerance` is ignored.
    /// The task resumes on its own executor once a call that moves time reaches
    /// `deadline`.
    ///
    /// - Parameters:
    ///   - deadline: When to wake.
    ///   - tolerance: Ignored: the clock is exact.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleep(untilNanoseconds: deadline.nanoseconds)
    }

    /// Moves time forward by `duration` (a negative one moves nothing), as
    /// ``advance(to:)`` does (on the calling thread, jobs run inside it; not affected by
    /// cancellation).
    ///
    /// - Parameter duration: How far to move.
    public func advance(by duration: Duration) {
        advance(byNanoseconds: duration.nanoseconds)
    }
}
