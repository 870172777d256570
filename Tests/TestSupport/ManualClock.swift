import Dispatch
import FutureBridge

/// Time that moves only when the test advances it, so timers, delays, timeouts and
/// retries are tested without sleeping.
///
/// It drives both forms of FutureBridge's time functions: as a Swift `Clock` (macOS 13,
/// iOS 16 and later) and as a ``FutureBridge/Timekeeper`` (``timekeeper``, every
/// deployment target). Sleepers and scheduled jobs wake in deadline order (ties in the
/// order they were scheduled); a cancelled one leaves at once.
public final class ManualClock: Sendable {
    /// A point in this clock's time: nanoseconds since the clock was made.
    public struct Instant: Sendable, Hashable, Comparable {
        public var nanoseconds: UInt64

        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
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
    }

    private let state = Locked(State())

    public init() {}

    /// The current time.
    public var now: Instant { state.withLock { $0.now } }

    /// How many tasks sleep, and jobs wait, on this clock now.
    public var sleeperCount: Int { state.withLock { $0.waiting.count } }

    /// This clock as a ``FutureBridge/Timekeeper``, for the time functions' Dispatch-based
    /// forms.
    public var timekeeper: Timekeeper {
        Timekeeper(
            now: { [self] in now.nanoseconds },
            schedule: { [self] nanoseconds, job in
                let id = state.withLock { state in
                    let id = state.newID()
                    let deadline = state.now.nanoseconds.addingReportingOverflow(nanoseconds)
                    state.waiting[id] = Waiting(
                        deadline: Instant(nanoseconds: deadline.overflow ? .max : deadline.partialValue),
                        wake: .job(job))
                    return id
                }
                return { [self] in _ = state.withLock { $0.waiting.removeValue(forKey: id) } }
            })
    }

    /// Suspends until `deadline`, or throws `CancellationError` when the task is cancelled.
    func sleep(untilNanoseconds deadline: UInt64) async throws {
        let id = state.withLock { $0.newID() }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let resumeNow: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now.nanoseconds { return .success(()) }
                    state.waiting[id] = Waiting(deadline: Instant(nanoseconds: deadline), wake: .sleeper(continuation))
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

    /// Moves time forward by `nanoseconds` and wakes, in deadline order, what is due.
    public func advance(byNanoseconds nanoseconds: UInt64) {
        let due = state.withLock { state in
            state.now.nanoseconds += nanoseconds
            let due = state.waiting.filter { $0.value.deadline <= state.now }
                .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
            for (id, _) in due { state.waiting[id] = nil }
            return due.map(\.value.wake)
        }
        for wake in due { wake.run() }
    }

    /// Moves time forward by `interval`.
    public func advance(byInterval interval: DispatchTimeInterval) {
        advance(byNanoseconds: interval.nanoseconds)
    }

    /// Suspends (yielding, never sleeping) until `count` tasks sleep or jobs wait on
    /// this clock.
    public func waitForSleepers(_ count: Int) async {
        while sleeperCount < count { await Task.yield() }
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ManualClock.Instant: InstantProtocol {
    public func advanced(by duration: Duration) -> Self {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(duration.nanoseconds)
        return Self(nanoseconds: overflow ? .max : sum)
    }

    public func duration(to other: Self) -> Duration {
        .nanoseconds(Int64(other.nanoseconds) - Int64(nanoseconds))
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ManualClock: Clock {
    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleep(untilNanoseconds: deadline.nanoseconds)
    }

    /// Moves time forward by `duration` and wakes, in deadline order, what is due.
    public func advance(by duration: Duration) {
        advance(byNanoseconds: duration.nanoseconds)
    }
}
