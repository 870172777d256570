import Dispatch
import FutureBridge
import FutureBridgeInternals

/// One observation of ``Signal/debounce(for:timekeeper:)`` or
/// ``Signal/throttle(for:latest:timekeeper:)``: owns the lock of its
/// ``TimeOperatorStateMachine`` and does what its transitions return.
///
/// Each method takes the lock only to run one transition. The events a transition
/// decides get their place in the operator's signal while the lock is still held
/// (``SignalInput/send(lockedBy:_:)``), so a value a timer releases and an event of the
/// source go out in the order their transitions ran, whatever the threads. Cancelling a
/// timer and starting one (the timekeeper's `schedule`, which is user code) happen after
/// unlocking.
///
/// A timer is a job scheduled on the timekeeper, which reports its id and the time to
/// the state machine; cancelling it releases the job, and this storage with it. A value
/// costs a read of the timekeeper's time, the lock and a transition: a debounce timer
/// runs from the first value of a burst and, when it fires early, starts once more for
/// what is left.
@usableFromInline
final class TimeOperatorStorage<Value: Sendable>: Sendable {
    @usableFromInline
    typealias Machine = TimeOperatorStateMachine<Value, Timekeeper.CancelWait>

    /// The state machine, reached only under this lock.
    @usableFromInline
    let state: Locked<Machine>
    /// The input of the operator's signal.
    @usableFromInline
    let input: SignalInput<Value>
    /// How long a timer that opens a throttle window runs, in nanoseconds.
    @usableFromInline
    let interval: UInt64
    /// What runs the timers.
    @usableFromInline
    let timekeeper: Timekeeper

    @inlinable
    init(_ rule: Machine.Rule, nanoseconds: UInt64, timekeeper: Timekeeper, input: SignalInput<Value>) {
        state = Locked(Machine(rule: rule, interval: nanoseconds))
        self.input = input
        interval = nanoseconds
        self.timekeeper = timekeeper
    }

    /// Handles an event of the source signal.
    @inlinable
    func receive(_ event: Signal<Value>.Event) {
        switch event {
        case .value(let value):
            let now = timekeeper.now()
            run { $0.valueArrived(value, now: now) }
        case .completed: run(endingWith: event) { $0.sourceCompleted() }
        case .failed, .interrupted: run(endingWith: event) { $0.sourceFailed() }
        }
    }

    /// The operator's signal ended: cancels the timer and drops the held value.
    @inlinable
    func stop() {
        run { $0.stopped() }
    }

    /// Runs `transition` under the lock, fixing there the place of the value it sends
    /// and, when it ends the operator, of `terminal`; then cancels and starts the timers
    /// it returns, after unlocking, and releases the values it let go of with the action.
    @inlinable
    func run(endingWith terminal: Signal<Value>.Event? = nil, _ transition: (inout Machine) -> Machine.Action) {
        let action = input.send(lockedBy: state) { machine, send in
            let action = transition(&machine)
            switch action {
            case .send(let value), .sendThenStartTimer(let value, _):
                send(.value(value))
            case .end(let value, _, _):
                if let value { send(.value(value)) }
                if let terminal { send(terminal) }
            case .nothing, .release, .startTimer:
                break
            }
            return action
        }
        switch action {
        case .startTimer(let id, let nanoseconds, _):
            startTimer(id, after: nanoseconds)
        case .sendThenStartTimer(_, let id):
            startTimer(id, after: interval)
        case .end(_, let running, _):
            running?()
        case .nothing, .release, .send:
            break
        }
    }

    /// Starts the timer the state machine knows as `id`, and hands it over; cancels it at
    /// once if it no longer counts (replaced or ended meanwhile, on another thread).
    @inlinable
    func startTimer(_ id: Int, after nanoseconds: UInt64) {
        let cancel = timekeeper.schedule(nanoseconds) { [self] in
            let now = timekeeper.now()
            run { $0.timerFired(id, now: now) }
        }
        if let late = state.withLock({ $0.timerStarted(cancel, id: id) }) { late() }
    }
}
