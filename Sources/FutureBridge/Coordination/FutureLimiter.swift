import FutureBridgeInternals

/// Runs future-returning work at most `maxConcurrent` at a time, starting queued work in
/// submission order (FutureKit's `OperationQueue.add`). Thread-safe: submit from any
/// thread.
///
/// A unit of work counts as running from the moment it starts until the future it
/// returned completes. A cancel request on a queued unit's future removes it: it
/// completes as cancelled and never starts. Once started, the request travels to the
/// future the work returned.
///
/// ## Units start in submission order, on any thread
/// A unit starts by calling its `work` (``ExecutionContext/inline``) or by handing `work`
/// to its executor (any other context). Units start one at a time, in the order their
/// `add` calls were made (across threads: the order in which they took the limiter's
/// lock), whichever threads submit them and complete the units before them: a unit's
/// `work` is called, or handed to its executor, only after every unit submitted before it
/// has started (an inline `work` has returned). Units handed to a serial executor
/// therefore run their `work` in submission order; on a concurrent one, their `work` may
/// begin in another order. Each thread that submits or completes a unit leaves the
/// starting to a thread already starting units for this limiter, if there is one, and
/// never waits for it; no lock is held while `work` runs.
///
/// ## Handlers run before the next unit starts
/// When a unit's future completes, the next unit starts only after every handler
/// attached to that future before it completed has run, if it runs inline (on the
/// thread that completes it, ``ExecutionContext/inline``), or has been handed to its
/// executor otherwise. So `add { a }.onSuccess { ... }` runs before the next unit's
/// `work` starts, and a handler on a serial executor runs before a next unit whose
/// `work` runs on that same executor. A handler on another executor may still be
/// running when the next unit starts. A handler attached after the unit's future
/// completed runs when it is attached, whatever the next unit does.
///
/// <!-- fragment: app -->
/// ```swift
/// let downloads = FutureLimiter(maxConcurrent: 4)
/// let images = urls.map { url in downloads.add { fetch(url) } }
/// ```
public final class FutureLimiter: Sendable {
    /// Starts one queued unit of work; `false` if it was cancelled while queued and did
    /// not start (its slot is free for the next one).
    private typealias Job = @Sendable () -> Bool

    /// How many units of work may run at once.
    public let maxConcurrent: Int
    private let state: Locked<LimiterStateMachine<Job>>

    /// Creates a limiter.
    ///
    /// - Precondition: `maxConcurrent` is at least 1. A smaller value is a programmer
    ///   error in an argument, not misuse at run time: it traps, naming the value, as
    ///   `Array(repeating:count:)` does for a negative count. (Misuse that depends on
    ///   what a callback API does at run time, such as a completion handler called twice,
    ///   is reported to ``Diagnostics`` instead and never traps.)
    ///
    /// - Parameter maxConcurrent: How many units of work may run at once (at least 1).
    public init(maxConcurrent: Int) {
        precondition(maxConcurrent >= 1, "FutureLimiter needs maxConcurrent >= 1, got \(maxConcurrent)")
        self.maxConcurrent = maxConcurrent
        self.state = Locked(LimiterStateMachine(maxConcurrent: maxConcurrent))
    }

