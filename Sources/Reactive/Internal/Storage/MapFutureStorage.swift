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
///
/// The observation holds an interest (a ``CancellationToken``) in each future it tracks,
/// taken before the interest it supersedes is cancelled: a cancel request from here
/// counts like any other consumer's, so a future that the latest value wants too (a
/// memoized one returned again) is not cancelled.
final class MapFutureStorage<Value: Sendable>: Sendable {
    typealias Machine = MapFutureStateMachine<Value, CancellationToken>

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
        track(future) { $0.started($1) }
    }

    /// Cancels the interest in the future in flight and tracks `future` instead.
    func replace(with future: Future<Value>) {
        track(future) { $0.replaced(with: $1) }
    }

    /// The source signal completed.
    func sourceCompleted() {
        run { $0.sourceCompleted() }
    }

    /// Cancels the interests in every future in flight, newest first.
    func cancelAll() {
        run { $0.cancelledAll() }
    }

    /// Takes an interest in `future`, runs `transition` with it under the lock, cancels
    /// the interest it returns, and watches `future` under the id it returns.
    private func track(
        _ future: Future<Value>, _ transition: (inout Machine, CancellationToken) -> Machine.TrackAction
    ) {
        let interest = future.cancellationToken()
        let id: Int
        switch state.withLock({ transition(&$0, interest) }) {
        case .watch(let tracked):
            id = tracked
        case .cancelThenWatch(let superseded, let tracked):
            superseded.cancel()
            id = tracked
        case .cancel(let stopped):
            return stopped.cancel()
        }
        future.onComplete { [self] outcome in
            run { $0.futureCompleted(id, outcome) }
            // Held until here, so that the machine letting go of it does not release it
            // under the lock.
            withExtendedLifetime(interest) {}
        }
    }

    /// Runs `transition` under the lock, fixing there the place of the events it returns;
    /// delivers them, then sends the cancel requests it returns, after unlocking.
    private func run(_ transition: (inout Machine) -> Machine.Action) {
        var action = Machine.Action.nothing
        input.send(lockedBy: state) { machine in
            action = transition(&machine)
            return action.events
        }
        for interest in action.futuresToCancel { interest.cancel() }
    }
}
