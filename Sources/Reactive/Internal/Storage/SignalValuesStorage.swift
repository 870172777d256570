import FutureBridge
import FutureBridgeInternals

/// The shared state of one ``SignalValues`` sequence: owns the lock of its
/// ``SignalValuesStateMachine`` and does what its transitions return.
///
/// The signal's observer (the producer's side) and the consuming task each take the lock
/// only to run one transition. A value finds the consuming task suspended and resumes
/// it, or is kept; the consuming task takes what is kept in one lock round trip into the
/// batch of its ``SignalValuesCursor``, hands it out from there without the lock, and
/// suspends only when nothing is kept. Resuming the task, detaching the observer and releasing values
/// happen after unlocking.
///
/// Inlinable, with the cursor and the state machine: specialized in the caller, a value
/// costs no generic-metadata lookups (unspecialized, they were most of its time in
/// benchmark B8).
@usableFromInline
struct SignalValuesStorage<Value: Sendable>: Sendable {
    @usableFromInline
    typealias Continuation = UnsafeContinuation<Value?, any Error>
    @usableFromInline
    typealias Machine = SignalValuesStateMachine<Value, Continuation>

    /// The state machine, reached only under this lock.
    @usableFromInline
    let state: Locked<Machine>
    /// What is kept while the consumer lags (the machine's, readable without the lock).
    @usableFromInline
    let policy: SignalBufferingPolicy

    @inlinable
    init(policy: SignalBufferingPolicy) {
        self.policy = policy
        state = Locked(Machine(policy: policy))
    }

    /// Attaches to `signal`, inline: each event is handled on the thread that delivers it.
    @inlinable
    func attach(to signal: Signal<Value>) {
        let observation = signal.observe { event in receive(event) }
        state.withLock { $0.observerAttached(observation) }
    }

    // MARK: The signal's side

    /// Hands `event` to the consumer, or keeps it.
    @inlinable
    func receive(_ event: Signal<Value>.Event) {
        guard case .value(let value) = event else {
            // The signal removed its observer: the handle is only released.
            end(state.withLock { $0.terminalReceived(event) }, detaching: false)
            return
        }
        switch state.withLock({ $0.valueReceived(value) }) {
        case .none:
            break
        case .resume(let continuation):
            continuation.resume(returning: value)
        case .release(let dropped):
            withExtendedLifetime(dropped) {}  // released here, after unlocking
        }
    }

    // MARK: The consumer's side

    /// Moves what is kept into `batch` (empty), or says that the sequence has ended or
    /// that the consuming task must ``suspend(isolation:)``.
    @inlinable
    func take(into batch: inout RingBuffer<Value>) -> Machine.NextAction {
        state.withLock { $0.nextRequested(into: &batch) }
    }

    /// Suspends until a value arrives (returned) or the sequence ends (`nil`, or the
    /// signal's error), in the caller's isolation throughout, and resumes there. Task
    /// cancellation resumes it with `nil` (see
    /// ``SignalValuesStateMachine/cancellationRequested()``); the caller then detaches.
    @inlinable
    nonisolated(nonsending) func suspend() async throws -> Value? {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                switch state.withLock({ $0.waiterArrived(continuation) }) {
                case .suspended:
                    break
                case .resume(let end):
                    continuation.resume(with: end)
                case .anotherTaskAwaits:
                    anotherTaskAwaits()
                }
            }
        } onCancel: {
            // Only resumes the task: it detaches once it runs (`SignalValuesCursor`).
            state.withLock { $0.cancellationRequested() }?.resume(returning: nil)
        }
    }

    /// Stops the program: two tasks await one sequence.
    @usableFromInline
    func anotherTaskAwaits() -> Never {
        preconditionFailure(
            "FUTUREBRIDGE MISUSE: two tasks await next() of one Signal.values(buffering:) sequence at once;"
                + " make one sequence per consuming task")
    }

    /// The consuming task saw that it was cancelled: detaches from the signal.
    @usableFromInline
    func cancel() {
        end(state.withLock { $0.cancelled() }, detaching: true)
    }

    /// A released iterator's batch still held `leftovers`: they are kept again, in front.
    @usableFromInline
    func leftoversReturned(_ leftovers: RingBuffer<Value>) {
        switch state.withLock({ $0.leftoversReturned(leftovers) }) {
        case .none:
            break
        case .release(let dropped):
            withExtendedLifetime(dropped) {}  // released here, after unlocking
        case .resume(let continuation, let value):
            continuation.resume(returning: value)
        }
    }

    /// The sequence and its iterators are gone: detaches, and drops the kept values.
    @usableFromInline
    func readerReleased() {
        let (action, kept) = state.withLock { $0.readerReleased() }
        end(action, detaching: true)
        withExtendedLifetime(kept) {}  // released here, after unlocking
    }

    /// Detaches (or only releases) the observation, then resumes the suspended task, so
    /// that a loop ended by its cancellation finds the observer gone.
    @inlinable
    func end(_ action: Machine.EndAction, detaching: Bool) {
        if detaching { action.observation?.detach() }
        if let (continuation, end) = action.resume { continuation.resume(with: end) }
    }

    /// The slots of the ring that keeps the values (for tests: memory stays flat).
    var bufferCapacity: Int {
        state.withLock { $0.buffer.capacity }
    }
}

/// What a ``SignalValues`` sequence and its iterators hold: once the last of them is
/// gone, nothing can take a value any more, and this detaches the observer.
///
/// The observer's handler holds the storage, not this, so the signal does not keep it.
@usableFromInline
final class SignalValuesReader<Value: Sendable>: Sendable {
    @usableFromInline
    let storage: SignalValuesStorage<Value>

    @inlinable
    init(_ storage: SignalValuesStorage<Value>) {
        self.storage = storage
    }

    deinit {
        storage.readerReleased()
    }
}
