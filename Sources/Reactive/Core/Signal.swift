import FutureBridge
import FutureBridgeInternals

/// A hot, multicast stream of values, ended by at most one terminal event.
///
/// A signal sends ``Event/value(_:)`` events, then at most one of ``Event/completed``,
/// ``Event/failed(_:)`` or ``Event/interrupted``, to every observer attached at that
/// moment (it keeps no history: an observer sees what is sent after it attached, and
/// an observer that attaches after the end gets the terminal event at once).
///
/// ```swift
/// let (signal, input) = Signal<Int>.pipe()
/// let observation = signal.map { $0 * 2 }.observeValues { print($0) }
/// input.send(1)          // prints 2
/// input.sendCompleted()
/// ```
///
/// ## Threading
/// Events sent through one input, from any number of threads, reach each observer in
/// one order and never concurrently. An observer's handler runs on the executor it was
/// attached with; with `ExecutionContext.inline` (the default), on the thread that is
/// delivering: the sending thread, or, when several threads send at once, the one
/// that is already delivering (the others only queue their events and return). A
/// handler that sends to a signal it observes does not recurse: its event is delivered
/// right after the handler returns. Operators' closures run like inline handlers.
///
/// A chain of operators delivers inline, one signal into the next, up to 64 nested
/// levels on a thread; deeper, the delivery waits until the outermost delivery on that
/// thread returns and then goes on from there, in the same order. So chains of any
/// length use bounded stack.
///
/// ## Lifetime and cancellation
/// A signal's source (what the closure given to `Signal { input in ... }` started, the
/// signal an operator observes, the task iterating an `AsyncSequence`, the futures of
/// ``mapFuture(_:onFailure:_:)``) is started when the first observer attaches and told to
/// stop when the signal ends:
/// by a terminal event, or when its last observer detaches, which interrupts the signal.
/// Observers that attach after that get ``Event/interrupted`` at once.
public final class Signal<Value: Sendable>: Sendable {
    /// The state machine, its lock and the delivery; everything below only forwards.
    @usableFromInline
    let storage: SignalStorage<Value>

    init(source: SignalSource<Value>) {
        storage = SignalStorage(source: source)
    }

    /// A signal whose source `start` starts when the first observer attaches, and whose
    /// returned closure stops it when the signal ends (terminal event or last observer
    /// detached). Turns any multi-shot callback API into a signal in one line:
    ///
    /// ```swift
    /// let center = NotificationCenter.default
    /// let saved = Notification.Name("document.saved")
    /// let saves = Signal<String> { input in   // Notification is not Sendable: send a String
    ///     let token = center.addObserver(forName: saved, object: nil, queue: nil) { note in
    ///         input.send(note.object as? String ?? "")
    ///     }
    ///     return { center.removeObserver(token) }
    /// }
    /// ```
    ///
    /// `start` runs once, when the first observer attaches, outside any lock, in the
    /// isolation of the code that created the signal: from non-isolated code on the thread
    /// of the first ``observe(on:_:)-(ExecutionContext,_)`` call; from the main actor, at
    /// once if the first observer attaches on the main queue, else in a task on the main
    /// actor; from another actor, in a task on it. It may send at once. The stop closure it
    /// returns runs at most once, in the same isolation, when the signal ends. If the input
    /// is released before the signal ended, the signal is interrupted.
    ///
    /// A main-actor source (a delegate wrapper, a view model's callback) therefore needs
    /// no hops of its own. The closure literal is not inferred to be main-actor code (it
    /// is a `sending` closure), so one that uses main-actor state says so with
    /// `@MainActor`, or the signal is made with ``init(on:_:)`` and `on: .main`:
    ///
    /// <!-- fragment: legacy -->
    /// ```swift
    /// @MainActor func locations(from tracker: LocationTracker) -> Signal<Location> {
    ///     Signal { @MainActor input in
    ///         tracker.onUpdate = { input.send($0) }
    ///         tracker.start()
    ///         return { tracker.stop() }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - isolation: Where `start` and its stop closure run; the caller's by default.
    ///   - start: Starts the source and returns what stops it.
    public init(
        isolation: isolated (any Actor)? = #isolation,
        _ start: sending @escaping (SignalInput<Value>) -> () -> Void
    ) {
        let actor: (any Actor)? = isolation
        let call = IsolatedCall<StartRequest>(isolation: isolation) { request in
            let stop = IsolatedCall<Void>(isolation: actor, unchecked: start(request.input))
            request.started { stop.run(()) }
        }
        storage = SignalStorage(
            source: .idle({ input, started in call.run(StartRequest(input: input, started: started)) }))
    }

    /// What the first observer hands to a source's start.
    struct StartRequest: Sendable {
        let input: SignalInput<Value>
        let started: @Sendable (@escaping SignalSource<Value>.Stop) -> Void
    }

    /// A signal and the input that sends its events: the bridge for code that produces
    /// values imperatively.
    ///
    /// The signal is hot at once: values sent while nobody observes are dropped.
    /// Releasing the input before sending a terminal event interrupts the signal.
    ///
    /// - Parameter onStop: Runs once when the signal ends (a terminal event, or its
    ///   last observer detached), on that thread: stop producing there.
    /// - Returns: The signal, and its input (`Sendable`: send from any thread).
    public static func pipe(
        onStop: @escaping @Sendable () -> Void = {}
    ) -> (signal: Signal, input: SignalInput<Value>) {
        let signal = Signal(source: .running(onStop))
        return (signal, SignalInput(signal.storage))
    }

    // MARK: Observing

    /// Attaches `handler`, which receives every event sent from now on, in order, never
    /// concurrently, ending with the terminal event; after the end, it gets the terminal
    /// event at once.
    ///
    /// The first observer starts the signal's source. Keep the returned handle to
    /// detach; releasing it does not detach (the handler stays until the signal ends).
    /// Detaching lets go of the handler and what it captures before
    /// ``SignalObservation/detach()`` returns, even while other observers keep the signal
    /// going, unless a delivery is in progress on another thread (then once it ends).
    ///
    /// - Parameters:
    ///   - context: Where `handler` runs; `ExecutionContext.inline` by default (see
    ///     "Threading" above). A handler on another executor still gets events one at a
    ///     time, in order, even on a concurrent queue.
    ///   - handler: Receives the events.
    /// - Returns: The handle that detaches `handler`.
    @discardableResult
    @_disfavoredOverload
    public func observe(
        on context: ExecutionContext = .inline,
        _ handler: @escaping @Sendable (Event) -> Void
    ) -> SignalObservation {
        let observer = SignalObserver<Value>(context: context, handler: handler)
        guard let id = storage.attach(observer) else { return SignalObservation {} }
        // The handle keeps the storage, which never references the handle: no cycle. (A
        // weak reference would put every signal's reference counting on its slow path, a
        // side table: a measured 2x on each event.)
        let storage = storage
        return SignalObservation { storage.detach(observer, id: id) }
    }

    /// Attaches a handler for values only; see ``observe(on:_:)-(ExecutionContext,_)``.
    ///
    /// - Parameters:
    ///   - context: Where `handler` runs; `ExecutionContext.inline` by default.
    ///   - handler: Receives each value.
    /// - Returns: The handle that detaches `handler`.
    @discardableResult
    @inlinable
    @_disfavoredOverload
    public func observeValues(
        on context: ExecutionContext = .inline,
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> SignalObservation {
        observe(on: context) { event in
            if case .value(let value) = event { handler(value) }
        }
    }

    /// Whether the signal has ended.
    public var isTerminated: Bool {
        storage.isEnded
    }
}