    /// Queues `work`; it starts once fewer than ``maxConcurrent`` units run and every
    /// unit submitted before it has started.
    ///
    /// `work` runs on `context` when its turn comes, after the `work` of every unit
    /// submitted before it has started (see "Units start in submission order" in
    /// ``FutureLimiter``). With ``ExecutionContext/inline`` it runs on the thread that is
    /// starting units then: the one that submits it, if a slot is free, or the one that
    /// completes a unit before it; or, when another thread is already starting units for
    /// this limiter, that thread, right after the units before it. A throw fails the
    /// returned future. A cancel request on the
    /// returned future removes queued work (it never runs, it and what it captures are
    /// released at once, and the future is cancelled), or travels to the future started
    /// work returned.
    ///
    /// - Parameters:
    ///   - context: Where `work` runs.
    ///   - work: Starts one unit of work.
    /// - Returns: A future that follows the future `work` returns.
    @discardableResult @_disfavoredOverload
    public func add<Value: Sendable>(
        on context: ExecutionContext = .inline,
        _ work: @escaping @Sendable () throws -> Future<Value>
    ) -> Future<Value> {
        let output = FutureStorage<Value>.pending()
        // Taken out by the start, or by a cancel request while queued, which lets go of
        // `work` (and what it captures) at once rather than when the unit's turn comes.
        let pending = Locked<(@Sendable () throws -> Future<Value>)?>(work)
        output.addCancelHandler {
            if pending.withLock({ $0.take() }) != nil { output.complete(.cancelled) }
        }
        let job: Job = { [self] in
            guard let work = pending.withLock({ $0.take() }) else { return false }
            context.execute {
                let inner: Future<Value>
                do { inner = try work() } catch { inner = Future(error: error) }
                // Registered on `output` while it is still pending (this job took the
                // work, so no cancel request completes it, and it does not follow `inner`
                // yet): the completion of `output` takes this callback together with every
                // handler attached before it, on one thread, and the next unit starts after
                // those have run or been queued. Registered on `inner` instead, it could
                // run on this thread as soon as `inner` is completed, while the thread that
                // completed `inner` had not yet completed `output` and run its handlers.
                output.whenComplete { _ in Trampoline.runAfterQueuedCallbacks { self.startNext() } }
                output.complete(using: inner.storage)
            }
            return true
        }
        if state.withLock({ $0.submitted(job) }) { startReadyUnits() }
        return Future(storage: output)
    }

    /// How many units of work have not started: waiting for a slot, or about to start on
    /// the thread that is starting units (cancelled ones not yet skipped included).
    public var queuedCount: Int {
        state.withLock { $0.queuedCount }
    }

    /// A slot was freed: the next queued unit takes it (and starts, here or on the thread
    /// that is starting units), or the slot is given back.
    private func startNext() {
        if state.withLock({ $0.slotFreed() }) { startReadyUnits() }
    }

    /// Starts the units that took a slot, one after another in the order they took it,
    /// until none is left; only the thread the state machine made the starter calls it.
    /// A unit cancelled while queued does not start, and its slot goes to the next one.
    private func startReadyUnits() {
        while let next = state.withLock({ $0.nextToStart() }) {
            if !next() { startNext() }
        }
    }
}

/// Runs future-returning work strictly one unit after another, in submission order
/// (FutureKit's `FutureFIFO`, made thread-safe): a ``FutureLimiter`` with room for one.
///
/// Each unit starts once the future of the unit before it has completed, whatever its
/// outcome. A cancel request on a queued unit's future removes it; on a running one it
/// travels to the future the unit returned.
///
/// <!-- fragment: app -->
/// ```swift
/// let writes = FutureFIFO()
/// let first = writes.add { api.save(User(id: 1, name: "Ada")) }
/// let second = writes.add { api.save(User(id: 2, name: "Grace")) }   // after the first completes
/// ```
public final class FutureFIFO: Sendable {
    private let limiter = FutureLimiter(maxConcurrent: 1)

    /// Creates an empty queue.
    public init() {}

    /// Queues `work` behind every unit submitted before it; see
    /// ``FutureLimiter/add(on:_:)-(ExecutionContext,_)`` for the executor and cancellation.
    ///
    /// - Parameters:
    ///   - context: Where `work` runs.
    ///   - work: Starts one unit of work.
    /// - Returns: A future that follows the future `work` returns.
    @discardableResult @_disfavoredOverload
    public func add<Value: Sendable>(
        on context: ExecutionContext = .inline,
        _ work: @escaping @Sendable () throws -> Future<Value>
    ) -> Future<Value> {
        limiter.add(on: context, work)
    }

    /// How many units are waiting for their turn.
    public var queuedCount: Int { limiter.queuedCount }
}
