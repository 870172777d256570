/// The whole mutable state of one signal, as a pure state machine: its observers, its
/// source, its terminal event, and the events waiting while a delivery is in progress.
///
/// Each event is a `mutating func` named after what happened and returns what must be
/// done; ``SignalStorage`` calls it under the signal's lock and does it after unlocking.
/// No function here calls user code (handlers, starts and stops are only held and handed
/// back), so every transition can be tested without threads.
///
/// Whether a delivery is in progress is decided outside, by the lock-free
/// ``DeliveryTurn``, so that an uncontended value takes no lock; the state machine holds
/// what that decision needs under a lock: the events of the senders that found the turn
/// taken (``eventQueued(_:)``, ``queuedEventTaken()``), in their order, and the
/// observers' version that tells the drainer its copy is stale.
///
/// ```text
///           observerAttached (first)          sourceStarted
///   idle ───────────────────────────▶ starting ─────────────▶ running
///     │                                  │                       │
///     │ terminalEventReached             │ terminalEventReached  │ terminalEventReached
///     ▼                                  ▼   (stop at start)     ▼   (stop now)
///   ended ◀──────────────────────────────┴───────────────────────┘
/// ```
///
/// While the source's task holds the turn (``sourceHoldsTurn``), ``terminalQueued(_:)``
/// stops the source at once (stop now, or at start), and ends the signal on the spot when
/// no observer is left: it is then ended without a delivery.
@usableFromInline
struct SignalStateMachine<Value: Sendable>: Sendable {
    @usableFromInline
    typealias Event = Signal<Value>.Event

    /// Attached observers, in attachment order (empty once ended).
    @usableFromInline
    var observers: [SignalObserver<Value>] = []
    /// Bumped whenever ``observers`` changes.
    @usableFromInline
    var observersVersion = 0
    /// The terminal event once the signal ended: delivered, or set by
    /// ``terminalQueued(_:)`` when no observer was left to deliver it to.
    @usableFromInline
    var terminal: Event?
    @usableFromInline
    var source: SignalSource<Value>
    /// Events accepted while a delivery was in progress, the next at `queuedHead`.
    @usableFromInline
    var queued: [Event] = []
    @usableFromInline
    var queuedHead = 0
    /// Refreshes of the drainer's copy of the observers asked for by detaches while other
    /// observers remain (``observerLeft(_:)``), each counted in the turn like an event.
    @usableFromInline
    var refreshesQueued = 0
    /// The source sends from one task that holds the ``DeliveryTurn`` for its whole
    /// iteration, awaits included (`Signal(sequence)`): a terminal event sent by another
    /// thread meanwhile stops the source at once (``terminalQueued(_:)``).
    @usableFromInline
    var sourceHoldsTurn = false

    @inlinable
    init(source: SignalSource<Value>) {
        self.source = source
    }

    @inlinable
    var isEnded: Bool { terminal != nil }

    // MARK: Observers

    /// What attaching an observer requires.
    @usableFromInline
    enum AttachAction {
        /// The signal has ended: hand the observer this terminal event (it was not attached).
        case deliverTerminal(Event)
        /// Attached; nothing else to do.
        case attached
        /// Attached as the first observer: start the source (then ``sourceStarted(_:)``).
        case startSource(SignalSource<Value>.Start)
    }

    /// An observer asks to be attached.
    @inlinable
    mutating func observerAttached(_ observer: SignalObserver<Value>) -> AttachAction {
        if let terminal { return .deliverTerminal(terminal) }
        observers.append(observer)
        observersVersion += 1
        guard case .idle(let start) = source else { return .attached }
        source = .starting
        return .startSource(start)
    }

    /// An observer was detached; `true` if it was the last one, which interrupts the
    /// signal (the caller sends ``Signal/Event/interrupted``).
    @inlinable
    mutating func observerDetached(_ observer: SignalObserver<Value>) -> Bool {
        guard terminal == nil, let index = observers.firstIndex(where: { $0 === observer }) else { return false }
        observers.remove(at: index)
        observersVersion += 1
        return observers.isEmpty
    }

    /// What detaching an observer requires.
    @usableFromInline
    enum DetachAction {
        /// Nothing: the signal had ended (its observers were let go then).
        case nothing
        /// Other observers remain: a refresh of the drainer's copy of the observers was
        /// queued, so that the copy lets go of this one; count it (``DeliveryTurn/join()``)
        /// and, if that makes the caller the drainer, deliver what is queued.
        case refreshQueued
        /// It was the last observer: send ``Signal/Event/interrupted``.
        case interrupt
        /// It was the last observer while the source's task holds the turn: the signal
        /// ended here (no observer can attach in between to wait for the task); run the
        /// source's stop, if any, now.
        case stopSource(SignalSource<Value>.Stop?)
    }

    /// An observer leaves: ``observerDetached(_:)``, and what the signal then needs.
    @inlinable
    mutating func observerLeft(_ observer: SignalObserver<Value>) -> DetachAction {
        let attached = observers.count
        guard observerDetached(observer) else {
            guard observers.count < attached else { return .nothing }
            refreshesQueued += 1
            return .refreshQueued
        }
        guard sourceHoldsTurn else { return .interrupt }
        return .stopSource(endWithoutObservers(.interrupted))
    }

