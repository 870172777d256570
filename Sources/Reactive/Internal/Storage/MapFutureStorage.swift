import FutureBridge
import FutureBridgeInternals

/// The futures in flight of one ``Signal/mapFuture(_:onFailure:_:)`` observation: owns
/// the lock of its ``MapFutureStateMachine`` and does what its transitions return.
///
/// Each method takes the lock only to run one transition. The events a transition
/// returns get their place in the mapped signal's order while the lock is still held
/// (``SignalInput/send(lockedBy:_:)``), and are delivered after it is released: events
/// go out in the order their transitions ran, whatever the threads do (a value before
/// the `completed` decided just after it; with ``MapFutureStrategy/concat``, outcomes in
/// the order of the values, although the handler of a future that completed before it
/// was watched may still be queued on another thread). Cancel requests and watching a
/// future happen after unlocking.
final class MapFutureStorage<Value: Sendable>: Sendable {
    typealias Machine = MapFutureStateMachine<Value>

    /// The state machine, reached only under this lock.
    private let state: Locked<Machine>
    /// The input of the mapped signal.
    private let input: SignalInput<Value>

    init(input: SignalInput<Value>, strategy: MapFutureStrategy, onFailure: InnerFailurePolicy) {
        self.input = input
        state = Locked(Machine(strategy: strategy, onFailure: onFailure))
    }

    /// Tracks `future` and sends its outcome when it completes.
    func start(_ future: Future<Value>) {
        track(future) { $0.started(future) }
    }

    /// Sends a cancel request to the future in flight and tracks `future` instead.
    func replace(with future: Future<Value>) {
        track(future) { $0.replaced(with: future) }
    }

    /// The source signal completed.
    func sourceCompleted() {
        run { $0.sourceCompleted() }
    }

    /// Sends cancel requests to every future in flight, newest first.
    func cancelAll() {
        run { $0.cancelledAll() }
    }

    /// Runs `transition` under the lock, sends the cancel request it returns, and watches
    /// `future` under the id it returns.
    private func track(_ future: Future<Value>, _ transition: (inout Machine) -> Machine.TrackAction) {
        let id: Int
        switch state.withLock(transition) {
        case .watch(let tracked):
            id = tracked
        case .cancelThenWatch(let superseded, let tracked):
            superseded.requestCancellation()
            id = tracked
        }
        future.onComplete { [self] outcome in run { $0.futureCompleted(id, outcome) } }
    }

    /// Runs `transition` under the lock, fixing there the place of the events it returns;
    /// delivers them, then sends the cancel requests it returns, after unlocking.
    private func run(_ transition: (inout Machine) -> Machine.Action) {
        var action = Machine.Action.nothing
        input.send(lockedBy: state) { machine in
            action = transition(&machine)
            return action.events
        }
        for future in action.futuresToCancel { future.requestCancellation() }
    }
}
