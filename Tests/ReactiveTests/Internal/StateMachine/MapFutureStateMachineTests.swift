import FutureBridge
import TestSupport
import Testing

@testable import Reactive

/// Every transition of ``MapFutureStateMachine``, without threads: the machine only holds
/// interests in futures and hands them back; these tests check what it hands back. The
/// interests are completed futures, `Future(value: n)` for the n-th future tracked, so that
/// a handed-back one says which it is; the outcomes reported are made up separately.
@Suite struct MapFutureStateMachineTests {
    typealias Machine = MapFutureStateMachine<Int, Future<Int>>

    /// A machine for `strategy` with `count` futures started (ids 0 to `count - 1`).
    static func machine(
        _ strategy: MapFutureStrategy, onFailure: InnerFailurePolicy = .failSignal, started count: Int
    ) -> Machine {
        var machine = Machine(strategy: strategy, onFailure: onFailure)
        for index in 0..<count { _ = machine.started(Future(value: index)) }
        return machine
    }

    /// Which futures these are (the n of `Future(value: n)`), in order.
    static func labels(_ futures: [Future<Int>]) -> [Int] {
        futures.map { future in
            guard case .success(let label) = future.peek() else { return -1 }
            return label
        }
    }

    /// The events of `action` as short strings.
    static func sent(_ action: Machine.Action) -> [String] {
        action.events.map(describe)
    }

    /// The id `action` watches, and the label of the future it cancels first, if any.
    static func watched(_ action: Machine.TrackAction) -> (id: Int, superseded: Int?) {
        switch action {
        case .watch(let id): (id, nil)
        case .cancelThenWatch(let superseded, let id): (id, labels([superseded])[0])
        case .cancel(let stopped): (-1, labels([stopped])[0])
        }
    }

    // MARK: Tracking

    @Test func startedFuturesAreWatchedUnderIdsInStartOrder() {
        var machine = Machine(strategy: .merge(), onFailure: .failSignal)
        let ids = (0..<3).map { Self.watched(machine.started(Future(value: $0))) }
        #expect(ids.map(\.id) == [0, 1, 2])
        #expect(ids.allSatisfy { $0.superseded == nil })  // merge and concat never supersede
        #expect(machine.tracked.keys.sorted() == [0, 1, 2])
    }

    @Test func latestSupersedesTheFutureInFlightAndHandsItBack() {
        var machine = Machine(strategy: .latest, onFailure: .failSignal)
        let first = Self.watched(machine.replaced(with: Future(value: 0)))
        #expect(first.id == 0 && first.superseded == nil)
        let second = Self.watched(machine.replaced(with: Future(value: 1)))
        #expect(second.id == 1 && second.superseded == 0)  // the storage cancels it, then watches 1
        #expect(machine.tracked.keys.sorted() == [1])
        #expect(machine.latestID == 1)
    }

    /// The transform returned the future already in flight: the machine hands back the
    /// superseded interest and tracks the new one, which the storage took first, so the
    /// future keeps an interest and the request does not reach it (the rule of
    /// `FutureStateTests.requestWaitsForEveryInterestToBeWithdrawn`).
    @Test func latestWithTheSameFutureHandsBackOnlyTheSupersededInterest() {
        var machine = Machine(strategy: .latest, onFailure: .failSignal)
        let memoized = Future(value: 7)
        _ = machine.replaced(with: memoized)
        let second = Self.watched(machine.replaced(with: memoized))
        #expect(second.id == 1 && second.superseded == 7)
        #expect(machine.tracked.keys.sorted() == [1])
        #expect(Self.sent(machine.futureCompleted(1, .success(7))) == ["7"])
        guard case .nothing = machine.futureCompleted(0, .success(7)) else {
            return #expect(Bool(false), "the superseded id no longer counts, whatever its future")
        }
    }

    @Test func latestDoesNotHandBackAFutureThatAlreadyCompleted() {
        var machine = Machine(strategy: .latest, onFailure: .failSignal)
        _ = machine.replaced(with: Future(value: 0))
        #expect(Self.sent(machine.futureCompleted(0, .success(0))) == ["0"])
        let next = Self.watched(machine.replaced(with: Future(value: 1)))
        #expect(next.id == 1 && next.superseded == nil)  // nothing left to cancel
    }

    @Test func lateOutcomeOfASupersededFutureIsIgnored() {
        var machine = Machine(strategy: .latest, onFailure: .failSignal)
        _ = machine.replaced(with: Future(value: 0))
        _ = machine.replaced(with: Future(value: 1))
        guard case .nothing = machine.futureCompleted(0, .failure(TestError())) else {
            return #expect(Bool(false), "a superseded future neither sends nor fails")
        }
        #expect(Self.sent(machine.futureCompleted(1, .success(1))) == ["1"])
    }

