import Dispatch
import FutureBridge
import FutureBridgeInternals
import FutureBridgeTesting
import TestSupport
import Testing

@testable import Reactive

/// A value that counts how many of its kind are alive, to show what an operator keeps.
final class Tracked: Sendable, CustomStringConvertible {
    /// How many values counted by one `live` are alive.
    final class Live: Sendable {
        fileprivate let count = Locked(0)
        var now: Int { count.withLock { $0 } }
    }

    let number: Int
    let live: Live

    init(_ number: Int, _ live: Live) {
        self.number = number
        self.live = live
        live.count.withLock { $0 += 1 }
    }

    deinit {
        live.count.withLock { $0 -= 1 }
    }

    var description: String { "\(number)" }
}

@Suite struct SignalOperatorsTests {
    /// Sends `values` then completes, and returns what `transform`'s signal delivered.
    static func run<Output>(_ values: [Int], _ transform: (Signal<Int>) -> Signal<Output>) -> [String] {
        let (signal, input) = Signal<Int>.pipe()
        let events = record(transform(signal))
        for value in values { input.send(value) }
        input.sendCompleted()
        return events.all
    }

    @Test func mapFilterAndCompactMap() {
        #expect(Self.run([1, 2, 3]) { $0.map { $0 * 10 } } == ["10", "20", "30", "completed"])
        #expect(Self.run([1, 2, 3, 4]) { $0.filter { $0.isMultiple(of: 2) } } == ["2", "4", "completed"])
        #expect(Self.run([1, 2, 3]) { $0.compactMap { $0 == 2 ? nil : "#\($0)" } } == ["#1", "#3", "completed"])
    }

    @Test func scanSendsTheRunningAccumulation() {
        #expect(Self.run([1, 2, 3]) { $0.scan(0, +) } == ["1", "3", "6", "completed"])
    }

    @Test func takeFirstCompletesAndDetachesFromTheSource() {
        let stops = Counter()
        let (signal, input) = Signal<Int>.pipe(onStop: { stops.increment() })
        let events = record(signal.take(first: 2))
        input.send(1)
        input.send(2)
        #expect(events.all == ["1", "2", "completed"])
        #expect(stops.count == 1)  // its only observer, the take, detached
        #expect(record(Signal<Int>.pipe().signal.take(first: 0)).all == ["completed"])
    }

    @Test func takeWhileAndSkip() {
        #expect(Self.run([1, 2, 5, 1]) { $0.take(while: { $0 < 3 }) } == ["1", "2", "completed"])
        #expect(Self.run([1, 2, 3, 4]) { $0.skip(first: 2) } == ["3", "4", "completed"])
    }

    @Test func terminalEventsPassThroughOperators() {
        let (signal, input) = Signal<Int>.pipe()
        let events = record(signal.map { $0 }.filter { _ in true }.scan(0, +))
        input.sendFailed(TestError(code: 3))
        #expect(events.all == ["failed(TestError(code: 3))"])
    }

    @Test func detachingTheLastObserverOfAChainStopsItsSource() {
        let stops = Counter()
        let (signal, input) = Signal<Int>.pipe(onStop: { stops.increment() })
        let chain = signal.map { $0 + 1 }.filter { $0 > 0 }
        let observation = chain.observe { _ in }
        input.send(1)
        observation.detach()
        #expect(stops.count == 1)
        #expect(record(chain).all == ["interrupted"])
    }

    @Test func mergeCompletesOnceAllHaveCompleted() {
        let (a, inputA) = Signal<Int>.pipe()
        let (b, inputB) = Signal<Int>.pipe()
        let events = record(a.merge(with: b))
        inputA.send(1)
        inputB.send(2)
        inputA.sendCompleted()
        inputB.send(3)
        #expect(events.all == ["1", "2", "3"])
        inputB.sendCompleted()
        #expect(events.all == ["1", "2", "3", "completed"])
    }

    @Test func mergeEndsAtTheFirstFailureAndDetachesFromTheOthers() {
        let stops = Counter()
        let (a, inputA) = Signal<Int>.pipe()
        let (b, inputB) = Signal<Int>.pipe(onStop: { stops.increment() })
        let events = record(Signal.merge([a, b]))
        inputA.sendFailed(TestError())
        #expect(events.all == ["failed(TestError(code: 1))"])
        #expect(stops.count == 1)
        withExtendedLifetime(inputB) {}
    }

