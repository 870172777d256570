import Dispatch
import FutureBridge
import FutureBridgeInternals
import FutureBridgeTesting
import TestSupport
import Testing

@testable import Reactive

/// A value that detaches an observation when it is released.
final class DetachesWhenReleased: Sendable {
    let observation: Locked<SignalObservation?>

    init(_ observation: Locked<SignalObservation?>) {
        self.observation = observation
    }

    deinit {
        observation.withLock { $0 }?.detach()
    }
}

/// ``Signal/debounce(for:timekeeper:)`` and ``Signal/throttle(for:latest:timekeeper:)``
/// driven by a ``ManualClock``: every documented rule at the instants around its
/// boundaries, both forms (the `Duration` + `Clock` form in the async tests), races from
/// several threads, and a million values with nothing piling up.
@Suite struct SignalTimeTests {
    /// A pipe, the operator `makeOperator` builds on it with the clock's timekeeper, and
    /// what that operator delivers.
    struct Fixture {
        let clock = ManualClock()
        let input: SignalInput<Int>
        let output: Signal<Int>
        let events: Recorder<String>

        init(_ makeOperator: (Signal<Int>, Timekeeper) -> Signal<Int>) {
            let (signal, input) = Signal<Int>.pipe()
            self.input = input
            output = makeOperator(signal, clock.timekeeper)
            events = record(output)
        }

        /// Moves the clock to `milliseconds` after it started.
        func at(_ milliseconds: UInt64) {
            clock.advance(to: ManualClock.Instant(nanoseconds: milliseconds * 1_000_000))
        }
    }

    static let second = DispatchTimeInterval.seconds(1)

    // MARK: debounce

    @Test func debounceSendsTheLatestValueOnceTheIntervalPassesWithoutANewOne() {
        let run = Fixture { $0.debounce(for: Self.second, timekeeper: $1) }
        run.input.send(1)
        run.at(999)
        run.input.send(2)  // replaces 1 and waits again, until 1,999 ms
        run.at(1_998)
        #expect(run.events.all == [])
        run.at(1_999)
        #expect(run.events.all == ["2"])
        #expect(run.clock.sleeperCount == 0)
        run.input.send(3)  // a new wait
        run.at(2_998)
        #expect(run.events.all == ["2"])
        run.at(2_999)
        #expect(run.events.all == ["2", "3"])
    }

    @Test func debounceCompletionSendsTheHeldValueFirstThenCompletes() {
        let run = Fixture { $0.debounce(for: Self.second, timekeeper: $1) }
        run.input.send(1)
        run.input.send(2)
        run.input.sendCompleted()
        #expect(run.events.all == ["2", "completed"])  // at once: the clock has not moved
        #expect(run.clock.sleeperCount == 0)
        let idle = Fixture { $0.debounce(for: Self.second, timekeeper: $1) }
        idle.input.sendCompleted()
        #expect(idle.events.all == ["completed"])
    }

    @Test(arguments: [Signal<Int>.Event.failed(TestError()), .interrupted])
    func debounceFailureOrInterruptionGoesOutAtOnceAndDropsTheHeldValue(end: Signal<Int>.Event) {
        let live = Tracked.Live()
        let (signal, input) = Signal<Tracked>.pipe()
        let clock = ManualClock()
        let events = record(signal.debounce(for: Self.second, timekeeper: clock.timekeeper))
        input.send(Tracked(1, live))
        input.send(end.retyped())
        #expect(events.all == [describe(end)])
        #expect(clock.sleeperCount == 0 && live.now == 0)  // no timer, nothing kept
        clock.advance(byInterval: .seconds(5))
        #expect(events.all == [describe(end)])
    }

    @Test func debounceDetachCancelsTheTimerAndKeepsNothing() {
        let live = Tracked.Live()
        let stops = Counter()
        let (signal, input) = Signal<Tracked>.pipe(onStop: { stops.increment() })
        let clock = ManualClock()
        let debounced = signal.debounce(for: Self.second, timekeeper: clock.timekeeper)
        let events = Recorder<String>()
        let observation = debounced.observe { events.append(describe($0)) }
        input.send(Tracked(1, live))
        #expect(clock.sleeperCount == 1 && live.now == 1)
        observation.detach()
        #expect(clock.sleeperCount == 0 && live.now == 0)
        #expect(stops.count == 1)  // its last observer left: the source is told to stop
        clock.advance(byInterval: .seconds(5))
        #expect(events.all == [])
        withExtendedLifetime(input) {}
    }

