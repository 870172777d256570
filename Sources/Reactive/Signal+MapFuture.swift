import FutureBridge

/// How ``Signal/mapFuture(_:onFailure:_:)`` runs the futures it makes.
public enum MapFutureStrategy: Sendable, Equatable {
    /// One future at a time: a value's future starts once the previous one has
    /// completed, so results come in the order of the values.
    case concat
    /// Futures run at once, at most `maxConcurrent` at a time (the others wait in order);
    /// results come as the futures complete.
    case merge(maxConcurrent: Int = .max)
    /// Only the latest value's future matters: a new value sends a cancel request to the
    /// future in flight and drops its result.
    case latest
}

/// What a failed inner future of ``Signal/mapFuture(_:onFailure:_:)`` does.
public enum InnerFailurePolicy: Sendable, Equatable {
    /// The signal fails with the error; the other futures in flight get cancel requests.
    case failSignal
    /// The failure is skipped; the signal goes on.
    case skip
}

extension Signal {
    /// A signal of the values of the futures `transform` makes, one per value (the
    /// FutureKit talk's `mapFuture`: from values over time to one result each).
    ///
    /// `transform` runs inline: on the thread delivering the value, or, when a value
    /// waits for its turn (``MapFutureStrategy/concat``, a full
    /// ``MapFutureStrategy/merge(maxConcurrent:)``), on the thread that completes the
    /// future before it. A future that ends cancelled is skipped. The signal completes
    /// once this signal has completed and every future has completed; a failure or an
    /// interruption of this signal ends it at once.
    ///
    /// Cancellation: when the returned signal ends (terminal event, or its last observer
    /// detached), every future in flight gets a cancel request and queued values are
    /// dropped.
    ///
    /// <!-- fragment: app -->
    /// ```swift
    /// let results = searchField.text.mapFuture(.latest) { query in search(query) }
    /// ```
    ///
    /// - Parameters:
    ///   - strategy: How the futures run; ``MapFutureStrategy/concat`` by default.
    ///   - onFailure: What a failed future does; ``InnerFailurePolicy/failSignal`` by
    ///     default.
    ///   - transform: Makes the future of one value.
    /// - Returns: A signal of the futures' values.
    public func mapFuture<NewValue: Sendable>(
        _ strategy: MapFutureStrategy = .concat,
        onFailure: InnerFailurePolicy = .failSignal,
        _ transform: @escaping @Sendable (Value) -> Future<NewValue>
    ) -> Signal<NewValue> {
        Signal<NewValue> { input in
            let inFlight = InFlight<NewValue>(input: input, onFailure: onFailure, inOrder: strategy == .concat)
            let limiter: FutureLimiter?
            switch strategy {
            case .concat: limiter = FutureLimiter(maxConcurrent: 1)
            case .merge(let maxConcurrent): limiter = FutureLimiter(maxConcurrent: max(1, maxConcurrent))
            case .latest: limiter = nil
            }
            let observation = self.observe { event in
                switch event {
                case .value(let value):
                    if let limiter {
                        inFlight.start(limiter.add { transform(value) })
                    } else {
                        inFlight.replace(with: transform(value))
                    }
                case .completed:
                    inFlight.sourceCompleted()
                case .failed, .interrupted:
                    input.send(event.retyped())
                }
            }
            return {
                observation.detach()
                inFlight.cancelAll()
            }
        }
    }
}

/// The futures in flight of one ``Signal/mapFuture(_:onFailure:_:)`` observation, and
/// when its signal may complete.
private final class InFlight<Value: Sendable>: Sendable {
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
        superseded?.cancel()
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
        for (_, future) in futures.sorted(by: { $0.key > $1.key }) { future.cancel() }
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
