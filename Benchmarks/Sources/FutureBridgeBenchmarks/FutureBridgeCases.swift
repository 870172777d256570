import Dispatch
import FutureBridge
import Reactive

/// FutureBridge's side of every benchmark. Features that do not exist yet return nil.
enum FutureBridgeCases {
    static func b1CreateResolveObserve(_ n: Int) {
        for index in 0..<n {
            let promise = Promise<Int>()
            promise.succeed(index)
            promise.future.onSuccess { blackHole($0) }
        }
    }

    static func b2MapChain(_ n: Int) {
        for index in 0..<n {
            var future = Future(value: index)
            for _ in 0..<10 { future = future.map { $0 &+ 1 } }
            future.onSuccess { blackHole($0) }
        }
    }

    static func b3PendingAttachResolve(_ n: Int) {
        for index in 0..<n {
            let promise = Promise<Int>()
            promise.future.onSuccess { blackHole($0) }
            promise.succeed(index)
        }
    }

    static func b4AwaitResolvedElsewhere(_ n: Int, on queue: DispatchQueue) async {
        for index in 0..<n {
            let promise = Promise<Int>()
            queue.async { promise.succeed(index) }
            blackHole(try? await promise.future.value)
        }
    }

    /// B4 from the main actor: the awaiting code is `@MainActor`, the promise is resolved
    /// on a serial queue; the await resumes on the main actor.
    @MainActor
    static func b4mAwaitOnTheMainActor(_ n: Int, on queue: DispatchQueue) async {
        for index in 0..<n {
            let promise = Promise<Int>()
            queue.async { promise.succeed(index) }
            blackHole(try? await promise.future.value)
        }
    }

    static func b5WhenAll(_ n: Int) {
        let promises = (0..<n).map { _ in Promise<Int>() }
        let all = whenAll(promises.map(\.future))
        for (index, promise) in promises.enumerated() { promise.succeed(index) }
        all.onSuccess { blackHole($0.count) }
    }

    static func b6MapFilter(_ n: Int) {
        let (signal, input) = Signal<Int>.pipe()
        let sum = Sum()
        let observation = signal.map { $0 &* 2 }.filter { $0 % 3 != 0 }.observeValues { sum.add($0) }
        for value in 0..<n { input.send(value) }
        blackHole(sum.total)
        blackHole(observation)
    }

    /// B6d: `n` observers detached one by one from signals of `observers` observers each
    /// (and one more that keeps each signal going), once a value has gone out to all of
    /// them, so that the drainer's copy of the observers holds them.
    ///
    /// Each signal loses half of its observers at most (from `observers` to `observers /
    /// 2`, in attachment order), and the signals and observers are made for
    /// ``b6dMostDetaches`` detaches whatever `n` is: `count-instructions.sh`, which
    /// subtracts the run with `n` from the run with `2n`, then counts `n` detaches and
    /// nothing of the setup. What is not detached is kept until the process exits.
    static func b6dDetach(_ n: Int, observers: Int) {
        precondition(n <= b6dMostDetaches, "B6d is set up for \(b6dMostDetaches) detaches at most")
        let perSignal = max(1, observers / 2)
        let signals = (b6dMostDetaches + perSignal - 1) / perSignal
        var observations: [[SignalObservation]] = []
        for _ in 0..<signals {
            let (signal, input) = Signal<Int>.pipe()
            signal.observeValues { blackHole($0) }
            observations.append((0..<observers).map { _ in signal.observeValues { blackHole($0) } })
            input.send(1)
            b6dKept.append(input)
        }
        var left = n
        for signal in observations where left > 0 {
            for observation in signal.prefix(min(perSignal, left)) { observation.detach() }
            left -= perSignal
        }
        b6dKept.append(observations)
    }

    /// The most detaches ``b6dDetach(_:observers:)`` is set up for: the `2n` of
    /// `count-instructions.sh`.
    static let b6dMostDetaches = 40_000
    /// What B6d does not detach, kept until the process exits.
    nonisolated(unsafe) static var b6dKept: [Any] = []

    /// B10: values through `debounce` whose timer never fires (a timekeeper that never
    /// runs what it is given): what a value that resets the timer costs.
    static func b10Debounce(_ n: Int) {
        b10(n) { $0.debounce(for: .milliseconds(300), timekeeper: neverFiring) }
    }

    /// B10's reference: the same values through `map`, the cheapest operator.
    static func b10Map(_ n: Int) {
        b10(n) { $0.map { $0 } }
    }

    /// `n` values through one operator to one observer.
    @inline(__always)
    private static func b10(_ n: Int, _ apply: (Signal<Int>) -> Signal<Int>) {
        let (signal, input) = Signal<Int>.pipe()
        let sum = Sum()
        let observation = apply(signal).observeValues { sum.add($0) }
        for value in 0..<n { input.send(value) }
        blackHole(sum.total)
        blackHole(observation)
    }

    /// A timekeeper whose time stands still and which never runs what it schedules.
    static let neverFiring = Timekeeper(now: { 0 }, schedule: { _, _ in {} })

    static func m1PendingWithOneHandler() -> Promise<Int> {
        let promise = Promise<Int>()
        promise.future.onSuccess { blackHole($0) }
        return promise
    }
}

/// A running total that one observer adds to (signals never call one observer
/// concurrently).
final class Sum: @unchecked Sendable {
    var total = 0
    func add(_ value: Int) { total &+= value }
}
