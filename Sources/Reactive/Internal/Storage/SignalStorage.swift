import FutureBridge
import FutureBridgeInternals

/// The shared state of a ``Signal`` and its ``SignalInput``, and every operation on it.
///
/// Each method takes the lock only to run one transition of ``SignalStateMachine`` (and
/// to publish the observers' version to the drainer's ``DeliveryList``), then does what
/// the transition returned after the lock is released: handlers, starts and stops never
/// run under it. Values go through ``send(_:)``: the sender that finds no delivery in
/// progress takes the ``DeliveryTurn`` and delivers at once, without the lock; the others
/// queue their event in the state machine and return. A source that sends from one task
/// (`Signal(sequence)`) holds the turn for its whole iteration instead
/// (``holdTurnForSource()``).
@usableFromInline
struct SignalStorage<Value: Sendable>: Sendable {
    @usableFromInline
    typealias Event = Signal<Value>.Event

    @usableFromInline
    let state: Locked<SignalStateMachine<Value>>
    @usableFromInline
    let turn = DeliveryTurn()
    /// The drainer's copy of the observers: refreshed only when their version moved, so a
    /// value costs no lock here.
    @usableFromInline
    let deliveryList = DeliveryList<Value>()

    init(source: SignalSource<Value>) {
        state = Locked(SignalStateMachine(source: source))
    }

    // MARK: Observers

    /// Attaches `observer`; returns the id that detaches it, or `nil` if the signal had
    /// ended (it got the terminal event).
    func attach(_ observer: SignalObserver<Value>) -> Int? {
        let action = state.withLock { state in
            defer { deliveryList.publish(version: state.observersVersion) }
            return state.observerAttached(observer)
        }
        switch action {
        case .deliverTerminal(let terminal):
            observer.receive(terminal)
            return nil
        case .attached(let id):
            return id
        case .startSource(let start, let id):
            // An operator's source observes the signal before it, whose source may observe
            // the one before that: bounded like sends, so a chain of any length starts.
            if let nesting = SendNesting.enter() {
                self.start(start)
                SendNesting.leave(nesting)
            } else {
                SendNesting.deferUntilOutermostReturns { self.start(start) }
            }
            return id
        }
    }

    /// Starts the source. It hands over what stops it at once, or once it has run in the
    /// isolation it was written in.
    private func start(_ start: SignalSource<Value>.Start) {
        start(SignalInput(self)) { stop in
            if let stopNow = state.withLock({ $0.sourceStarted(stop) }) { stopNow() }
        }
    }

    /// Detaches `observer`, attached under `id`; the last one interrupts the signal.
    /// Amortized O(log n) in the number of observers: the copy of the observers is not
    /// made again, only the detached one's place in it is cleared.
    ///
    /// With other observers left, the drainer's copy of the observers is refreshed, so
    /// that it lets go of `observer` (its handler and what that captures): here, before
    /// this returns, when no delivery is in progress; otherwise by the drainer, once the
    /// event it is delivering has gone out (a source's task holding the turn: before its
    /// next event).
    ///
    /// When the source's task holds the turn, the signal ends in the same lock (no
    /// observer can attach in between to wait for the interruption) and the source is
    /// stopped at once: the task may be waiting for its sequence.
    func detach(_ observer: SignalObserver<Value>, id: Int) {
        observer.detach()
        let action = state.withLock { state in
            defer { deliveryList.publish(version: state.observersVersion) }
            return state.observerLeft(id: id)
        }
        switch action {
        case .nothing: break
        case .refreshQueued: if turn.join() { deliverQueuedNested() }
        case .interrupt: send(.interrupted)
        case .stopSource(let stop): stop?()
        }
    }

    var isEnded: Bool {
        state.withLock { $0.isEnded }
    }

    // MARK: Sending

    /// Sends `event` to the observers, serialized with every other send: delivered on
    /// this thread if no delivery is in progress, otherwise left to the thread delivering.
    ///
    /// A send made while this thread delivers (an operator sending to the next signal of
    /// a chain) nests, up to ``SendNesting/limit``; past it, its delivery waits until the
    /// outermost level on this thread returns. The event's place in this signal's order is
    /// taken at once either way.
    @inlinable
    func send(_ event: Event) {
        if turn.claimIfIdle() {
            // No delivery was in progress: this event is first, and never queued.
            guard let nesting = SendNesting.enter() else {
                SendNesting.deferUntilOutermostReturns {
                    self.deliver(event)
                    if self.turn.finishOne() { self.deliverQueued() }
                }
                return
            }
            deliver(event)
            if turn.finishOne() { deliverQueued() }
            SendNesting.leave(nesting)
        } else if event.isTerminal ? enqueueTerminal(event) : enqueue(event) {
            deliverQueuedNested()
        }
    }

    /// ``enqueue(_:)`` for a terminal event, which also stops a source whose task holds the
    /// turn (``SignalStateMachine/terminalQueued(_:)``); not for callers holding a lock of
    /// their own, since it may run the source's stop.
    @usableFromInline
    func enqueueTerminal(_ event: Event) -> Bool {
        let action = state.withLock { state in
            defer { deliveryList.publish(version: state.observersVersion) }
            return state.terminalQueued(event)
        }
        switch action {
        case .dropped:
            return false
        case .queued:
            return turn.join()
        case .stopSource(let stop, let queued):
            stop?()
            return queued && turn.join()
        }
    }

