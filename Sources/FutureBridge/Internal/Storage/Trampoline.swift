import FutureBridgeInternals

/// Runs inline callbacks in a loop instead of recursively.
///
/// When a callback completes another promise on the same thread, that promise's
/// callbacks are queued on this thread's trampoline and run after the current callback
/// returns, so a chain of a million completions (or a recursive retry loop) never grows
/// the stack. The state is per thread; no lock is involved.
///
/// Each job is released as soon as it has run, and the slots of jobs already run are
/// reclaimed as the queue advances: a handler that re-arms itself a million times keeps
/// a few jobs queued, not a million.
///
/// How a thread finds its trampoline without a retain, and why that is sound, is in
/// `Internal/Unsafe/Trampoline+Current.swift`.
@usableFromInline
package final class Trampoline {
    // Only this thread ever touches its trampoline, so dynamic exclusivity checks would
    // buy nothing; they were a measurable share of every completion.
    @usableFromInline @exclusivity(unchecked)
    var isDraining = false
    /// Jobs queued and not yet run.
    @usableFromInline @exclusivity(unchecked)
    var queue = FIFOQueue<() -> Void>()

    /// Whether this thread is running cancel actions (``runCancelActions(_:)``).
    @usableFromInline @exclusivity(unchecked)
    var isCancelling = false
    /// Cancel actions still to run on this thread, the next one last.
    @usableFromInline @exclusivity(unchecked)
    var cancelStack: [CancelAction] = []
    /// Cancel actions made due by the action running now, in the order they were made.
    @usableFromInline @exclusivity(unchecked)
    var cancelsMadeDue: [CancelActions] = []

    @inlinable
    init() {}

    /// Runs every callback with `outcome`, now if this thread is not already running
    /// callbacks, otherwise after the callbacks that are running now.
    @inlinable @inline(__always)
    static func run<Value>(_ callbacks: consuming FutureState<Value>.Callbacks, with outcome: Outcome<Value>) {
        if callbacks.isEmpty { return }
        let trampoline = currentUnretained
        if trampoline._withUnsafeGuaranteedRef({ $0.isDraining }) {
            let queued = callbacks
            trampoline._withUnsafeGuaranteedRef {
                $0.queue.append {
                    let callbacks = queued
                    callbacks.run(with: outcome)
                }
            }
        } else {
            trampoline._withUnsafeGuaranteedRef { $0.isDraining = true }
            callbacks.run(with: outcome)
            trampoline._withUnsafeGuaranteedRef { $0.drain() }
        }
    }

    /// Runs `callback` in `context` with `outcome`, for an already completed future,
    /// with the same ordering as ``run(_:with:)``; allocates only when it has to be queued.
    @inlinable @inline(__always)
    static func run<Value>(_ callback: Callback<Value>, with outcome: Outcome<Value>, in context: ExecutionContext) {
        currentUnretained._withUnsafeGuaranteedRef { trampoline in
            if trampoline.isDraining {
                trampoline.queue.append { callback.run(with: outcome, in: context) }
            } else {
                trampoline.isDraining = true
                callback.run(with: outcome, in: context)
                trampoline.drain()
            }
        }
    }

    /// Runs `job` on this thread after every callback it is running or has queued now:
    /// at once if it runs none. From inside a callback of a future, it runs after the
    /// inline handlers of the futures that callback completed (FutureLimiter starts its
    /// next unit this way).
    @usableFromInline
    static func runAfterQueuedCallbacks(_ job: @escaping () -> Void) {
        let trampoline = current
        if trampoline.isDraining {
            trampoline.queue.append(job)
        } else {
            trampoline.isDraining = true
            job()
            trampoline.drain()
        }
    }

    /// Runs the queued work of this thread now. A blocking wait calls this before it
    /// blocks: otherwise work queued behind the waiting callback could never run, and
    /// the wait could be for exactly that work.
    @inlinable
    static func runPendingWork() {
        let trampoline = current
        guard trampoline.isDraining else { return }
        trampoline.runQueued()
    }

    @inlinable
    func drain() {
        if !queue.isEmpty { runQueued() }
        isDraining = false
    }

    @inlinable
    func runQueued() {
        // Each job is taken out of the queue before it runs, so that it is released as
        // soon as it returns; the queue reclaims the slots of the jobs run (FIFOQueue).
        while let job = queue.popFirst() { job() }
    }

    /// Runs cancel actions without growing the stack per link.
    ///
    /// A request forwarded upstream (a derived future withdrawing its interest), or made
    /// by a cancel handler (a combined future withdrawing from its inputs), makes more
    /// actions due, on the next future up. Run directly, each link would nest one call
    /// deeper: a chain of 20,000 pending `map`s overflowed a debug build's stack. While
    /// this thread runs cancel actions, the actions a nested request makes due are kept
    /// and run once the action that made them returns, before the remaining actions of
    /// the same request: the order is the depth-first order of the nested calls, and
    /// every request is delivered before the outermost call returns.
    ///
    /// The flags of each request (``FutureState/Flags/cancellationRequested``) are set at once;
    /// only the actions wait.
    @usableFromInline
    static func runCancelActions(_ actions: CancelActions) {
        let trampoline = current
        if trampoline.isCancelling {
            trampoline.cancelsMadeDue.append(actions)
            return
        }
        trampoline.isCancelling = true
        trampoline.pushCancelActions(actions)
        while let action = trampoline.cancelStack.popLast() {
            action()
            if trampoline.cancelsMadeDue.isEmpty { continue }
            for madeDue in trampoline.cancelsMadeDue.reversed() { trampoline.pushCancelActions(madeDue) }
            trampoline.cancelsMadeDue.removeAll(keepingCapacity: trampoline.cancelsMadeDue.capacity <= 64)
        }
        trampoline.cancelStack.removeAll(keepingCapacity: trampoline.cancelStack.capacity <= 64)
        trampoline.isCancelling = false
    }

    /// Pushes `actions` so that the first of them is popped first.
    func pushCancelActions(_ actions: CancelActions) {
        switch actions {
        case .nothing: break
        case .forward(let upstream): cancelStack.append(.forward(upstream))
        case .list(let list): cancelStack.append(contentsOf: list.reversed())
        }
    }

    /// Jobs queued and not yet run (for tests).
    var queuedCount: Int { queue.count }

    /// Slots the queue holds now, run jobs not yet reclaimed included (for tests).
    var slotCount: Int { queue.slotCount }
}
