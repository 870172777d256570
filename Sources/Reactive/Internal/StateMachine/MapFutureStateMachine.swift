import FutureBridge

/// The futures in flight of one ``Signal/mapFuture(_:onFailure:_:)`` observation, as a
/// pure state machine: which futures still count, in which order their outcomes go out,
/// and when the mapped signal completes or fails.
///
/// Each event is a `mutating func` named after what happened and returns what must be
/// done; ``MapFutureStorage`` calls it under its lock and does it after unlocking. Each
/// future is held only as an `Interest`, a handle handed back for a cancel request (the
/// storage's are ``CancellationToken``s: the observation's interest in that future, so a
/// request counts like any other consumer's): no function here touches one, so every
/// transition can be tested without threads.
///
/// ```text
///  started / replaced ──▶ tracked[id] ──futureCompleted(id)──▶ sent         (merge, latest)
///                            │                            └──▶ early[id] ──▶ sent in turn (concat)
///                            ├── replaced (latest): superseded, handed back to cancel
///                            └── cancelledAll, failSignal failure: all handed back, newest first
///  futureCompleted of an id no longer tracked: ignored;  cancelledAll: early outcomes dropped
///  started / replaced after cancelledAll: not tracked, the interest handed back at once
///  sourceCompleted ──▶ completed once nothing is tracked or early
/// ```
struct MapFutureStateMachine<Value: Sendable, Interest: Sendable>: Sendable {
    typealias Event = Signal<Value>.Event

    /// What an outcome of a failed future does.
    let onFailure: InnerFailurePolicy
    /// Outcomes go out in the order the futures started (``MapFutureStrategy/concat``),
    /// not in the order they complete.
    let inOrder: Bool
    /// The interests in the futures whose outcome still counts, by id (ids count up in
    /// start order).
    private(set) var tracked: [Int: Interest] = [:]
    /// The id of the next future tracked.
    private(set) var nextID = 0
    /// With ``MapFutureStrategy/latest``: the only future whose outcome counts.
    private(set) var latestID: Int?
    /// The source signal has completed: the mapped one completes once nothing is left.
    private(set) var sourceHasCompleted = false
    /// With ``MapFutureStrategy/concat``: the id whose outcome goes out next.
    private(set) var nextToSend = 0
    /// With ``MapFutureStrategy/concat``: outcomes that came before their turn, by id.
    private(set) var early: [Int: Outcome<Value>] = [:]
    /// ``cancelledAll()`` ran: the mapped signal is ending, nothing goes out any more.
    private(set) var hasStopped = false

    init(strategy: MapFutureStrategy, onFailure: InnerFailurePolicy) {
        self.onFailure = onFailure
        self.inOrder = strategy == .concat
    }

    /// What tracking a new future requires.
    enum TrackAction {
        /// Watch the new future: report its outcome as `futureCompleted(id, _)`.
        case watch(id: Int)
        /// Cancel `superseded` (the interest in a future whose outcome no longer counts:
        /// the request reaches that future unless another interest, such as the new
        /// future's when it is the same one, still holds it), then watch the new future as
        /// ``watch(id:)`` says.
        case cancelThenWatch(superseded: Interest, id: Int)
        /// The mapped signal has ended (a value still being delivered mapped to this
        /// future as the signal stopped): cancel the interest at once, watch nothing.
        case cancel(Interest)
    }

    /// What the other transitions require.
    enum Action {
        /// Nothing.
        case nothing
        /// Send these events, in this order.
        case send([Event])
        /// Cancel these interests, in this order (newest first); release the outcomes
        /// `dropped` (that came before their turn) after unlocking.
        case cancel([Interest], dropped: [Outcome<Value>])
        /// Send these events (the last one is `failed`), then cancel these interests,
        /// newest first.
        case sendThenCancel([Event], [Interest])

        /// The events to send, in order.
        var events: [Event] {
            switch self {
            case .send(let events), .sendThenCancel(let events, _): events
            case .nothing, .cancel: []
            }
        }