    // MARK: throttle

    @Test(arguments: [true, false])
    func throttleSendsTheFirstOrTheLatestValueOfEachWindow(latest: Bool) {
        let run = Fixture { $0.throttle(for: Self.second, latest: latest, timekeeper: $1) }
        run.input.send(1)  // no window open: at once, and a window until 1,000 ms
        #expect(run.events.all == ["1"])
        run.at(200)
        run.input.send(2)
        run.at(400)
        run.input.send(3)
        run.at(999)
        #expect(run.events.all == ["1"])
        run.at(1_000)  // the value kept, and a window until 2,000 ms
        #expect(run.events.all == ["1", latest ? "3" : "2"])
        run.input.send(4)
        run.input.send(5)
        run.at(2_000)
        #expect(run.events.all == (latest ? ["1", "3", "5"] : ["1", "2", "4"]))
    }

    @Test(arguments: [true, false])
    func throttleWindowBoundaries(latest: Bool) {
        let run = Fixture { $0.throttle(for: Self.second, latest: latest, timekeeper: $1) }
        run.input.send(1)  // window [0, 1,000)
        run.at(999)
        run.input.send(2)  // 1 ms before the end: waits
        #expect(run.events.all == ["1"])
        run.at(1_000)  // sent at the end, which opens [1,000, 2,000)
        #expect(run.events.all == ["1", "2"])
        run.at(1_999)
        run.input.send(3)  // 1 ms before the end of the window 2 opened: waits
        #expect(run.events.all == ["1", "2"])
        run.at(2_000)  // [2,000, 3,000)
        #expect(run.events.all == ["1", "2", "3"])
        run.at(3_000)  // ends with nothing waiting: no window is open
        #expect(run.clock.sleeperCount == 0)
        run.input.send(4)  // exactly at the end of the last window: at once
        #expect(run.events.all == ["1", "2", "3", "4"])
        run.at(3_500)
        run.input.send(5)
        run.at(3_999)
        #expect(run.events.all == ["1", "2", "3", "4"])
        run.at(4_000)  // the window opened by 4 at 3,000 ms
        #expect(run.events.all == ["1", "2", "3", "4", "5"])
    }

    @Test(arguments: [true, false])
    func throttleCompletionSendsTheWaitingValueAtOnceThenCompletes(latest: Bool) {
        let run = Fixture { $0.throttle(for: Self.second, latest: latest, timekeeper: $1) }
        run.input.send(1)
        run.input.send(2)
        run.input.send(3)
        run.input.sendCompleted()
        #expect(run.events.all == ["1", latest ? "3" : "2", "completed"])  // without waiting for the window
        #expect(run.clock.sleeperCount == 0)
        let open = Fixture { $0.throttle(for: Self.second, latest: latest, timekeeper: $1) }
        open.input.send(1)
        open.input.sendCompleted()
        #expect(open.events.all == ["1", "completed"])
        #expect(open.clock.sleeperCount == 0)
    }

    @Test(arguments: [Signal<Int>.Event.failed(TestError()), .interrupted])
    func throttleFailureOrInterruptionGoesOutAtOnceAndDropsTheWaitingValue(end: Signal<Int>.Event) {
        let live = Tracked.Live()
        let (signal, input) = Signal<Tracked>.pipe()
        let clock = ManualClock()
        let events = record(signal.throttle(for: Self.second, latest: true, timekeeper: clock.timekeeper))
        input.send(Tracked(1, live))
        input.send(Tracked(2, live))
        input.send(end.retyped())
        #expect(events.all == ["1", describe(end)])
        #expect(clock.sleeperCount == 0 && live.now == 0)
        clock.advance(byInterval: .seconds(5))
        #expect(events.all == ["1", describe(end)])
    }

    @Test func throttleDetachCancelsTheWindowAndKeepsNothing() {
        let live = Tracked.Live()
        let stops = Counter()
        let (signal, input) = Signal<Tracked>.pipe(onStop: { stops.increment() })
        let clock = ManualClock()
        let throttled = signal.throttle(for: Self.second, latest: true, timekeeper: clock.timekeeper)
        let events = Recorder<String>()
        let observation = throttled.observe { events.append(describe($0)) }
        input.send(Tracked(1, live))
        input.send(Tracked(2, live))
        #expect(clock.sleeperCount == 1 && live.now == 1)  // 1 went out; 2 waits
        observation.detach()
        #expect(clock.sleeperCount == 0 && live.now == 0)
        #expect(stops.count == 1)
        clock.advance(byInterval: .seconds(5))
        #expect(events.all == ["1"])
        withExtendedLifetime(input) {}
    }