    @Test func combineLatestPairsTheLatestValues() {
        let (numbers, numberInput) = Signal<Int>.pipe()
        let (words, wordInput) = Signal<String>.pipe()
        let events = record(Signal.combineLatest(numbers, words))
        numberInput.send(1)
        numberInput.send(2)
        wordInput.send("a")
        numberInput.send(3)
        wordInput.send("b")
        numberInput.sendCompleted()
        wordInput.sendCompleted()
        #expect(events.all == ["(2, \"a\")", "(3, \"a\")", "(3, \"b\")", "completed"])
    }

    @Test func combineLatestUnderConcurrentSendersStaysConsistent() {
        let count = stressIterations(20_000, atLeast: 5_000)
        let (numbers, numberInput) = Signal<Int>.pipe()
        let (others, otherInput) = Signal<Int>.pipe()
        let pairs = Recorder<(Int, Int)>()
        Signal.combineLatest(numbers, others).observeValues { pairs.append($0) }
        otherInput.send(0)
        numberInput.send(0)
        DispatchQueue.concurrentPerform(iterations: 2) { sender in
            for value in 1...count { (sender == 0 ? numberInput : otherInput).send(value) }
        }
        let all = pairs.all
        #expect(all.count == 2 * count + 1)
        // Pairs are delivered in the order they were formed: neither side ever goes back.
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.0 <= $1.0 && $0.1 <= $1.1 })
    }

    @Test func receiveOnDeliversOnTheExecutorInOrder() {
        let executor = ManualExecutor()
        let (signal, input) = Signal<Int>.pipe()
        let events = record(signal.receive(on: executor.context).map { $0 * 2 })
        input.send(1)
        input.send(2)
        input.sendCompleted()
        #expect(events.all.isEmpty)
        executor.runAll()
        #expect(events.all == ["2", "4", "completed"])
    }
}

extension SignalOperatorsTests {
    @Test func removeDuplicatesSendsEachRunOfEqualValuesOnce() {
        #expect(Self.run([1, 1, 2, 2, 2, 1, 3, 3]) { $0.removeDuplicates() } == ["1", "2", "1", "3", "completed"])
        #expect(Self.run([]) { $0.removeDuplicates() } == ["completed"])
    }

    @Test func removeDuplicatesByComparesEachValueWithTheOneReceivedBeforeIt() {
        // "Closer than 2": 1, 2, 3, 4 each repeat the value before them, although 4 is far
        // from 1, the last value sent (Combine's rule).
        let close = { @Sendable (a: Int, b: Int) in abs(a - b) < 2 }
        #expect(Self.run([1, 2, 3, 4, 7, 8]) { $0.removeDuplicates(by: close) } == ["1", "7", "completed"])
    }

    @Test func removeDuplicatesPassesTerminalEventsAndDetaches() {
        let stops = Counter()
        let (signal, input) = Signal<Int>.pipe(onStop: { stops.increment() })
        let events = Recorder<String>()
        let observation = signal.removeDuplicates().observe { events.append(describe($0)) }
        input.send(1)
        observation.detach()
        #expect(stops.count == 1)
        let (failing, failingInput) = Signal<Int>.pipe()
        let failed = record(failing.removeDuplicates())
        failingInput.send(1)
        failingInput.sendFailed(TestError())
        #expect(events.all == ["1"] && failed.all == ["1", "failed(TestError(code: 1))"])
    }

    /// A million values in runs of a thousand: one value per run goes out, and the
    /// operator keeps one value (the one before) at any time.
    @Test func aMillionValuesThroughRemoveDuplicatesKeepOneValue() {
        let count = stressIterations(1_000_000, atLeast: 100_000)
        let live = Tracked.Live()
        let (signal, input) = Signal<Tracked>.pipe()
        let sent = Counter()
        signal.removeDuplicates { $0.number == $1.number }.observeValues { _ in sent.increment() }
        var most = 0
        for index in 0..<count {
            input.send(Tracked(index / 1_000, live))
            most = max(most, live.now)
        }
        #expect(most == 1)
        #expect(sent.count == (count + 999) / 1_000)
        input.sendCompleted()
        #expect(live.now == 0)
    }
}
