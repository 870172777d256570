import FutureBridge
import FutureBridgeAtomics

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
    /// Bumped (inside `state`'s lock) whenever the observers change. The first stored
    /// property, only ever reached atomically through ``observersVersionAddress``.
    @usableFromInline
    nonisolated(unsafe) var observersVersion = 0

    @inlinable @inline(__always)
    var observersVersionAddress: UnsafeMutablePointer<Int> { firstStoredProperty(of: self) }

    /// One event of a signal.
    public enum Event: Sendable {
        /// A value.
        case value(Value)
        /// The signal ended normally.
        case completed
        /// The signal ended with an error.
        case failed(any Error)
        /// The signal was stopped before it could end by itself: its last observer
        /// detached, its input was released, or its source was cancelled.
        case interrupted

        /// Whether this event ends the signal.
        public var isTerminal: Bool {
            if case .value = self { false } else { true }
        }

        /// The value of a ``value(_:)`` event.
        public var value: Value? {
            if case .value(let value) = self { value } else { nil }
        }
    }

    /// What stops a signal's source.
    @usableFromInline
    typealias Stop = @Sendable () -> Void
    /// Starts a signal's source, which sends through the input, and then hands what
    /// stops it to the second closure (at once, or later when the start hops to the
    /// isolation it was written in).
    @usableFromInline
    typealias Start = @Sendable (SignalInput<Value>, _ started: @escaping @Sendable (@escaping Stop) -> Void) -> Void

    @usableFromInline
    enum Source: Sendable {
        /// Not started: starts when the first observer attaches.
        case idle(Start)
        /// Being started by the first observer's thread.
        case starting
        /// Running; `stop` tells it to stop.
        case running(Stop)
        /// Stopped, or never had anything to stop.
        case stopped
    }

    /// What attaching an observer found.
    private enum Attach {
        case ended(Event)
        case attached
        case mustStart(Start)
    }

    @usableFromInline
    struct State: Sendable {
        @usableFromInline var observers: [SignalObserver<Value>] = []
        @usableFromInline var terminal: Event?
        @usableFromInline var source: Source

        @inlinable
        init(source: Source) {
            self.source = source
        }
    }

    @usableFromInline
    let state: Locked<State>
    @usableFromInline
    let drain = SerialDrain<Event>()
    /// The drainer's copy of the observers: refreshed only when ``observersVersion``
    /// moved, so a value costs no lock here.
    @usableFromInline
    let deliveryList = DeliveryList<Value>()

    init(source: Source) {
        state = Locked(State(source: source))
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
        state = Locked(
            State(source: .idle({ input, started in call.run(StartRequest(input: input, started: started)) })))
    }

    /// What the first observer hands to a source's start.
    struct StartRequest: Sendable {
        let input: SignalInput<Value>
        let started: @Sendable (@escaping Stop) -> Void
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
        return (signal, SignalInput(signal))
    }

    // MARK: Observing

    /// Attaches `handler`, which receives every event sent from now on, in order, never
    /// concurrently, ending with the terminal event; after the end, it gets the terminal
    /// event at once.
    ///
    /// The first observer starts the signal's source. Keep the returned handle to
    /// detach; releasing it does not detach (the handler stays until the signal ends).
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
        let attach = state.withLock { state -> Attach in
            if let terminal = state.terminal { return .ended(terminal) }
            state.observers.append(observer)
            fb_int_fetch_add_release(observersVersionAddress, 1)
            guard case .idle(let start) = state.source else { return .attached }
            state.source = .starting
            return .mustStart(start)
        }
        switch attach {
        case .ended(let terminal):
            observer.receive(terminal)
            return SignalObservation {}
        case .attached:
            break
        case .mustStart(let start):
            // An operator's source observes the signal before it, whose source may observe
            // the one before that: bounded like sends, so a chain of any length starts.
            if let trampoline = Trampoline.enterNesting() {
                self.start(start)
                trampoline._withUnsafeGuaranteedRef { $0.leaveNesting() }
            } else {
                Trampoline.deferNested { self.start(start) }
            }
        }
        // A strong reference: the signal never references the handle, so there is no
        // cycle, and a weak one would put every signal's reference counting on its slow
        // path (a side table), a measured 2x on each event.
        return SignalObservation { self.detach(observer) }
    }

    /// Starts the source (after the first observer attached). It hands over what stops it
    /// at once, or once it has run in the isolation it was written in.
    private func start(_ start: Start) {
        start(SignalInput(self)) { stop in self.started(stop) }
    }

    /// The source has started and handed over what stops it: kept until the signal ends,
    /// or run at once if it ended while starting.
    private func started(_ stop: @escaping Stop) {
        let stopNow = state.withLock { state -> Bool in
            guard case .starting = state.source else { return true }  // ended while starting
            state.source = .running(stop)
            return false
        }
        if stopNow { stop() }
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
        state.withLock { $0.terminal != nil }
    }

    // MARK: Sending (through SignalInput)

    /// Sends `event` to the observers, serialized with every other send: delivered on
    /// this thread if nothing is pending, otherwise left to the thread delivering now.
    ///
    /// A send made while this thread delivers (an operator sending to the next signal of
    /// a chain) nests, up to a depth; past it, its delivery waits until the outermost
    /// delivery on this thread returns (``Trampoline/enterNesting()``), so a chain of any
    /// length delivers without growing the stack per operator. The event's place in this
    /// signal's order is taken at once either way.
    @inlinable
    func send(_ event: Event) {
        if drain.claimIfIdle() {
            // Nothing was pending: this event is first.
            guard let trampoline = Trampoline.enterNesting() else {
                Trampoline.deferNested {
                    self.deliver(event)
                    if self.drain.finishOne() { self.deliverQueued() }
                }
                return
            }
            deliver(event)
            if drain.finishOne() { deliverQueued() }
            trampoline._withUnsafeGuaranteedRef { $0.leaveNesting() }
        } else if drain.enqueue(event) {
            guard let trampoline = Trampoline.enterNesting() else {
                Trampoline.deferNested { self.deliverQueued() }
                return
            }
            deliverQueued()
            trampoline._withUnsafeGuaranteedRef { $0.leaveNesting() }
        }
    }

    /// Queues `event` for delivery; `true` if the caller must then call
    /// ``deliverQueued()``. Lets a caller fix the order of events while it holds a lock
    /// of its own, and deliver them after releasing it.
    @inlinable
    func enqueue(_ event: Event) -> Bool {
        drain.enqueue(event)
    }

    /// Delivers the queued events until none is pending; only the drainer calls it.
    @inlinable
    func deliverQueued() {
        repeat {
            deliver(drain.popFirst())
        } while drain.finishOne()
    }

    @inlinable
    func deliver(_ event: Event) {
        guard event.isTerminal else {
            // Only the drainer gets here, so the list is never touched concurrently. A
            // stale copy is harmless: an attach that races a send may miss it either way,
            // and a detached observer ignores what it is handed.
            if deliveryList.version != fb_int_load_acquire(observersVersionAddress) { refreshDeliveryList() }
            deliveryList.deliver(event)
            return
        }
        let ended = state.withLock { state -> (observers: [SignalObserver<Value>], stop: Stop?)? in
            guard state.terminal == nil else { return nil }
            state.terminal = event
            let stop: Stop?
            if case .running(let running) = state.source { stop = running } else { stop = nil }
            state.source = .stopped
            defer {
                state.observers = []
                fb_int_fetch_add_release(observersVersionAddress, 1)
            }
            return (state.observers, stop)
        }
        guard let ended else { return }
        deliveryList.replace(with: [], version: -1)
        for observer in ended.observers { observer.receive(event) }
        ended.stop?()
    }

    /// Copies the observers for the drainer (rare: only after an attach or a detach).
    @usableFromInline
    func refreshDeliveryList() {
        let (version, observers) = state.withLock { state in
            (fb_int_load_relaxed(observersVersionAddress), state.terminal == nil ? state.observers : [])
        }
        deliveryList.replace(with: observers, version: version)
    }

    private func detach(_ observer: SignalObserver<Value>) {
        observer.detach()
        let wasLast = state.withLock { state -> Bool in
            guard state.terminal == nil, let index = state.observers.firstIndex(where: { $0 === observer }) else {
                return false
            }
            state.observers.remove(at: index)
            fb_int_fetch_add_release(observersVersionAddress, 1)
            return state.observers.isEmpty
        }
        if wasLast { send(.interrupted) }
    }
}

