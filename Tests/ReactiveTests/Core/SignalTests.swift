import Dispatch
import FutureBridge
import FutureBridgeInternals
import FutureBridgeTesting
import TestSupport
import Testing

@testable import Reactive

/// Describes events as short strings, for comparing sequences.
func describe<Value>(_ event: Signal<Value>.Event) -> String {
    switch event {
    case .value(let value): "\(value)"
    case .completed: "completed"
    case .failed(let error): "failed(\(error))"
    case .interrupted: "interrupted"
    }
}

/// Records every event a signal delivers.
func record<Value>(_ signal: Signal<Value>, on context: ExecutionContext = .inline) -> Recorder<String> {
    let events = Recorder<String>()
    signal.observe(on: context) { events.append(describe($0)) }
    return events
}

@Suite struct SignalTests {
    @Test func pipeDeliversValuesThenOneTerminalEvent() {
        let (signal, input) = Signal<Int>.pipe()
        let events = record(signal)
        input.send(1)
        input.send(2)
        input.sendCompleted()
        input.send(3)
        input.sendFailed(TestError())
        #expect(events.all == ["1", "2", "completed"])
        #expect(signal.isTerminated)
    }

    @Test func eachObserverSeesWhatIsSentAfterItAttached() {
        let (signal, input) = Signal<Int>.pipe()
        let early = record(signal)
        input.send(1)
        let late = record(signal)
        input.send(2)
        #expect(early.all == ["1", "2"])
        #expect(late.all == ["2"])
    }

    @Test func observerAttachingAfterTheEndGetsTheTerminalEventAtOnce() {
        let (signal, input) = Signal<Int>.pipe()
        input.sendFailed(TestError(code: 7))
        #expect(record(signal).all == ["failed(TestError(code: 7))"])
    }

    @Test func detachedObserverGetsNothingMore() {
        let (signal, input) = Signal<Int>.pipe()
        let kept = record(signal)
        let events = Recorder<String>()
        let observation = signal.observe { events.append(describe($0)) }
        input.send(1)
        observation.detach()
        input.send(2)
        #expect(events.all == ["1"])
        #expect(kept.all == ["1", "2"])
        #expect(observation.isDetached)
    }

    /// The signal goes on (another observer remains) and sends nothing more: the detached
    /// handler and what it captures are let go all the same, kept handle or not.
    @Test(arguments: [false, true])
    func detachedObserverIsLetGoAtOnceWhileOthersRemain(keepingTheHandle: Bool) {
        let (signal, input) = Signal<Int>.pipe()
        let kept = record(signal)
        let live = Tracked.Live()
        var handle: SignalObservation?
        do {
            let captured = Tracked(0, live)
            let observation = signal.observeValues { _ in _ = captured }
            input.send(1)  // the drainer's copy of the observers now holds it
            observation.detach()
            if keepingTheHandle { handle = observation }
        }
        #expect(live.now == 0)
        #expect(handle?.isDetached ?? !keepingTheHandle)
        input.send(2)
        #expect(kept.all == ["1", "2"])
    }

    /// A handler that detaches another observer (or itself) during a delivery: that
    /// observer is let go once the delivery ends, before `send` returns.
    @Test func observerDetachedDuringADeliveryIsLetGoWhenItEnds() {
        let (signal, input) = Signal<Int>.pipe()
        let live = Tracked.Live()
        let observation: SignalObservation
        do {
            let captured = Tracked(0, live)
            observation = signal.observeValues { _ in _ = captured }
        }
        let detaching = signal.observeValues { _ in observation.detach() }
        input.send(1)
        #expect(live.now == 0)
        #expect(!signal.isTerminated)
        detaching.detach()
    }

    @Test func lastObserverDetachingInterruptsTheSignalAndStopsItsSource() {
        let stops = Counter()
        let (signal, input) = Signal<Int>.pipe(onStop: { stops.increment() })
        let first = signal.observe { _ in }
        let second = signal.observe { _ in }
        first.detach()
        #expect(stops.count == 0)
        second.detach()
        #expect(stops.count == 1)
        #expect(record(signal).all == ["interrupted"])
        input.send(1)  // ignored
    }