    // MARK: A source's task holding the turn

    /// For a source that sends from one task (`Signal(sequence)`): takes the delivery
    /// turn for the whole iteration, so that each of its events is delivered at once,
    /// without a read-modify-write; `false` if a delivery is in progress (the signal is
    /// ending), when the task sends with ``send(_:)`` instead. Then only
    /// ``deliverHoldingTurn(_:)`` and, after the terminal event, ``releaseTurn()``.
    ///
    /// A signal that has already ended is iterated all the same, by a task that is
    /// cancelled: its sequence sees the cancellation (an `AsyncStream` runs its
    /// `onTermination`), and what it sends is dropped.
    @inlinable
    func holdTurnForSource() -> Bool {
        // The flag before the turn: a sender that finds the turn taken sees it (see
        // `SignalStateMachine.terminalQueued`).
        state.withLock { $0.sourceHoldsTurn = true }
        if turn.claimIfIdle() { return true }
        state.withLock { $0.sourceHoldsTurn = false }
        return false
    }

    /// Delivers the holding task's `event`, after the events others queued before it: as
    /// ``deliver(_:)`` does, with a sole observer called without the loop.
    @inlinable @inline(__always)
    func deliverHoldingTurn(_ event: Event) {
        if turn.othersPending { deliverQueuedKeepingTurn() }
        guard event.isTerminal else {
            if deliveryList.isStale { refreshDeliveryList() }
            return deliveryList.deliverCallingSoleObserverDirectly(event)
        }
        end(with: event)
    }

    /// Gives back the turn ``holdTurnForSource()`` took, delivering what was queued
    /// meanwhile (to nobody: the signal has ended).
    @inlinable
    func releaseTurn() {
        if turn.finishOne() { deliverQueuedNested() }
    }

    /// Delivers the events others queued while the holding task keeps the turn.
    @usableFromInline
    func deliverQueuedKeepingTurn() {
        repeat {
            deliverQueued(state.withLock { $0.queuedTaken() })
        } while turn.finishQueuedKeepingTurn()
    }

    /// ``deliverQueued()`` as one level of ``SendNesting``, for a caller that became the
    /// drainer by queueing.
    @usableFromInline
    func deliverQueuedNested() {
        guard let nesting = SendNesting.enter() else {
            SendNesting.deferUntilOutermostReturns { self.deliverQueued() }
            return
        }
        deliverQueued()
        SendNesting.leave(nesting)
    }

    /// Queues `event` for the drainer; `true` if the caller became the drainer and must
    /// then call ``deliverQueuedNested()``. Lets a caller fix the order of events while it holds
    /// a lock of its own, and deliver them after releasing it.
    @usableFromInline
    func enqueue(_ event: Event) -> Bool {
        guard state.withLock({ $0.eventQueued(event) }) else { return false }
        return turn.join()  // counted only once queued: see DeliveryTurn
    }

    /// Delivers the queued events until none is pending; only the drainer calls it.
    @usableFromInline
    func deliverQueued() {
        repeat {
            deliverQueued(state.withLock { $0.queuedTaken() })
        } while turn.finishOne()
    }

    /// Hands a queued `event` to the observers; `nil`, a refresh a detach asked for,
    /// refreshes the drainer's copy of the observers instead.
    @usableFromInline
    func deliverQueued(_ event: Event?) {
        guard let event else {
            if deliveryList.isStale { refreshDeliveryList() }
            return
        }
        deliver(event)
    }

    /// Hands `event` to the observers; only the drainer calls it.
    @inlinable
    func deliver(_ event: Event) {
        guard event.isTerminal else {
            if deliveryList.isStale { refreshDeliveryList() }
            deliveryList.deliver(event)
            return
        }
        end(with: event)
    }

    /// Brings the drainer's copy of the observers up to date (rare: only after an attach
    /// or a detach): clears the places of observers detached since, or copies them all
    /// after an attach. The observers it lets go of are released here, after unlocking.
    @usableFromInline
    func refreshDeliveryList() {
        switch state.withLock({ $0.deliveryListRefreshed() }) {
        case .replace(let observers, let version): deliveryList.replace(with: observers, version: version)
        case .clearHoles(let positions, let version): deliveryList.clear(positions, version: version)
        }
    }

    /// Ends the signal with the terminal `event`, unless it had ended.
    @usableFromInline
    func end(with event: Event) {
        let ending = state.withLock { state in
            defer { deliveryList.publish(version: state.observersVersion) }
            return state.terminalEventReached(event)
        }
        guard let ending else {
            // Ended by another thread while a source's task held the turn (see
            // ``detach(_:)``): let go of the observers this copy still keeps.
            if deliveryList.isStale { refreshDeliveryList() }
            return
        }
        deliveryList.replace(with: [], version: ending.version)
        for observer in ending.observers { observer.receive(event) }
        ending.stop?()
    }
}