    /// The source started by ``AttachAction/startSource(_:)`` handed over what stops it;
    /// returns it if it must run now (the signal ended, or ``terminalQueued(_:)`` stopped
    /// the source, while it was starting).
    @inlinable
    mutating func sourceStarted(_ stop: @escaping SignalSource<Value>.Stop) -> SignalSource<Value>.Stop? {
        guard case .starting = source else { return stop }
        source = .running(stop)
        return nil
    }

    // MARK: Delivery

    /// A sender found a delivery in progress and leaves `event` to the drainer; `false`
    /// if the signal has ended (the event is dropped and must not be counted).
    @inlinable
    mutating func eventQueued(_ event: Event) -> Bool {
        guard terminal == nil else { return false }
        precondition(
            !(sourceHoldsTurn && event.isTerminal),
            "Signal: a terminal event for a source holding the turn goes through terminalQueued")
        queued.append(event)
        return true
    }

    /// What a sender of a terminal event that found the turn taken must do.
    @usableFromInline
    enum TerminalQueueAction {
        /// Queued for the drainer: count it (``DeliveryTurn/join()``).
        case queued
        /// Dropped: the signal has ended.
        case dropped
        /// The source's task holds the turn and may be waiting for its next element: run
        /// `stop`, if any, now (it cancels the task, which wakes it). The event was queued
        /// (count it) if `queued`; otherwise no observer was left, and the signal ended
        /// here.
        case stopSource(SignalSource<Value>.Stop?, queued: Bool)
    }

    /// A sender found the turn taken and leaves the terminal `event` to the drainer.
    ///
    /// When the source's task holds the turn (``sourceHoldsTurn``), that drainer may be
    /// suspended until its sequence produces again, which may be never: the source's stop
    /// is taken out to run at once (a source still starting runs it once started, see
    /// ``sourceStarted(_:)``), and with no observer left the signal ends here, so that an
    /// observer attaching later gets the terminal event at once.
    @inlinable
    mutating func terminalQueued(_ event: Event) -> TerminalQueueAction {
        guard terminal == nil else { return .dropped }
        guard sourceHoldsTurn else {
            queued.append(event)
            return .queued
        }
        if observers.isEmpty { return .stopSource(endWithoutObservers(event), queued: false) }
        queued.append(event)
        return .stopSource(takeStop(), queued: true)
    }

    /// Ends the signal with `event`, which no observer is left to get; returns the
    /// source's stop to run now, if it has handed it over.
    @inlinable
    mutating func endWithoutObservers(_ event: Event) -> SignalSource<Value>.Stop? {
        terminal = event
        observersVersion += 1
        return takeStop()
    }

    /// Takes the source's stop out to run now; a source still starting gets it back from
    /// ``sourceStarted(_:)``.
    @inlinable
    mutating func takeStop() -> SignalSource<Value>.Stop? {
        defer { source = .stopped }
        if case .running(let stop) = source { return stop }
        return nil
    }

    /// The drainer moves on to what was queued next (the turn said there is something):
    /// an event, or `nil` for a refresh of its copy of the observers that a detach asked
    /// for (``DetachAction/refreshQueued``), once no event is queued.
    @inlinable
    mutating func queuedTaken() -> Event? {
        if queuedHead < queued.count { return queuedEventTaken() }
        precondition(refreshesQueued > 0, "Signal: a queued event is missing")
        refreshesQueued -= 1
        return nil
    }

    /// The drainer moves on to the next queued event (the turn said there is one).
    @inlinable
    mutating func queuedEventTaken() -> Event {
        precondition(queuedHead < queued.count, "Signal: a queued event is missing")
        let event = queued[queuedHead]
        queuedHead += 1
        if queuedHead == queued.count {
            queued.removeAll(keepingCapacity: queued.count <= 64)
            queuedHead = 0
        }
        return event
    }

    /// The observers a value goes to, and their version, for the drainer's copy.
    @inlinable
    var deliveryObservers: (version: Int, observers: [SignalObserver<Value>]) {
        (observersVersion, observers)
    }

    /// What ending the signal requires.
    @usableFromInline
    struct Ending {
        /// Hand the terminal event to these.
        @usableFromInline var observers: [SignalObserver<Value>]
        /// Run this, if any, to stop the source.
        @usableFromInline var stop: SignalSource<Value>.Stop?
        /// The observers' version from now on (no observers).
        @usableFromInline var version: Int

        @inlinable
        init(observers: [SignalObserver<Value>], stop: SignalSource<Value>.Stop?, version: Int) {
            (self.observers, self.stop, self.version) = (observers, stop, version)
        }
    }

    /// The drainer reached a terminal event; `nil` if the signal had already ended (the
    /// event is ignored). Events still queued were sent after it: the drainer takes them
    /// (they are counted) and hands them to nobody.
    @inlinable
    mutating func terminalEventReached(_ event: Event) -> Ending? {
        guard terminal == nil else { return nil }
        let ended = observers
        observers = []
        let stop = endWithoutObservers(event)
        return Ending(observers: ended, stop: stop, version: observersVersion)
    }
}