    @Test func terminalEventStopsTheSourceOnce() {
        let stops = Counter()
        let (signal, input) = Signal<Int>.pipe(onStop: { stops.increment() })
        let observation = signal.observe { _ in }
        input.sendCompleted()
        observation.detach()
        input.sendInterrupted()
        #expect(stops.count == 1)
    }

    @Test func releasingTheInputInterruptsTheSignal() {
        var (signal, input): (Signal<Int>, SignalInput<Int>?) = Signal<Int>.pipe()
        let events = record(signal)
        input?.send(1)
        input = nil
        #expect(events.all == ["1", "interrupted"])
        _ = signal
    }

    @Test func sourceStartsWithTheFirstObserverAndStopsWhenTheSignalEnds() {
        let starts = Counter()
        let stops = Counter()
        let registered = Locked<SignalInput<Int>?>(nil)  // as a callback API keeps its handler
        let signal = Signal<Int> { input in
            starts.increment()
            registered.withLock { $0 = input }
            input.send(1)  // sent at once, during the first observer's attach
            return {
                stops.increment()
                registered.withLock { $0 = nil }
            }
        }
        #expect(starts.count == 0)
        let events = Recorder<String>()
        let first = signal.observe { events.append(describe($0)) }
        let second = signal.observe { _ in }
        #expect(starts.count == 1)
        #expect(events.all == ["1"])
        first.detach()
        #expect(stops.count == 0)
        second.detach()
        #expect(stops.count == 1)
        #expect(registered.withLock { $0 } == nil)
    }

    @Test func sourceThatDropsItsInputInterruptsTheSignal() {
        let signal = Signal<Int> { input in
            input.send(1)
            return {}
        }
        #expect(record(signal).all == ["1", "interrupted"])
    }

    @Test func sourceThatEndsWhileStartingIsStoppedOnce() {
        let stops = Counter()
        let signal = Signal<Int> { input in
            input.send(1)
            input.sendCompleted()
            return { stops.increment() }
        }
        #expect(record(signal).all == ["1", "completed"])
        #expect(stops.count == 1)
    }

    @Test func reentrantSendIsDeliveredAfterTheCurrentHandlerReturns() {
        let (signal, input) = Signal<Int>.pipe()
        let events = Recorder<String>()
        signal.observe { event in
            events.append("begin \(describe(event))")
            if case .value(1) = event { input.send(2) }
            events.append("end \(describe(event))")
        }
        input.send(1)
        #expect(events.all == ["begin 1", "end 1", "begin 2", "end 2"])
        input.sendCompleted()  // the handler holds the input: ending the signal breaks that cycle
    }

    @Test func fourConcurrentSendersReachEachObserverInOneOrderNeverConcurrently() {
        let perSender = stressIterations(50_000, atLeast: 10_000)
        let (signal, input) = Signal<Int>.pipe()
        let observers = (0..<3).map { _ in (events: Recorder<Int>(), busy: Locked(false), overlaps: Counter()) }
        for observer in observers {
            signal.observeValues { value in
                if observer.busy.withLock({ busy in
                    defer { busy = true }
                    return busy
                }) {
                    observer.overlaps.increment()
                }
                observer.events.append(value)
                observer.busy.withLock { $0 = false }
            }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { sender in
            for index in 0..<perSender { input.send(sender * perSender + index) }
        }
        input.sendCompleted()
        let first = observers[0].events.all
        #expect(first.count == 4 * perSender)
        for observer in observers {
            #expect(observer.overlaps.count == 0)
            #expect(observer.events.all == first)  // one order for every observer
        }
        for sender in 0..<4 {  // and each sender's own order kept
            let own = first.filter { $0 / perSender == sender }
            #expect(own == own.sorted())
        }
    }

    @Test func observersAttachingAndDetachingWhileValuesFlowMissNothingElsewhere() {
        // Two threads send while two others attach and detach observers: the drainer's
        // copy of the observers is replaced again and again under it (the sanitizers
        // check that no observer is used after it is freed).
        let perSender = stressIterations(20_000, atLeast: 2_000)
        let (signal, input) = Signal<Int>.pipe()
        let permanent = Recorder<Int>()
        signal.observeValues { permanent.append($0) }
        let outOfOrder = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            guard worker >= 2 else {
                for index in 0..<perSender { input.send(worker * perSender + index) }
                return
            }
            for _ in 0..<perSender / 10 {
                let lastSeen = Locked([-1, -1])  // per sender
                let observation = signal.observeValues { value in
                    let sender = value / perSender
                    let inOrder = lastSeen.withLock { lastSeen in
                        defer { lastSeen[sender] = value }
                        return value > lastSeen[sender]
                    }
                    if !inOrder { outOfOrder.increment() }
                }
                observation.detach()
            }
        }
        input.sendCompleted()
        for sender in 0..<2 {  // the permanent observer got every value, each sender's in order
            let expected = Array(sender * perSender..<(sender + 1) * perSender)
            #expect(permanent.all.filter { $0 / perSender == sender } == expected)
        }
        #expect(permanent.all.count == 2 * perSender)
        #expect(outOfOrder.count == 0)  // a short-lived observer sees an ordered part of the flow
    }