    // MARK: Both

    /// The operator ends while its timer is being started (here, the observer detaches
    /// from inside the timekeeper's `schedule`, as another thread could at that moment):
    /// the timer, started too late to count, is cancelled at once.
    @Test(arguments: Operator.allCases)
    func aTimerStartedAsTheOperatorEndsIsCancelled(kind: Operator) {
        let clock = ManualClock()
        let whileScheduling = Locked<(@Sendable () -> Void)?>(nil)
        let timekeeper = Timekeeper(
            now: { clock.now.nanoseconds },
            schedule: { nanoseconds, job in
                let wait = Future<Void>.after(.nanoseconds(Int(nanoseconds)), timekeeper: clock.timekeeper)
                wait.onSuccess { job() }
                whileScheduling.withLock { $0.take() }?()
                return { wait.requestCancellation() }
            })
        let (signal, input) = Signal<Int>.pipe()
        let events = Recorder<String>()
        let observation = kind.apply(to: signal, on: timekeeper).observe { events.append(describe($0)) }
        whileScheduling.withLock { $0 = { observation.detach() } }
        input.send(1)
        #expect(observation.isDetached)
        #expect(clock.sleeperCount == 0)
        #expect(events.all == (kind == .debounce ? [] : ["1"]))
    }

    /// A value the operator lets go of (replaced by a newer one, or dropped by a failure)
    /// is released after the operator's lock is: its deinit may reach the operator, here
    /// by detaching its last observer, which stops it. (Released under the lock, it would
    /// take that lock twice: a debug build traps, a release build hangs, so each case runs
    /// in a process of its own.)
    @Test(.timeLimit(.minutes(1)), arguments: Operator.allCases)
    func valuesAreReleasedOutsideTheOperatorsLock(kind: Operator) async {
        await #expect(processExitsWith: .success) { [kind] in
            for ending in [false, true] {
                let clock = ManualClock()
                let (signal, input) = Signal<DetachesWhenReleased>.pipe()
                let observation = Locked<SignalObservation?>(nil)
                let output = kind.apply(to: signal, on: clock.timekeeper)
                observation.withLock { $0 = output.observe { _ in } }
                input.send(DetachesWhenReleased(Locked(nil)))  // throttle: sent at once
                input.send(DetachesWhenReleased(observation))  // held
                if ending {
                    input.sendFailed(TestError())  // drops it
                } else {
                    input.send(DetachesWhenReleased(observation))  // replaces it (with throttle first, dropped)
                }
                precondition(observation.withLock { $0 }?.isDetached == true || ending)
                precondition(clock.sleeperCount == 0 || !ending)
            }
        }
    }

    // MARK: The Duration + Clock forms

    @available(ClockAPI, *)
    @Test(.timeLimit(.minutes(1))) func debounceOnAClockWaitsOnTheClock() async throws {
        let clock = ManualClock()
        let (signal, input) = Signal<Int>.pipe()
        let debounced = signal.debounce(for: .seconds(1), clock: clock)
        let sent = Promise<Int>()
        let observation = debounced.observeValues { _ = sent.succeed($0) }
        input.send(1)
        input.send(2)  // moves the deadline; the one sleeper, started by 1, stays
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(999))
        #expect(sent.future.peek() == nil)
        clock.advance(by: .milliseconds(1))
        #expect(try await sent.future.value == 2)
        observation.detach()
        #expect(clock.sleeperCount == 0)
    }

    @available(ClockAPI, *)
    @Test(.timeLimit(.minutes(1))) func throttleOnAClockWaitsOnTheClock() async throws {
        let clock = ManualClock()
        let (signal, input) = Signal<Int>.pipe()
        let throttled = signal.throttle(for: .seconds(1), latest: true, clock: clock)
        let events = record(throttled)
        let second = Promise<Int>()
        let observation = throttled.observeValues { value in
            if value != 1 { _ = second.succeed(value) }
        }
        input.send(1)
        input.send(2)
        input.send(3)
        #expect(events.all == ["1"])
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(999))
        #expect(second.future.peek() == nil)
        clock.advance(by: .milliseconds(1))
        #expect(try await second.future.value == 3)
        #expect(events.all == ["1", "3"])
        // 3 opens the next window: once its timer sleeps, the task that sent 3 has
        // finished delivering, so the completion below goes out on this thread at once
        // (sent during that delivery, it would be delivered by that task, after it).
        await clock.waitForSleepers(count: 1)
        observation.detach()
        input.sendCompleted()  // ends the window that 3 opened
        #expect(events.all == ["1", "3", "completed"])
        #expect(clock.sleeperCount == 0)
    }

    // MARK: A million values

    /// A million values through debounce on a clock that never moves (each value resets
    /// the wait): one timer waits at any time, the clock's heap stays small, and the
    /// operator keeps one value, the latest, which the completion sends.
    @Test func aMillionValuesThroughDebounceKeepOneTimerAndOneValue() {
        let count = stressIterations(1_000_000, atLeast: 100_000)
        let live = Tracked.Live()
        let clock = ManualClock()
        let (signal, input) = Signal<Tracked>.pipe()
        let events = record(signal.debounce(for: Self.second, timekeeper: clock.timekeeper))
        var most = (timers: 0, heapEntries: 0, values: 0)
        for index in 0..<count {
            input.send(Tracked(index, live))
            most = (
                max(most.timers, clock.sleeperCount), max(most.heapEntries, clock.heapEntryCount),
                max(most.values, live.now)
            )
        }
        #expect(most.timers == 1 && most.heapEntries <= 130 && most.values == 1)
        input.sendCompleted()
        #expect(events.all == ["\(count - 1)", "completed"])
        #expect(clock.sleeperCount == 0 && live.now == 0)
    }

    /// A million values through throttle, with the clock moving a window every thousand
    /// values: a value per window goes out, at most one timer waits, and the operator
    /// keeps at most the one value waiting for its window.
    @Test(arguments: [true, false])
    func aMillionValuesThroughThrottleKeepOneTimerAndOneValue(latest: Bool) {
        let count = stressIterations(1_000_000, atLeast: 100_000)
        let live = Tracked.Live()
        let clock = ManualClock()
        let (signal, input) = Signal<Tracked>.pipe()
        let sent = Counter()
        signal.throttle(for: Self.second, latest: latest, timekeeper: clock.timekeeper).observeValues { _ in
            sent.increment()
        }
        var most = (timers: 0, values: 0)
        for index in 0..<count {
            input.send(Tracked(index, live))
            if index % 1_000 == 999 { clock.advance(byInterval: Self.second) }
            most = (max(most.timers, clock.sleeperCount), max(most.values, live.now))
        }
        #expect(most.timers == 1 && most.values <= 1)
        #expect(sent.count == 1 + count / 1_000)  // the first value, then one per window
        input.sendCompleted()
        #expect(clock.sleeperCount == 0 && live.now == 0)
    }

    // MARK: Threads

    /// The three time operators, with an interval of 3 ns unless said otherwise.
    enum Operator: String, CaseIterable, Sendable, Codable {
        case debounce, throttleLatest, throttleFirst

        func apply<Value>(
            to signal: Signal<Value>, on timekeeper: Timekeeper, interval: DispatchTimeInterval = .nanoseconds(3)
        ) -> Signal<Value> {
            switch self {
            case .debounce: signal.debounce(for: interval, timekeeper: timekeeper)
            case .throttleLatest: signal.throttle(for: interval, latest: true, timekeeper: timekeeper)
            case .throttleFirst: signal.throttle(for: interval, latest: false, timekeeper: timekeeper)
            }
        }
    }

    /// With the dispatch timekeeper, detaching cancels the Dispatch timer source, which
    /// takes it out of Dispatch's timers: nothing stays scheduled for the hour.
    @Test(arguments: Operator.allCases)
    func detachingCancelsTheDispatchTimer(kind: Operator) {
        let timers = Recorder<DispatchTimer>()
        let timekeeper = Timekeeper.dispatch(on: .global(), timerMade: { timers.append($0) })
        let (signal, input) = Signal<Int>.pipe()
        let observation = kind.apply(to: signal, on: timekeeper, interval: .seconds(3_600)).observe { _ in }
        input.send(1)  // held by debounce; sent by throttle, which opens its window
        #expect(timers.all.count == 1)
        #expect(timers.all.allSatisfy { !$0.isCancelled })
        observation.detach()
        #expect(timers.all.allSatisfy { $0.isCancelled })
    }

    /// Two threads send while a third moves the clock, so that timers fire on it in the
    /// middle of values: the observer gets one event at a time, each sender's values in
    /// the order it sent them, and, after the completion, the last value accepted
    /// (debounce and throttle with `latest`) and no timer is left.
    @Test(arguments: Operator.allCases)
    func valuesFromSeveralThreadsWhileTimersFire(kind: Operator) {
        let perSender = stressIterations(100_000, atLeast: 10_000)
        let clock = ManualClock()
        let (signal, input) = Signal<Int>.pipe()
        let busy = Locked(false)
        let overlaps = Counter()
        let values = Recorder<Int>()
        let terminals = Recorder<String>()
        kind.apply(to: signal, on: clock.timekeeper).observe { event in
            if busy.withLock({ busy in
                defer { busy = true }
                return busy
            }) {
                overlaps.increment()
            }
            if case .value(let value) = event { values.append(value) } else { terminals.append(describe(event)) }
            busy.withLock { $0 = false }
        }
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            guard worker < 2 else {
                for _ in 0..<perSender { clock.advance(byNanoseconds: 1) }
                return
            }
            for index in 0..<perSender { input.send(worker * perSender + index) }
        }
        input.sendCompleted()
        let sent = values.all
        #expect(overlaps.count == 0)
        #expect(terminals.all == ["completed"])
        for sender in 0..<2 {
            let own = sent.filter { $0 / perSender == sender }
            #expect(own == own.sorted() && Set(own).count == own.count)
        }
        if kind != .throttleFirst {  // the value accepted last is a sender's last one
            #expect(sent.last.map { $0 % perSender == perSender - 1 } == true)
        }
        #expect(clock.sleeperCount == 0)
    }

    /// The timer fires on one thread as the source completes on another: the waiting
    /// value goes out exactly once, before the completion, whichever thread takes it
    /// (the place of an event in the signal is taken under the operator's lock).
    @Test(arguments: Operator.allCases)
    func aValueReleasedAsTheSourceCompletesGoesOutOnceBeforeTheCompletion(kind: Operator) {
        let rounds = stressIterations(20_000, atLeast: 10_000)
        let expected = kind == .debounce ? ["2", "completed"] : ["1", "2", "completed"]
        var problems: [[String]] = []
        for _ in 0..<rounds {
            let clock = ManualClock()
            let (signal, input) = Signal<Int>.pipe()
            let events = record(kind.apply(to: signal, on: clock.timekeeper))
            input.send(1)
            input.send(2)  // waits, with every operator
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                if worker == 0 { clock.advance(byNanoseconds: 3) } else { input.sendCompleted() }
            }
            if events.all != expected { problems.append(events.all) }
        }
        #expect(problems == [])
    }

    /// The end races with values and timers: a sender sends and then completes, fails or
    /// interrupts, while another thread moves the clock and a third detaches the only
    /// observer. Whichever wins, at most one terminal event goes out, last, no timer is
    /// left and no value is kept.
    @Test(arguments: Operator.allCases)
    func endingWhileValuesAndTimersRaceLeavesNoTimerAndKeepsNothing(kind: Operator) {
        let rounds = stressIterations(10_000, atLeast: 10_000)
        let live = Tracked.Live()
        var problems: [String] = []
        for round in 0..<rounds {
            let clock = ManualClock()
            let (signal, input) = Signal<Tracked>.pipe()
            let events = Recorder<String>()
            let observation = kind.apply(to: signal, on: clock.timekeeper).observe { events.append(describe($0)) }
            DispatchQueue.concurrentPerform(iterations: 3) { worker in
                switch worker {
                case 0:
                    for index in 0..<3 { input.send(Tracked(index, live)) }
                    switch round % 3 {
                    case 0: input.sendCompleted()
                    case 1: input.sendFailed(TestError())
                    default: input.sendInterrupted()
                    }
                case 1:
                    for _ in 0..<3 { clock.advance(byNanoseconds: 2) }
                default:
                    observation.detach()
                }
            }
            let all = events.all
            if let end = all.firstIndex(where: { Int($0) == nil }), end != all.count - 1 {
                problems.append("round \(round): \(all)")
            }
            if clock.sleeperCount != 0 { problems.append("round \(round): a timer is left") }
            if live.now != 0 { problems.append("round \(round): \(live.now) values kept") }
        }
        #expect(problems == [])
    }
}