    // MARK: Merge

    @Test func mergeSendsOutcomesAsTheyComeAndCompletesAfterTheLast() {
        var machine = Self.machine(.merge(maxConcurrent: 2), started: 3)
        #expect(Self.sent(machine.futureCompleted(2, .success(2))) == ["2"])
        guard case .nothing = machine.sourceCompleted() else {
            return #expect(Bool(false), "two futures are still in flight")
        }
        #expect(Self.sent(machine.futureCompleted(0, .success(0))) == ["0"])
        #expect(Self.sent(machine.futureCompleted(1, .success(1))) == ["1", "completed"])
    }

    // MARK: Concat

    @Test func concatKeepsOutcomesThatCameEarlyUntilTheirTurn() {
        var machine = Self.machine(.concat, started: 4)
        #expect(Self.sent(machine.futureCompleted(2, .success(2))).isEmpty)
        #expect(Self.sent(machine.futureCompleted(1, .success(1))).isEmpty)
        #expect(machine.early.keys.sorted() == [1, 2])
        #expect(Self.sent(machine.futureCompleted(0, .success(0))) == ["0", "1", "2"])
        #expect(machine.early.isEmpty && machine.nextToSend == 3)
        #expect(Self.sent(machine.futureCompleted(3, .success(3))) == ["3"])
    }

    @Test func concatCompletesOnlyOnceTheEarlyOutcomesHaveGoneOut() {
        var machine = Self.machine(.concat, started: 2)
        _ = machine.futureCompleted(1, .success(1))  // nothing tracked but 0, 1 waits
        guard case .nothing = machine.sourceCompleted() else {
            return #expect(Bool(false), "the outcome of 1 has not gone out")
        }
        #expect(Self.sent(machine.futureCompleted(0, .success(0))) == ["0", "1", "completed"])
    }

    @Test func concatHoldsTheCompletionWhileAnOutcomeWaitsForItsTurn() {
        var machine = Self.machine(.concat, started: 2)
        _ = machine.futureCompleted(1, .success(1))
        _ = machine.cancelledAll()  // 0, before it, will never go out: the signal is ending
        guard case .nothing = machine.sourceCompleted() else {
            return #expect(Bool(false), "the outcome of 1 never went out, and was dropped")
        }
    }

