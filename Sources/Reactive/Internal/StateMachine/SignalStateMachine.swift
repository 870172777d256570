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

    /// Attached observers in attachment order, their ids ascending, with a hole where one
    /// detached (empty once ended). A detach makes a hole rather than closing the gap, so
    /// that it costs no copy: the slots are compacted once holes outnumber observers
    /// (``compactIfSparse()``), which keeps each detach O(log n) amortized.
    @usableFromInline
    var slots: [ObserverSlot] = []
    /// How many slots hold an observer.
    @usableFromInline
    var observerCount = 0
    /// The id the next observer attaches under.
    @usableFromInline
    var nextObserverID = 0
    /// Bumped whenever the attached observers change.
    @usableFromInline
    var observersVersion = 0
    /// Whether the drainer's copy of the observers (``DeliveryList``) has the layout of
    /// ``slots`` (the same observers at the same positions, but for ``holesForDrainer``),
    /// so that a refresh clears positions instead of copying every observer.
    @usableFromInline
    var drainerCopyMatchesSlots = false
    /// Positions of ``slots`` that became holes since the drainer's copy was refreshed,
    /// while it matches them.
    @usableFromInline
    var holesForDrainer: [Int] = []
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

    /// An attached observer, or the hole it left, and the id it attached under.
    @usableFromInline
    struct ObserverSlot: Sendable {
        @usableFromInline let id: Int
        @usableFromInline var observer: SignalObserver<Value>?

        @inlinable
        init(id: Int, observer: SignalObserver<Value>) {
            (self.id, self.observer) = (id, observer)
        }
    }

    /// The attached observers, in attachment order.
    @inlinable
    var observers: [SignalObserver<Value>] { slots.compactMap(\.observer) }

    /// What attaching an observer requires.
    @usableFromInline
    enum AttachAction {
        /// The signal has ended: hand the observer this terminal event (it was not attached).
        case deliverTerminal(Event)
        /// Attached under `id` (which detaches it); nothing else to do.
        case attached(id: Int)
        /// Attached under `id` as the first observer: start the source (then
        /// ``sourceStarted(_:)``).
        case startSource(SignalSource<Value>.Start, id: Int)
    }

    /// An observer asks to be attached.
    @inlinable
    mutating func observerAttached(_ observer: SignalObserver<Value>) -> AttachAction {
        if let terminal { return .deliverTerminal(terminal) }
        let id = nextObserverID
        nextObserverID += 1
        slots.append(ObserverSlot(id: id, observer: observer))
        observerCount += 1
        observersVersion += 1
        drainerCopyMatchesSlots = false  // refreshed whole, to take the new observer
        holesForDrainer.removeAll()
        guard case .idle(let start) = source else { return .attached(id: id) }
        source = .starting
        return .startSource(start, id: id)
    }

    /// The observer attached under `id` was detached; `true` if it was the last one,
    /// which interrupts the signal (the caller sends ``Signal/Event/interrupted``).
    /// O(log n) to find it, and amortized O(1) to let go of it.
    @inlinable
    mutating func observerDetached(id: Int) -> Bool {
        guard terminal == nil, let index = slotIndex(of: id) else { return false }
        slots[index].observer = nil
        observerCount -= 1
        observersVersion += 1
        guard observerCount > 0 else {
            // The interruption (or the end the caller makes) lets go of the drainer's copy.
            slots.removeAll()
            drainerCopyMatchesSlots = false
            holesForDrainer.removeAll()
            return true
        }
        if drainerCopyMatchesSlots { holesForDrainer.append(index) }
        compactIfSparse()
        return false
    }

    /// The position of the observer attached under `id`, if it is still attached: a
    /// binary search, the ids being ascending.
    @inlinable
    func slotIndex(of id: Int) -> Int? {
        var low = 0
        var high = slots.count
        while low < high {
            let middle = low + (high - low) / 2
            if slots[middle].id < id { low = middle + 1 } else { high = middle }
        }
        guard low < slots.count, slots[low].id == id, slots[low].observer != nil else { return nil }
        return low
    }

    /// Closes the holes once they outnumber the observers: each compaction costs what the
    /// detaches since the one before made, so a detach stays amortized O(1). The drainer's
    /// copy no longer matches the slots: its next refresh copies it whole.
    @inlinable
    mutating func compactIfSparse() {
        guard slots.count - observerCount > observerCount else { return }
        slots.removeAll { $0.observer == nil }
        drainerCopyMatchesSlots = false
        holesForDrainer.removeAll()
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

    /// The observer attached under `id` leaves: ``observerDetached(id:)``, and what the
    /// signal then needs.
    @inlinable
    mutating func observerLeft(id: Int) -> DetachAction {
        let attached = observerCount
        guard observerDetached(id: id) else {
            guard observerCount < attached else { return .nothing }
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
        if observerCount == 0 { return .stopSource(endWithoutObservers(event), queued: false) }
        queued.append(event)
        return .stopSource(takeStop(), queued: true)
    }

    /// Ends the signal with `event`, which no observer is left to get; returns the
    /// source's stop to run now, if it has handed it over.
    @inlinable
    mutating func endWithoutObservers(_ event: Event) -> SignalSource<Value>.Stop? {
        terminal = event
        observersVersion += 1
        drainerCopyMatchesSlots = false  // a refresh empties the drainer's copy
        holesForDrainer.removeAll()
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

    /// How the drainer brings its copy of the observers up to date.
    @usableFromInline
    enum DeliveryListUpdate {
        /// Replace the copy with these observers, in attachment order.
        case replace([SignalObserver<Value>], version: Int)
        /// Clear these positions of the copy (observers detached since it was taken).
        case clearHoles([Int], version: Int)
    }

    /// The drainer refreshes its copy of the observers: the holes made since, when the
    /// copy still has the layout of the slots (O(1) per detach), or else every observer,
    /// the slots compacted first so that the copy has no hole.
    @inlinable
    mutating func deliveryListRefreshed() -> DeliveryListUpdate {
        if drainerCopyMatchesSlots {
            defer { holesForDrainer = [] }
            return .clearHoles(holesForDrainer, version: observersVersion)
        }
        if slots.count > observerCount { slots.removeAll { $0.observer == nil } }
        drainerCopyMatchesSlots = true
        holesForDrainer.removeAll()
        return .replace(observers, version: observersVersion)
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
        slots = []
        observerCount = 0
        let stop = endWithoutObservers(event)
        return Ending(observers: ended, stop: stop, version: observersVersion)
    }
}
