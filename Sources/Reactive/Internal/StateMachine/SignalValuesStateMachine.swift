/// One ``Signal/values(buffering:)`` sequence, as a pure state machine: the values its
/// observer received that the consuming task has not taken yet, the task suspended for
/// the next one, and how the sequence ends.
///
/// The consuming task takes what is kept in one transition: everything at once with the
/// ``SignalBufferingPolicy/unbounded`` policy (into a batch of its own, which it then
/// hands out without the lock), the oldest value with a bounded policy (whose limit
/// counts every value not handed out yet, so it must stay here).
///
/// Each event is a `mutating func` named after what happened and returns what must be
/// done; ``SignalValuesStorage`` calls it under its lock and does it after unlocking.
/// The suspended task is a `Waiter` that is only held and handed back (a continuation in
/// the storage, a plain number in the tests), and the observation is only held and
/// handed back to be detached or released, so every transition is tested without
/// threads.
///
/// ```text
///               valueReceived (kept as the policy says)
///                 ┌──────┐
///                 ▼      │      waiterArrived (nothing kept)
///  observerAttached ──▶ [open] ─────────────────────────────▶ [awaiting(waiter)]
///                        │  ▲    valueReceived: resume waiter with it   │
///                        │  └───────────────────────────────────────────┘
///                        │ terminalReceived / cancelled                 │ terminalReceived: resume with the end
///                        ▼                                              │ cancelled: resume with nil, detach
///                  [closing(end)] ──nextRequested, nothing kept──▶ [finished] ◀─┘
///                        (kept values go out first)                   (next returns nil)
///  cancellationRequested (the runtime's handler): as cancelled, but the observation stays
///    for the task's own cancelled, once it runs again
///  leftoversReturned (an iterator's batch, when it is released): kept again, in front
///  readerReleased, from any phase: ──▶ [finished], kept values handed back, detach
/// ```
@usableFromInline
struct SignalValuesStateMachine<Value: Sendable, Waiter: Sendable>: Sendable {
    /// How the sequence ends once the values kept have been taken: `nil` (the loop
    /// ends), or an error thrown by `next()`.
    @usableFromInline
    typealias End = Result<Value?, any Error>

    @usableFromInline
    enum Phase: Sendable {
        /// Values may arrive; no task is suspended (values may be kept).
        case open
        /// The consuming task is suspended for the next value; none is kept.
        case awaiting(Waiter)
        /// No value will arrive any more: the kept ones go out, then `end`.
        case closing(End)
        /// Everything went out: `next()` returns `nil`.
        case finished
    }

    /// What is kept while the consumer lags.
    @usableFromInline let policy: SignalBufferingPolicy
    @usableFromInline private(set) var phase = Phase.open
    /// The values received and not taken yet, oldest first.
    @usableFromInline private(set) var buffer = RingBuffer<Value>()
    /// The observer's handle, until the signal ends or the consumer leaves.
    @usableFromInline private(set) var observation: SignalObservation?

    @inlinable
    init(policy: SignalBufferingPolicy) {
        self.policy = policy
    }

    /// The observer attached (its handler may already have run: a signal that had ended
    /// delivers its terminal event at once). Kept to detach while values may still come.
    @inlinable
    mutating func observerAttached(_ observation: SignalObservation) {
        if case .open = phase { self.observation = observation }
    }

    // MARK: The signal's side

    /// What a value received requires.
    @usableFromInline
    enum ValueAction {
        /// Nothing: the value was kept, or dropped as the policy says.
        case none
        /// Resume the suspended task with the value.
        case resume(Waiter)
        /// Release `dropped` after unlocking: the value was kept, and the oldest one
        /// pushed out (``SignalBufferingPolicy/newest(_:)``).
        case release(dropped: Value)
    }

    /// The observer received `value`.
    @inlinable
    mutating func valueReceived(_ value: Value) -> ValueAction {
        switch phase {
        case .awaiting(let waiter):
            phase = .open
            return .resume(waiter)
        case .closing, .finished:
            return .none  // sent while the consumer left: nobody will read it
        case .open:
            switch policy {
            case .unbounded:
                buffer.append(value)
            case .oldest(let limit):
                if buffer.count < limit { buffer.append(value) }
            case .newest(let limit):
                if buffer.count < limit {
                    buffer.append(value)
                } else if limit > 0, let dropped = buffer.popFirst() {
                    buffer.append(value)
                    return .release(dropped: dropped)
                }
            }
            return .none
        }
    }

    /// What the end of the signal, or the consumer leaving, requires.
    @usableFromInline
    struct EndAction {
        /// Resume the suspended task with this.
        @usableFromInline var resume: (waiter: Waiter, end: End)?
        /// Detach this observation (the consumer left), or only release it (the signal
        /// ended, which removed the observer), after unlocking.
        @usableFromInline var observation: SignalObservation?

        @inlinable
        init(resume: (waiter: Waiter, end: End)?, observation: SignalObservation?) {
            self.resume = resume
            self.observation = observation
        }
    }

    /// The signal ended with `terminal` (a terminal event): the kept values go out
    /// first, then completion ends the loop, a failure throws its error and an
    /// interruption throws `CancellationError`.
    @inlinable
    mutating func terminalReceived(_ terminal: Signal<Value>.Event) -> EndAction {
        let end: End =
            switch terminal {
            case .failed(let error): .failure(error)
            case .interrupted: .failure(CancellationError())
            case .completed, .value: .success(nil)  // never given a value
            }
        return close(with: end)
    }