    /// A value still being delivered as the mapped signal stops maps to a future after
    /// `cancelledAll()`: the machine does not track it and hands its interest back at once,
    /// so that it is cancelled like the others.
    @Test(arguments: [MapFutureStrategy.concat, .merge(), .latest])
    func aFutureStartedAfterTheStopIsHandedBackAtOnce(strategy: MapFutureStrategy) {
        var machine = Self.machine(strategy, started: 0)
        _ = machine.cancelledAll()
        let late = Future(value: 7)
        let action = strategy == .latest ? machine.replaced(with: late) : machine.started(late)
        guard case .cancel(let handedBack) = action else { return #expect(Bool(false)) }
        #expect(Self.labels([handedBack]) == [7])
        #expect(machine.tracked.isEmpty)
    }

    @Test func cancelledAllDropsTheOutcomesThatCameBeforeTheirTurn() {
        var machine = Self.machine(.concat, started: 3)
        _ = machine.futureCompleted(2, .success(2))
        _ = machine.futureCompleted(1, .success(1))
        guard case .cancel(let futures, let dropped) = machine.cancelledAll() else { return #expect(Bool(false)) }
        #expect(Self.labels(futures) == [0])
        #expect(dropped.compactMap(\.value).sorted() == [1, 2])  // released by the storage, after unlocking
        #expect(machine.early.isEmpty)
    }

    @Test func concatSkipsACancelledOrSkippedOutcomeInItsTurn() {
        var machine = Self.machine(.concat, onFailure: .skip, started: 3)
        _ = machine.futureCompleted(2, .success(2))
        _ = machine.futureCompleted(1, .cancelled)
        #expect(Self.sent(machine.futureCompleted(0, .failure(TestError()))) == ["2"])
        #expect(machine.nextToSend == 3)
    }

    @Test func concatFailureStopsTheOutcomesAfterItAndCancelsTheRest() {
        var machine = Self.machine(.concat, started: 4)
        _ = machine.futureCompleted(2, .success(2))
        _ = machine.futureCompleted(1, .failure(TestError(code: 7)))
        let action = machine.futureCompleted(0, .success(0))
        #expect(Self.sent(action) == ["0", "failed(TestError(code: 7))"])  // 2 never goes out
        #expect(Self.labels(action.futuresToCancel) == [3])
        guard case .nothing = machine.futureCompleted(3, .success(3)) else {
            return #expect(Bool(false), "a future cancelled by the failure no longer counts")
        }
    }

    // MARK: The source's completion

    @Test(arguments: [MapFutureStrategy.concat, .merge(), .latest])
    func sourceCompletedWithNothingInFlightCompletesAtOnce(strategy: MapFutureStrategy) {
        var machine = Machine(strategy: strategy, onFailure: .failSignal)
        #expect(Self.sent(machine.sourceCompleted()) == ["completed"])
    }

    @Test func sourceCompletedAfterTheLastOutcomeCompletesAtOnce() {
        var machine = Self.machine(.merge(), started: 1)
        _ = machine.futureCompleted(0, .success(0))
        #expect(Self.sent(machine.sourceCompleted()) == ["completed"])
    }

    @Test func latestCompletesWithTheOutcomeOfTheLatestFuture() {
        var machine = Machine(strategy: .latest, onFailure: .failSignal)
        _ = machine.replaced(with: Future(value: 0))
        _ = machine.replaced(with: Future(value: 1))
        guard case .nothing = machine.sourceCompleted() else {
            return #expect(Bool(false), "the latest future is still in flight")
        }
        #expect(Self.sent(machine.futureCompleted(1, .success(1))) == ["1", "completed"])
    }

    // MARK: Failure policies

    @Test func failSignalFailsAndHandsBackTheOthersNewestFirst() {
        var machine = Self.machine(.merge(), started: 4)
        _ = machine.futureCompleted(1, .success(1))
        let action = machine.futureCompleted(2, .failure(TestError(code: 3)))
        guard case .sendThenCancel = action else { return #expect(Bool(false)) }
        #expect(Self.sent(action) == ["failed(TestError(code: 3))"])
        #expect(Self.labels(action.futuresToCancel) == [3, 0])
        #expect(machine.tracked.isEmpty)
        guard case .nothing = machine.futureCompleted(0, .success(0)) else {
            return #expect(Bool(false), "a future cancelled by the failure no longer counts")
        }
    }

    @Test func failSignalWithNothingElseInFlightCancelsNothing() {
        var machine = Self.machine(.merge(), started: 1)
        let action = machine.futureCompleted(0, .failure(TestError()))
        #expect(Self.sent(action) == ["failed(TestError(code: 1))"])
        #expect(action.futuresToCancel.isEmpty)
    }

    @Test(arguments: [InnerFailurePolicy.failSignal, .skip])
    func cancelledOutcomeIsSkippedWhateverThePolicy(policy: InnerFailurePolicy) {
        var machine = Self.machine(.merge(), onFailure: policy, started: 2)
        guard case .nothing = machine.futureCompleted(0, .cancelled) else {
            return #expect(Bool(false), "a cancelled future neither sends nor fails")
        }
        #expect(machine.tracked.keys.sorted() == [1])
    }

    @Test func skipDropsTheFailureAndGoesOn() {
        var machine = Self.machine(.merge(), onFailure: .skip, started: 2)
        _ = machine.sourceCompleted()
        guard case .nothing = machine.futureCompleted(0, .failure(TestError())) else {
            return #expect(Bool(false), "a skipped failure neither sends nor fails")
        }
        #expect(Self.sent(machine.futureCompleted(1, .success(1))) == ["1", "completed"])
    }

    @Test func skippedLastFailureStillCompletes() {
        var machine = Self.machine(.merge(), onFailure: .skip, started: 1)
        _ = machine.sourceCompleted()
        #expect(Self.sent(machine.futureCompleted(0, .failure(TestError()))) == ["completed"])
    }

    // MARK: Cancelling all

    @Test func cancelledAllHandsBackEveryFutureInFlightNewestFirst() {
        var machine = Self.machine(.merge(maxConcurrent: 2), started: 4)
        _ = machine.futureCompleted(1, .success(1))
        let action = machine.cancelledAll()
        guard case .cancel(let futures, let dropped) = action else { return #expect(Bool(false)) }
        #expect(Self.labels(futures) == [3, 2, 0])
        #expect(dropped.isEmpty)
        #expect(action.events.isEmpty)
        guard case .nothing = machine.cancelledAll() else {
            return #expect(Bool(false), "nothing is left to cancel")
        }
    }

    @Test func lateOutcomeOfAStoppedFutureIsIgnored() {
        var machine = Self.machine(.concat, started: 2)
        _ = machine.cancelledAll()
        guard case .nothing = machine.futureCompleted(0, .success(0)) else {
            return #expect(Bool(false), "a stopped future no longer counts")
        }
        guard case .nothing = machine.futureCompleted(1, .failure(TestError())) else {
            return #expect(Bool(false), "a stopped future no longer counts")
        }
    }
}
