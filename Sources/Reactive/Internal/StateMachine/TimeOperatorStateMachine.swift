/// The state of one observation of ``Signal/debounce(for:timekeeper:)`` or
/// ``Signal/throttle(for:latest:timekeeper:)``, as a pure state machine: the value held
/// back, the one timer that counts, and whether the operator has ended.
///
/// Each event is a `mutating func` named after what happened and returns what must be
/// done; ``TimeOperatorStorage`` calls it under its lock and does it after unlocking.
/// Timers are only held, as handles handed back to cancel, and known by the id the
/// machine gave them, so every transition can be tested without threads or time: a
/// timer that fires reports its id, and only the timer with the latest id counts. A value
/// the machine lets go of (replaced or dropped) is handed back too, so that it is
/// released after unlocking, never under the lock.
///
/// ```text
///  debounce  value              ──▶ held = value (release the old), due at now + interval;
///                                   start a timer if none runs (one running fires early)
///            timer fired early  ──▶ start a timer for what is left until the held value is due
///            timer fired        ──▶ send held; no timer
///  throttle  value, no timer    ──▶ send it; start a timer (the window)
///            value, timer       ──▶ held = value, release the old (latest); held only if none is (first)
///            timer fired, held  ──▶ send held; start a timer (a new window)
///            timer fired, none  ──▶ no timer: the next value goes at once
///  both      sourceCompleted    ──▶ send held, then completed; cancel the timer
///            sourceFailed       ──▶ drop held, then the failure or interruption; cancel the timer
///            stopped            ──▶ drop held; cancel the timer
///            after the end      ──▶ values and timers ignored; a timer started late is handed back
/// ```
@usableFromInline
struct TimeOperatorStateMachine<Value: Sendable, Timer: Sendable>: Sendable {
    /// Which operator the machine runs.
    @usableFromInline
    enum Rule: Sendable, Equatable {
        /// ``Signal/debounce(for:timekeeper:)``: a value waits until the timer runs out
        /// without another value.
        case debounce
        /// ``Signal/throttle(for:latest:timekeeper:)``: at most one value per timer; while
        /// the timer runs, the latest value waits (`latest`), or the first one.
        case throttle(latest: Bool)
    }

    /// What a transition requires, done after unlocking in this order: the value is sent
    /// (its place in the signal's order taken under the lock), then the timer is
    /// cancelled, then the new one is started; a value to release is released last.
    @usableFromInline
    enum Action {
        /// Nothing.
        case nothing
        /// Release this value, which a newer one replaced.
        case release(Value)
        /// Send this value.
        case send(Value)
        /// Start a timer of `nanoseconds` that reports as `id`; release `releasing` (the
        /// value the new one replaced), if any.
        case startTimer(id: Int, nanoseconds: UInt64, releasing: Value?)
        /// Send this value, then start a timer of the interval that reports as `timerID`.
        case sendThenStartTimer(Value, timerID: Int)
        /// The operator ended: send `sendingFirst`, if any, then the event it ended with
        /// (none when it was stopped); cancel `cancelling` and release `releasing` (the
        /// value dropped), if any.
        case end(sendingFirst: Value?, cancelling: Timer?, releasing: Value?)
    }

    @usableFromInline
    let rule: Rule
    /// How long a timer runs, in nanoseconds.
    @usableFromInline
    let interval: UInt64
    /// With ``Rule/debounce``: when the held value is due (now + interval when it came).
    @usableFromInline
    var deadline: UInt64 = 0
    /// The value waiting for the timer.
    @usableFromInline
    var held: Value?
    // `runningTimerID`, `runningTimer` and `hasEnded` are three fields rather than one
    // enum (idle, running with its handle, ended) on purpose: with the enum, a value
    // through `debounce` measured 309 instructions instead of 236 (benchmark B10).