    // MARK: The consumer's side

    /// What a call of `next()` that found its batch empty requires.
    @usableFromInline
    enum NextAction {
        /// The batch holds the values to hand out now (at least one).
        case taken
        /// Return (or throw) this at once: the sequence has ended.
        case end(End)
        /// Nothing to hand out yet: suspend, and arrive with ``waiterArrived(_:)``.
        case suspend
    }

    /// The consuming task asks for values, with `batch` empty: moves what is kept into
    /// it (see the policies above).
    @inlinable
    mutating func nextRequested(into batch: inout RingBuffer<Value>) -> NextAction {
        if !buffer.isEmpty {
            if case .unbounded = policy {
                swap(&buffer, &batch)  // the batch's slots are kept for the next values
            } else if let oldest = buffer.popFirst() {
                batch.append(oldest)
            }
            return .taken
        }
        // Open, or awaiting: a second task, which waiterArrived reports.
        return endOnceNothingIsKept().map { .end($0) } ?? .suspend
    }

    /// What values returned by a released iterator require.
    @usableFromInline
    enum LeftoversAction {
        /// Nothing: they are kept.
        case none
        /// Release them after unlocking: the end went out, nobody can take them.
        case release(RingBuffer<Value>)
        /// Resume the suspended task (of another iterator) with the first of them; the
        /// others are kept.
        case resume(Waiter, Value)
    }

    /// An iterator that still held values of its batch was released: they are kept
    /// again, before those kept since, so that another loop over the sequence goes on
    /// where it stopped.
    @inlinable
    mutating func leftoversReturned(_ leftovers: RingBuffer<Value>) -> LeftoversAction {
        switch phase {
        case .finished:
            return .release(leftovers)
        case .awaiting(let waiter):
            var rest = leftovers
            guard let first = rest.popFirst() else { return .none }
            phase = .open
            buffer.prepend(rest)
            return .resume(waiter, first)
        case .open, .closing:
            buffer.prepend(leftovers)
            return .none
        }
    }

    /// What a suspending task requires.
    @usableFromInline
    enum WaiterAction {
        /// It is suspended: a value or the end resumes it.
        case suspended
        /// Resume it at once with this (something came since ``nextRequested(into:)``).
        case resume(End)
        /// Another task is already suspended on this sequence: a programmer error (one
        /// sequence, one consuming task at a time, as with `AsyncStream`).
        case anotherTaskAwaits
    }

    /// The consuming task suspends as `waiter`, after ``nextRequested(into:)`` said so.
    @inlinable
    mutating func waiterArrived(_ waiter: Waiter) -> WaiterAction {
        if let value = buffer.popFirst() { return .resume(.success(value)) }
        if let end = endOnceNothingIsKept() { return .resume(end) }
        if case .awaiting = phase { return .anotherTaskAwaits }
        phase = .awaiting(waiter)
        return .suspended
    }

    /// With nothing kept: how the sequence ends if no value will come any more (the
    /// signal's end once, then `nil`), or `nil` while values may still come.
    @inlinable
    mutating func endOnceNothingIsKept() -> End? {
        switch phase {
        case .closing(let end):
            phase = .finished
            return end
        case .finished:
            return .success(nil)
        case .open, .awaiting:
            return nil
        }
    }

    /// Whether a task is suspended for the next value (for tests).
    var isAwaiting: Bool {
        if case .awaiting = phase { true } else { false }
    }

    /// The consuming task was cancelled: it detaches, a suspended task resumes with
    /// `nil`, and values already kept still go out before the loop ends (as with
    /// `AsyncThrowingStream`). A signal that had ended keeps its end.
    @inlinable
    mutating func cancelled() -> EndAction {
        close(with: .success(nil))
    }

    /// The consuming task was cancelled, as the runtime's cancellation handler reports
    /// it: it ends as ``cancelled()`` says, and a suspended task is handed back to resume
    /// with `nil` at once, but the observation stays, for the task to detach once it runs
    /// again (``cancelled()`` then hands it over). Detaching may stop the signal's source,
    /// which is not code to run inside the handler, on the thread that cancelled.
    @inlinable
    mutating func cancellationRequested() -> Waiter? {
        let observation = self.observation
        defer { self.observation = observation }
        return close(with: .success(nil)).resume?.waiter
    }

    /// The sequence and all its iterators are gone: nobody can take a value any more.
    /// Returns what ends it (no task can be suspended: an iterator that awaits is alive)
    /// and the kept values, to release after unlocking.
    @inlinable
    mutating func readerReleased() -> (end: EndAction, kept: ContiguousArray<Value?>) {
        let end = close(with: .success(nil))
        phase = .finished
        return (end, buffer.removeAll())
    }

    /// No value will arrive any more: an open sequence closes with `end` (after the kept
    /// values), a suspended task resumes with it (nothing is kept while one is).
    @inlinable
    mutating func close(with end: End) -> EndAction {
        switch phase {
        case .open:
            phase = .closing(end)
            return EndAction(resume: nil, observation: observation.take())
        case .awaiting(let waiter):
            phase = .finished
            return EndAction(resume: (waiter, end), observation: observation.take())
        case .closing, .finished:
            // Not nil only after ``cancellationRequested()``.
            return EndAction(resume: nil, observation: observation.take())
        }
    }
}