        /// The interests to cancel, in order, after the events.
        var futuresToCancel: [Interest] {
            switch self {
            case .cancel(let futures, _), .sendThenCancel(_, let futures): futures
            case .nothing, .send: []
            }
        }
    }

    // MARK: Tracking futures

    /// A future started (``MapFutureStrategy/concat``, ``MapFutureStrategy/merge(maxConcurrent:)``):
    /// its outcome counts.
    mutating func started(_ future: Interest) -> TrackAction {
        if hasStopped { return .cancel(future) }
        return .watch(id: track(future))
    }

    /// A future replaces the latest one (``MapFutureStrategy/latest``): only its outcome
    /// counts from now on, and the one it supersedes, if still in flight, is handed back.
    mutating func replaced(with future: Interest) -> TrackAction {
        if hasStopped { return .cancel(future) }
        let superseded = latestID.flatMap { tracked.removeValue(forKey: $0) }
        let id = track(future)
        latestID = id
        guard let superseded else { return .watch(id: id) }
        return .cancelThenWatch(superseded: superseded, id: id)
    }

    /// Tracks `future` under the next id, and returns that id.
    private mutating func track(_ future: Interest) -> Int {
        defer { nextID += 1 }
        tracked[nextID] = future
        return nextID
    }

    // MARK: Outcomes and the end

    /// The future tracked as `id` completed with `outcome`. Ignored if it no longer
    /// counts (superseded, cancelled by ``cancelledAll()`` or by a failure); otherwise
    /// its value goes out (with ``MapFutureStrategy/concat``, once every future started
    /// before it has gone out), a cancelled or skipped failure goes nowhere, and a failure
    /// under ``InnerFailurePolicy/failSignal`` fails the signal and hands back the other
    /// futures to cancel.
    mutating func futureCompleted(_ id: Int, _ outcome: Outcome<Value>) -> Action {
        guard tracked.removeValue(forKey: id) != nil else { return .nothing }
        var due = [outcome]
        if inOrder {
            early[id] = outcome
            due = []
            while let next = early.removeValue(forKey: nextToSend) {
                due.append(next)
                nextToSend += 1
            }
        }
        var events: [Event] = []
        for outcome in due {
            switch outcome {
            case .success(let value):
                events.append(.value(value))
            case .failure(let error) where onFailure == .failSignal:
                return .sendThenCancel(events + [.failed(error)], takeTrackedNewestFirst())
            case .failure, .cancelled:
                break
            }
        }
        if isDone { events.append(.completed) }
        return events.isEmpty ? .nothing : .send(events)
    }

    /// The source signal completed: the mapped one completes now if nothing is left,
    /// otherwise with the last outcome.
    mutating func sourceCompleted() -> Action {
        sourceHasCompleted = true
        return isDone ? .send([.completed]) : .nothing
    }

    /// The mapped signal ended (or is being stopped): every future in flight is handed
    /// back to cancel, newest first (the limiter's queued units are the newest, and
    /// removing them before a running one frees its slot keeps them from starting), and
    /// their outcomes no longer count; outcomes that came before their turn are handed
    /// back to release.
    mutating func cancelledAll() -> Action {
        hasStopped = true
        let futures = takeTrackedNewestFirst()
        let dropped = Array(early.values)
        early = [:]
        return futures.isEmpty && dropped.isEmpty ? .nothing : .cancel(futures, dropped: dropped)
    }

    /// The source has completed and no outcome is awaited or waiting for its turn (nor
    /// dropped by ``cancelledAll()``).
    private var isDone: Bool {
        sourceHasCompleted && tracked.isEmpty && early.isEmpty && !hasStopped
    }

    /// Stops tracking every future, and returns them newest first.
    private mutating func takeTrackedNewestFirst() -> [Interest] {
        defer { tracked = [:] }
        return tracked.sorted { $0.key > $1.key }.map(\.value)
    }
}