    @Test func observersDetachingWhileOthersSendAreAllLetGo() {
        // Four threads each attach an observer, send a value (so that the drainer's copy
        // of the observers holds it) and detach it, again and again; a permanent observer
        // keeps the signal going. Once they are done, no detached handler is kept.
        let perThread = stressIterations(25_000, atLeast: 2_500)
        let (signal, input) = Signal<Int>.pipe()
        let permanent = Counter()
        signal.observeValues { _ in permanent.increment() }
        let live = Tracked.Live()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<perThread {
                let captured = Tracked(index, live)
                let observation = signal.observeValues { _ in _ = captured }
                input.send(index)
                observation.detach()
            }
        }
        #expect(live.now == 0)
        #expect(permanent.count == 4 * perThread)
        #expect(!signal.isTerminated)
    }

    @Test func terminalEventIsDeliveredExactlyOnceWhenSendersRace() {
        for _ in 0..<stressIterations(2_000, atLeast: 500) {
            let (signal, input) = Signal<Int>.pipe()
            let terminals = Counter()
            signal.observe { if $0.isTerminal { terminals.increment() } }
            DispatchQueue.concurrentPerform(iterations: 4) { sender in
                if sender % 2 == 0 { input.sendCompleted() } else { input.sendFailed(TestError()) }
            }
            #expect(terminals.count == 1)
        }
    }

    @Test func observerOnAConcurrentQueueStillGetsEventsInOrderOneAtATime() {
        let (signal, input) = Signal<Int>.pipe()
        let events = Recorder<Int>()
        let busy = Locked(false)
        let overlaps = Counter()
        let done = DispatchSemaphore(value: 0)
        signal.observe(on: .global()) { event in
            if busy.withLock({ busy in
                defer { busy = true }
                return busy
            }) {
                overlaps.increment()
            }
            if case .value(let value) = event { events.append(value) }
            busy.withLock { $0 = false }
            if event.isTerminal { done.signal() }
        }
        for value in 0..<10_000 { input.send(value) }
        input.sendCompleted()
        done.wait()
        #expect(events.all == Array(0..<10_000))
        #expect(overlaps.count == 0)
    }

    @Test func observerRunsOnItsExecutor() {
        let executor = ManualExecutor()
        let (signal, input) = Signal<Int>.pipe()
        let events = record(signal, on: executor.context)
        input.send(1)
        input.send(2)
        #expect(events.all.isEmpty)
        executor.runAll()
        #expect(events.all == ["1", "2"])
        input.sendCompleted()
        executor.runAll()  // a job left queued would keep the observer (and the executor) alive
        #expect(events.all == ["1", "2", "completed"])
    }

    @Test func signalObserversAndHandlesAreReleasedAfterTermination() {
        weak var weakSignal: Signal<Int>?
        weak var weakInput: SignalInput<Int>?
        weak var weakObservation: SignalObservation?
        weak var weakObserved: Counter?
        do {
            let (signal, input) = Signal<Int>.pipe()
            let observed = Counter()
            let observation = signal.map { $0 + 1 }.observe { _ in observed.increment() }
            input.send(1)
            input.sendCompleted()
            (weakSignal, weakInput, weakObservation, weakObserved) = (signal, input, observation, observed)
        }
        #expect(weakSignal == nil && weakInput == nil && weakObservation == nil && weakObserved == nil)
    }
}