    /// The id of the timer that counts, while one runs.
    @usableFromInline
    var runningTimerID: Int?
    /// The handle of that timer, once it was started (``timerStarted(_:id:)``).
    @usableFromInline
    var runningTimer: Timer?
    /// The id of the next timer.
    @usableFromInline
    var nextTimerID = 0
    /// The source ended or the operator was stopped: nothing is held or started again.
    @usableFromInline
    var hasEnded = false

    @inlinable
    init(rule: Rule, interval: UInt64) {
        self.rule = rule
        self.interval = interval
    }

    // MARK: Values and timers

    /// The source sent `value` at `now` (nanoseconds on the timekeeper).
    @inlinable
    mutating func valueArrived(_ value: Value, now: UInt64) -> Action {
        guard !hasEnded else { return .nothing }
        switch rule {
        case .debounce:
            let replaced = held.take()
            held = value
            let (due, overflow) = now.addingReportingOverflow(interval)
            deadline = overflow ? .max : due
            guard runningTimerID == nil else { return replaced.map { .release($0) } ?? .nothing }
            return .startTimer(id: startTimer(), nanoseconds: interval, releasing: replaced)
        case .throttle(let latest):
            guard runningTimerID != nil else { return .sendThenStartTimer(value, timerID: startTimer()) }
            guard latest || held == nil else { return .nothing }  // the new value is the caller's to drop
            let replaced = held.take()
            held = value
            return replaced.map { .release($0) } ?? .nothing
        }
    }

    /// The timer given `id` by an action was started as `timer`; returns it if it no
    /// longer counts (the operator ended before it started): cancel it.
    @inlinable
    mutating func timerStarted(_ timer: Timer, id: Int) -> Timer? {
        guard id == runningTimerID else { return timer }
        runningTimer = timer
        return nil
    }

    /// The timer given `id` fired at `now`. Ignored unless it is the timer that counts (one
    /// cancelled may still fire); then no timer runs, and the held value, if any, is sent
    /// (with a throttle, opening a new window), unless it is not due yet (a debounce whose
    /// value came after the timer started): then a timer starts for what is left.
    @inlinable
    mutating func timerFired(_ id: Int, now: UInt64) -> Action {
        guard id == runningTimerID else { return .nothing }
        (runningTimerID, runningTimer) = (nil, nil)
        if case .debounce = rule, held != nil, now < deadline {
            return .startTimer(id: startTimer(), nanoseconds: deadline - now, releasing: nil)
        }
        guard let value = held.take() else { return .nothing }
        guard case .throttle = rule else { return .send(value) }
        return .sendThenStartTimer(value, timerID: startTimer())
    }

    /// Makes the timer with the next id the one that counts (the handle of the one it
    /// replaces, if any, is dropped here: the caller took it), and returns that id.
    @inlinable
    mutating func startTimer() -> Int {
        defer { nextTimerID += 1 }
        (runningTimerID, runningTimer) = (nextTimerID, nil)
        return nextTimerID
    }

    // MARK: The end

    /// The source completed: the held value is sent first, then the completion.
    @inlinable
    mutating func sourceCompleted() -> Action {
        end(sendingHeld: true)
    }

    /// The source failed or was interrupted: the held value is dropped.
    @inlinable
    mutating func sourceFailed() -> Action {
        end(sendingHeld: false)
    }

    /// The operator's signal ended by itself (its last observer detached): the held
    /// value is dropped.
    @inlinable
    mutating func stopped() -> Action {
        end(sendingHeld: false)
    }

    /// Ends the operator once: the held value is sent (`sendingHeld`) or handed back to
    /// release, and the running timer is handed back to cancel.
    @inlinable
    mutating func end(sendingHeld: Bool) -> Action {
        guard !hasEnded else { return .nothing }
        hasEnded = true
        let value = held.take()
        let timer = runningTimer
        (runningTimerID, runningTimer) = (nil, nil)
        return .end(sendingFirst: sendingHeld ? value : nil, cancelling: timer, releasing: sendingHeld ? nil : value)
    }
}