/// The sending side of a ``Signal``: `Sendable`, usable from any thread.
///
/// Events sent from several threads at once are delivered one at a time, in the order
/// they were accepted. Everything sent after a terminal event is ignored. Releasing the
/// last reference to an input whose signal has not ended interrupts it.
public final class SignalInput<Value: Sendable>: Sendable {
    @usableFromInline
    let signal: Signal<Value>

    init(_ signal: Signal<Value>) {
        self.signal = signal
    }

    deinit {
        signal.send(.interrupted)
    }

    /// Sends a value.
    @inlinable
    public func send(_ value: Value) {
        signal.send(.value(value))
    }

    /// Sends any event; a terminal one ends the signal.
    @inlinable
    public func send(_ event: Signal<Value>.Event) {
        signal.send(event)
    }

    /// Ends the signal normally.
    public func sendCompleted() {
        signal.send(.completed)
    }

    /// Ends the signal with `error`.
    public func sendFailed(_ error: any Error) {
        signal.send(.failed(error))
    }

    /// Ends the signal as interrupted (cancelled).
    public func sendInterrupted() {
        signal.send(.interrupted)
    }

    /// Sends the events `decide` returns, fixing their place in the order inside `lock`
    /// (so that events decided under one lock are delivered in that order), and
    /// delivering them after `lock` is released.
    func send<State>(
        lockedBy lock: Locked<State>, _ decide: (inout State) -> [Signal<Value>.Event]
    ) {
        let mustDeliver = lock.withLock { state -> Bool in
            var mustDeliver = false
            for event in decide(&state) where signal.enqueue(event) { mustDeliver = true }
            return mustDeliver
        }
        if mustDeliver { signal.deliverQueued() }
    }
}

/// An observer attached with ``Signal/observe(on:_:)-(ExecutionContext,_)``: its handle detaches it.
///
/// Detaching is immediate for events not yet handed to the observer; when the last
/// observer of a signal detaches, the signal is interrupted and its source is told to
/// stop. Releasing the handle does not detach. Thread-safe; detaching twice does
/// nothing.
public final class SignalObservation: Sendable {
    private let detachOnce = OnceFlag()
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    /// Detaches the observer.
    public func detach() {
        if detachOnce.claim() { action() }
    }

    /// Whether ``detach()`` has been called.
    public var isDetached: Bool {
        detachOnce.isClaimed
    }
}
