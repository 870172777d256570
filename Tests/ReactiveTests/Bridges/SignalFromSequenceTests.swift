import Dispatch
import FutureBridge
import FutureBridgeInternals
import TestSupport
import Testing

@testable import Reactive

/// `Signal(sequence)`'s task keeps the signal's delivery turn for its whole iteration,
/// awaits included: what others send meanwhile (the last observer's interruption) must
/// neither wait for the task's next element nor overtake or tear its values.
@Suite(.timeLimit(.minutes(1)))
struct SignalFromSequenceTests {
    /// One element, produced once ``open()`` is called; the wait does not answer
    /// cancellation, like many hand-written sequences.
    final class Gate: Sendable {
        let waiting = Promise<Void>()
        let cancelledWhenOpened = Promise<Bool>()
        let askedAgain = Promise<Void>()
        private let continuation = Locked<CheckedContinuation<Void, Never>?>(nil)

        func wait() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                self.continuation.withLock { $0 = continuation }
                waiting.succeed()
            }
            cancelledWhenOpened.succeed(Task.isCancelled)
        }

        func open() {
            continuation.withLock { $0.take() }?.resume()
        }
    }

    /// `before`, at once; then the element 1 once the gate opens (or, without
    /// `producesElement`, the end); then the end.
    struct GatedElement: AsyncSequence, Sendable {
        let gate: Gate
        var before: [Int] = []
        var producesElement = true

        struct AsyncIterator: AsyncIteratorProtocol {
            let gate: Gate
            var before: [Int]
            let producesElement: Bool
            var passedGate = false

            mutating func next() async -> Int? {
                if !before.isEmpty { return before.removeFirst() }
                guard !passedGate else {
                    gate.askedAgain.succeed()
                    return nil
                }
                passedGate = true
                await gate.wait()
                return producesElement ? 1 : nil
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(gate: gate, before: before, producesElement: producesElement)
        }
    }

    /// Succeeds `released` when the handler that captured it is released.
    final class Witness: Sendable {
        let released: Promise<Void>
        init(_ released: Promise<Void>) { self.released = released }
        deinit { released.succeed() }
    }

    /// The task waits for its sequence, holding the turn, when the last observer leaves:
    /// the signal ends at once (a later observer gets the interruption at once) and the
    /// task is cancelled at once, although the sequence will not wake it.
    @Test func theLastObserverLeavingWhileTheTaskWaitsEndsTheSignalAndCancelsTheTaskAtOnce() async throws {
        let gate = Gate()
        let signal = Signal(GatedElement(gate: gate))
        let seen = Recorder<Signal<Int>.Event>()
        let observation = signal.observe { seen.append($0) }
        _ = await gate.waiting.future.outcome
        observation.detach()

        let late = Recorder<Signal<Int>.Event>()
        signal.observe { late.append($0) }
        #expect(late.all.count == 1)
        #expect(late.all.first?.isTerminal == true)
        guard case .interrupted? = late.all.first else {
            Issue.record("expected the later observer to get the interruption, got \(late.all)")
            return
        }

        gate.open()
        #expect(try await gate.cancelledWhenOpened.future.value)
        _ = await gate.askedAgain.future.outcome
        #expect(seen.all.isEmpty)  // detached before anything came
        #expect(late.all.count == 1)
    }

    /// Values go out in order to observers that come and go on other threads while the
    /// task delivers them: each visitor, attached on another thread, leaves from its own
    /// handler after ten values, and what it saw is a run of consecutive values.
    @Test func observersComingAndGoingOnOtherThreadsSeeConsecutiveValues() async {
        let count = 200
        let runs = Recorder<Recorder<Int>>()
        let rounds = stressIterations(300, atLeast: 30)
        for round in 0..<rounds {
            if stoppedByItsTimeLimit(after: "\(round) of \(rounds) rounds") { return }
            let (stream, continuation) = AsyncStream<Int>.makeStream()
            let signal = Signal(stream)
            let handles = Recorder<Locked<SignalObservation?>>()
            let anchorValues = Recorder<Int>()
            let anchorEnded = Promise<Void>()
            let anchor = signal.observe { event in
                if case .value(let value) = event { anchorValues.append(value) } else { anchorEnded.succeed() }
            }
            await onAnotherThread {
                DispatchQueue.concurrentPerform(iterations: 3) { index in
                    guard index > 0 else {
                        for value in 0..<count { continuation.yield(value) }
                        return continuation.finish()
                    }
                    for _ in 0..<20 {
                        let values = Recorder<Int>()
                        let handle = Locked<SignalObservation?>(nil)
                        let visitor = signal.observeValues { value in
                            values.append(value)
                            if values.all.count == 10 { handle.withLock { $0.take() }?.detach() }
                        }
                        handle.withLock { $0 = visitor }
                        handles.append(handle)
                        runs.append(values)
                    }
                }
            }
            _ = await anchorEnded.future.outcome
            // The handler holds its handle, which holds the handler: let go of the ones
            // that did not leave by themselves.
            for handle in handles.all { handle.withLock { $0 = nil } }
            #expect(anchorValues.all == Array(0..<count))
            anchor.detach()
        }
        let seen = runs.all.map(\.all)
        #expect(seen.allSatisfy { run in zip(run, run.dropFirst()).allSatisfy { $1 == $0 + 1 } })
        #expect(seen.contains { $0.count >= 10 })  // the check above is not empty
    }

    /// The last observer leaves on one thread while values are yielded on another: the
    /// signal ends once, before the task is cancelled, and the observer that left gets
    /// nothing more.
    @Test func theLastObserverLeavingWhileValuesFlowEndsTheSignalOnceAndCancelsTheTask() async {
        let rounds = stressIterations(300, atLeast: 30)
        for round in 0..<rounds {
            if stoppedByItsTimeLimit(after: "\(round) of \(rounds) rounds") { return }
            let (stream, continuation) = AsyncStream<Int>.makeStream()
            let terminated = Promise<Void>()
            continuation.onTermination = { _ in terminated.succeed() }
            let signal = Signal(stream)
            let terminals = Counter()
            let observation = signal.observe { if $0.isTerminal { terminals.increment() } }
            await onAnotherThread {
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 {
                        for value in 0..<100 { continuation.yield(value) }
                    } else {
                        observation.detach()
                    }
                }
            }
            _ = await terminated.future.outcome  // the iterating task was cancelled
            let late = Recorder<Bool>()
            signal.observe { late.append($0.isTerminal) }
            #expect(late.all == [true])
            #expect(terminals.count == 0)
        }
    }

    /// While the task waits, holding the turn, another thread's interruption finds an
    /// observer attached: it is queued for the task, which is cancelled at once and
    /// delivers it before its next element; the element goes to nobody.
    @Test func anInterruptionQueuedWhileTheTaskWaitsIsDeliveredBeforeItsNextElement() async throws {
        let gate = Gate()
        let signal = Signal(GatedElement(gate: gate))
        let seen = Recorder<Signal<Int>.Event>()
        signal.observe { seen.append($0) }
        _ = await gate.waiting.future.outcome
        #expect(signal.storage.turn.count == 1)  // the task holds the turn while it waits

        signal.storage.send(.interrupted)
        #expect(seen.all.isEmpty)  // queued for the task
        #expect(signal.storage.turn.count == 2)

        gate.open()
        #expect(try await gate.cancelledWhenOpened.future.value)
        _ = await gate.askedAgain.future.outcome
        #expect(seen.all.count == 1)
        guard case .interrupted? = seen.all.first else {
            Issue.record("expected only the interruption, got \(seen.all)")
            return
        }
    }

    /// The task finds a delivery in progress when it starts (the turn taken): it sends
    /// each element as any sender does, and they arrive all the same.
    @Test func aTaskThatFindsTheTurnTakenSendsAsAnySenderDoes() async {
        let gate = Gate()
        let signal = Signal(GatedElement(gate: gate))
        #expect(signal.storage.turn.claimIfIdle())  // as a delivery in progress would
        let seen = Recorder<Signal<Int>.Event>()
        let ended = Promise<Void>()
        signal.observe { event in
            seen.append(event)
            if event.isTerminal { ended.succeed() }
        }
        _ = await gate.waiting.future.outcome
        #expect(!signal.storage.state.withLock { $0.sourceHoldsTurn })
        #expect(!signal.storage.turn.finishOne())  // nothing was queued meanwhile
        gate.open()
        _ = await ended.future.outcome
        #expect(seen.all.map(\.value) == [1, nil])
        #expect(seen.all.last?.isTerminal == true)
        // The turn is given back: the observer ran inside the delivery, and the sending task
        // gives the turn back once the observers have returned, so this task may get here
        // first (it did once, under ThreadSanitizer). It yields until then; a turn never
        // given back fails the test at its time limit.
        while signal.storage.turn.count != 0 { await Task.yield() }
    }

    /// The signal ended on the detaching thread while the task waited, and the task's
    /// next event is its own end: the observers that left are released then, not kept by
    /// the task's copy of them (made when it delivered the element before it waited).
    @Test func theObserversThatLeftAreReleasedWhenTheTaskEnds() async {
        let gate = Gate()
        let signal = Signal(GatedElement(gate: gate, before: [0], producesElement: false))
        let released = Promise<Void>()
        do {
            let witness = Witness(released)
            let observation = signal.observe { _ in withExtendedLifetime(witness) {} }
            _ = await gate.waiting.future.outcome
            observation.detach()
        }
        gate.open()
        _ = await released.future.outcome  // hangs to the time limit if the copy keeps it
        #expect(released.future.isCompleted)
    }
}
