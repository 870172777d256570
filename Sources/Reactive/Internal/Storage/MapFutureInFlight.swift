import FutureBridge

/// The futures in flight of one ``Signal/mapFuture(_:onFailure:_:)`` observation, and
/// when its signal may complete.
final class InFlight<Value: Sendable>: Sendable {
    private struct State {
        var futures: [Int: Future<Value>] = [:]
        var nextID = 0
        /// With ``MapFutureStrategy/latest``: the only future whose result counts.
        var latestID: Int?
        var sourceCompleted = false
        /// With ``MapFutureStrategy/concat``: the next future whose outcome is sent, and
        /// the outcomes that came before their turn.
        var nextToSend = 0
        var early: [Int: Outcome<Value>] = [:]
    }

    private let state = Locked(State())
    private let input: SignalInput<Value>
    private let onFailure: InnerFailurePolicy
    /// Outcomes are sent in the order of the values (``MapFutureStrategy/concat``). The
    /// limiter starts a future only after the handlers of the one before it ran, but the
    /// handler of a future that completed before `start` could attach to it may still be
    /// queued on another thread: the order is kept here, whatever the threads do.
    private let inOrder: Bool

    init(input: SignalInput<Value>, onFailure: InnerFailurePolicy, inOrder: Bool) {
        self.input = input
        self.onFailure = onFailure
        self.inOrder = inOrder
    }

    /// Tracks `future` and sends its outcome when it completes.
    func start(_ future: Future<Value>) {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.futures[state.nextID] = future
            return state.nextID
        }
        future.onComplete { [self] outcome in completed(id, outcome) }
    }

    /// Sends a cancel request to the future in flight and tracks `future` instead.
    func replace(with future: Future<Value>) {
        let (id, superseded) = state.withLock { state in
            defer { state.nextID += 1 }
            let superseded = state.latestID.flatMap { state.futures.removeValue(forKey: $0) }
            state.futures[state.nextID] = future
            state.latestID = state.nextID
            return (state.nextID, superseded)
        }
        superseded?.requestCancellation()
        future.onComplete { [self] outcome in completed(id, outcome) }
    }

    func sourceCompleted() {
        input.send(lockedBy: state) { state in
            state.sourceCompleted = true
            return state.futures.isEmpty && state.early.isEmpty ? [.completed] : []
        }
    }

    /// Sends cancel requests to every future in flight, newest first: the limiter's
    /// queued units are the newest, and removing them before a running one frees its
    /// slot keeps them from starting.
    func cancelAll() {
        let futures = state.withLock { state in
            defer { state.futures = [:] }
            return state.futures
        }
        for (_, future) in futures.sorted(by: { $0.key > $1.key }) { future.requestCancellation() }
    }

    private func completed(_ id: Int, _ outcome: Outcome<Value>) {
        var cancelOthers = false
        input.send(lockedBy: state) { state in
            guard state.futures.removeValue(forKey: id) != nil else { return [] }  // superseded or stopped
            var due = [outcome]
            if inOrder {
                state.early[id] = outcome
                due = []
                while let next = state.early.removeValue(forKey: state.nextToSend) {
                    due.append(next)
                    state.nextToSend += 1
                }
            }
            var events: [Signal<Value>.Event] = []
            for outcome in due {
                switch outcome {
                case .success(let value):
                    events.append(.value(value))
                case .failure(let error) where onFailure == .failSignal:
                    cancelOthers = true
                    return events + [.failed(error)]
                case .failure, .cancelled:
                    break
                }
            }
            if state.sourceCompleted && state.futures.isEmpty && state.early.isEmpty { events.append(.completed) }
            return events
        }
        if cancelOthers { cancelAll() }
    }
}
