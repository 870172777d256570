import Dispatch
import Foundation
import FutureBridge

/// What the fake API does with a call: the outcome it delivers, or the misuse it makes.
public enum Outcome: String, Sendable, CaseIterable {
    /// Calls the handler once with a value.
    case value
    /// Calls the handler once with an error.
    case error
    /// Calls a `(T?, Error?)` handler with neither (other handlers: as `value`).
    case neither
    /// Releases the handler without calling it.
    case dropped
    /// Calls the handler with a value, and again when ``FakeAPI/release()`` is called.
    case twice
    /// Waits for ``FakeAPI/release()`` before delivering a value (unless cancelled); the
    /// calls made after the release deliver a value at once.
    case held
}

/// The error the fake API delivers.
public struct FakeError: Error {}

/// The events of one run, each with where it ran (the main thread or another).
public final class Trace: @unchecked Sendable {
    // @unchecked: `events`, `kept` and the deliveries are only read and written while `lock` is held.
    private let lock = NSLock()
    private var events: [String] = []
    private var kept: [AnyObject] = []
    private var deliveryCount = 0
    private var deliveryWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    public init() {}

    /// Marks the main queue, on which the main actor runs its jobs: set once (setting it
    /// again releases the value another thread may be reading).
    private static let place: DispatchSpecificKey<String> = {
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        return key
    }()

    /// Logs `event` and where it ran: on the main queue (where the main actor runs) or elsewhere.
    public func log(_ event: String) {
        let place = DispatchQueue.getSpecific(key: Self.place) ?? "other"
        lock.withLock { events.append("\(event) [\(place)]") }
    }

    /// Logs `event`, what a caller of a shim logs when its handler is called: a harness
    /// waits for it with ``deliveries(_:)`` (the shim delivers from a task of its own).
    public func delivered(_ event: String) {
        log(event)
        let ready = lock.withLock {
            deliveryCount += 1
            let ready = deliveryWaiters.filter { $0.count <= deliveryCount }
            deliveryWaiters.removeAll { $0.count <= deliveryCount }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Returns once `count` events have been logged with ``delivered(_:)``.
    public func deliveries(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock {
                if deliveryCount >= count { return true }
                deliveryWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Logs the error's type (`failed FakeError`, `failed CancellationError`).
    public func failed(_ error: any Error) {
        log("failed \(type(of: error))")
    }

    /// Throws for the value "bad" (success code that throws).
    public func check(_ value: String) throws {
        if value == "bad" { throw FakeError() }
    }

    /// Always true: a condition the programs test.
    public var isEnabled: Bool { true }

    /// Keeps `object` alive until the run ends (what a caller holding it would do).
    public func keepAlive(_ object: AnyObject & Sendable) {
        lock.withLock { kept.append(object) }
    }

    public var all: [String] { lock.withLock { events } }
}

/// The handle `load(id:completion:)` returns.
public final class FakeTask: @unchecked Sendable {
    // @unchecked: `cancelled`, `finished` and `onCancel` are only read and written while `lock` is held.
    private let lock = NSLock()
    private var cancelled = false
    private var finished = false
    let name: String
    private let trace: Trace
    /// What cancelling does besides (a handle that calls the handler holds it until released).
    private var onCancel: (@Sendable () -> Void)?

    init(name: String, trace: Trace, onCancel: (@Sendable () -> Void)? = nil) {
        self.name = name
        self.trace = trace
        self.onCancel = onCancel
    }

    /// Cancels the operation; once it has finished, does nothing (as most handles do).
    public func cancel() {
        let (running, onCancel) = lock.withLock {
            cancelled = true
            return (!finished, self.onCancel)
        }
        if running {
            trace.log("api: \(name) cancelled")
            onCancel?()
        }
    }

    /// The API releases the handler: so does the handle.
    func releaseHandler() {
        lock.withLock { onCancel = nil }
    }

    /// The operation is over: a later `cancel()` does nothing.
    func finish() {
        lock.withLock { finished = true }
    }

    var isCancelled: Bool { lock.withLock { cancelled } }
}

/// A callback API whose outcome a test scripts; it calls its handlers back on a queue of
/// its own, as network and database clients do.
public final class FakeAPI: @unchecked Sendable {
    // @unchecked: `held`, `waiters`, `stores` and `storeWaiters` are only read and written while `lock` is held.
    private let lock = NSLock()
    private var held: [@Sendable () -> Void] = []
    private var released = false
    private var calls = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var stores = 0
    private var storeWaiters: [CheckedContinuation<Void, Never>] = []
    let queue = DispatchQueue(label: "FakeAPI")
    /// The handlers running on a callback queue passed in (`download`), which ``idle()`` waits for.
    private let callbacks = DispatchGroup()
    let outcome: Outcome
    let trace: Trace

    public init(outcome: Outcome, trace: Trace) {
        self.outcome = outcome
        self.trace = trace
        queue.setSpecific(key: Self.identity, value: ObjectIdentifier(self))
    }

    /// Marks each API's queue with the API, so that code its handlers run (``XCTFail(_:)``)
    /// can tell which run it belongs to.
    static let identity = DispatchSpecificKey<ObjectIdentifier>()

    /// Runs `body` as part of this API's run (``FakeTesting/api`` bound on whatever thread
    /// runs it): every delivery does, so that code its handlers run knows its run.
    func asRun(_ body: () -> Void) {
        FakeTesting.$api.withValue(self) { body() }
    }

    /// The API whose run the calling code belongs to: the one of the task or delivery
    /// (``FakeTesting/api``), or the one whose queue runs the code; nil elsewhere.
    static var current: ObjectIdentifier? {
        FakeTesting.api.map(ObjectIdentifier.init) ?? DispatchQueue.getSpecific(key: identity)
    }

    /// Loads a text: a `Result` handler, and a handle that cancels the load.
    @discardableResult
    public func load(id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) -> FakeTask {
        start(FakeTask(name: "load(\(id))", trace: trace), completion)
    }

    /// Requests a text: a `Result` handler, and a handle whose `cancel()` calls the handler
    /// with `CancellationError` (as `URLSessionTask`'s calls it with `URLError.cancelled`).
    @discardableResult
    public func request(id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) -> FakeTask {
        let task = FakeTask(name: "request(\(id))", trace: trace) { [queue] in
            queue.async { completion(.failure(CancellationError())) }
        }
        return start(task, completion)
    }

    /// Starts the operation of `task`, whose handler receives a text.
    private func start(_ task: FakeTask, _ completion: @escaping @Sendable (Result<String, any Error>) -> Void)
        -> FakeTask
    {
        start(task.name, task: task) { value in
            completion(value.map { .success($0) } ?? .failure(FakeError()))
        }
        return task
    }

    /// Fetches a text: a `(T?, Error?)` handler.
    public func fetch(id: Int, completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
        start("fetch(\(id))", task: nil) { [outcome] value in
            if outcome == .neither {
                completion(nil, nil)
            } else {
                completion(value, value == nil ? FakeError() : nil)
            }
        }
    }

    /// Saves a text: an `(Error?)` handler.
    public func save(_ text: String, completion: @escaping @Sendable ((any Error)?) -> Void) {
        start("save(\(text))", task: nil) { value in completion(value == nil ? FakeError() : nil) }
    }

    /// Downloads a text: its handler runs on `callbackQueue`, the main queue unless told otherwise.
    public func download(
        id: Int, callbackQueue: DispatchQueue = .main,
        completion: @escaping @Sendable (Result<String, any Error>) -> Void
    ) {
        start("download(\(id))", task: nil) { [callbacks] value in
            callbackQueue.async(group: callbacks) { [self] in
                asRun { completion(value.map { .success($0) } ?? .failure(FakeError())) }
            }
        }
    }

    /// Shows a text: a main-actor handler, called on the main queue.
    public func show(id: Int, completion: @escaping @MainActor (Result<String, any Error>) -> Void) {
        start("show(\(id))", task: nil) { [callbacks] value in
            DispatchQueue.main.async(group: callbacks) { [self] in
                asRun { MainActor.assumeIsolated { completion(value.map { .success($0) } ?? .failure(FakeError())) } }
            }
        }
    }

    /// Looks a text up in memory: a handler that is not `@Sendable` (as a library of Swift 5
    /// mode declares it), called before `lookup` returns, on the caller's thread. `.dropped`
    /// releases it; `.error` fails; the other outcomes deliver the value "v" once.
    public func lookup(id: Int, completion: @escaping (Result<String, any Error>) -> Void) {
        trace.log("api: lookup(\(id)) called")
        let waiting = lock.withLock {
            calls += 1
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
        switch outcome {
        case .error:
            trace.log("api: lookup(\(id)) fails")
            completion(.failure(FakeError()))
        case .dropped:
            trace.log("api: lookup(\(id)) releases its handler")
        case .value, .neither, .twice, .held:
            trace.log("api: lookup(\(id)) delivers")
            completion(.success("v"))
        }
    }

    /// Measures a text: a handler with a value and no error (`.error` delivers a value all the same).
    public func measure(_ text: String, completion: @escaping @Sendable (Int) -> Void) {
        start("measure(\(text))", task: nil, canFail: false) { value in completion(value?.count ?? 0) }
    }

    /// Pings: a handler with nothing (`.error` calls it all the same).
    public func ping(completion: @escaping @Sendable () -> Void) {
        start("ping", task: nil, canFail: false) { _ in completion() }
    }

    /// Counts: the API's own async function is `count()`.
    public func count(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        start("count", task: nil) { value in completion(value.map { .success($0.count) } ?? .failure(FakeError())) }
    }

    /// Calls `onChange` with every change, as long as the API lives.
    public func watch(onChange: @escaping @Sendable (Int) -> Void) {
        start("watch", task: nil) { _ in onChange(1) }
    }

    /// Reports a job's events: `onEvent` with 1 and 2, then `completion` (with the error that
    /// ended the job, if any: `.error` reports 1, then fails); cancelling the returned task
    /// stops both, until the completion is called.
    @discardableResult
    public func events(
        id: Int, onEvent: @escaping @Sendable (Int) -> Void, completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> FakeTask {
        let task = FakeTask(name: "events(\(id))", trace: trace)
        start("events(\(id))", task: task) { value in
            onEvent(1)
            if value != nil { onEvent(2) }
            task.finish()
            completion(value == nil ? FakeError() : nil)
        }
        return task
    }

    /// Returns when a call has been made.
    public func called() async {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock {
                if calls > 0 { return true }
                waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Returns when a program has stored a handle in a ``FakeHandleBox``.
    public func stored() async {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock {
                if stores > 0 { return true }
                storeWaiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func handleStored() {
        let waiting = lock.withLock {
            stores += 1
            defer { storeWaiters = [] }
            return storeWaiters
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Delivers what `held` calls hold back; the calls made from now on are not held.
    public func release() {
        let deliveries = lock.withLock {
            released = true
            defer { held = [] }
            return held
        }
        // In one job: a delivery that calls the API again queues its call's delivery after them all.
        queue.async { [self] in asRun { for delivery in deliveries { delivery() } } }
    }

    /// Returns when every delivery queued so far has run, those that made calls (a handler
    /// that calls the API again) have had theirs run too, and so have the handlers they queued
    /// on a callback queue passed in.
    public func idle() async {
        while true {
            let made = lock.withLock { calls }
            await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
            await withCheckedContinuation { continuation in
                callbacks.notify(queue: .global()) { continuation.resume() }
            }
            if lock.withLock({ calls }) == made { return }
        }
    }

    /// Logs the call, and delivers the outcome on the API's queue (the value "v", or nil for an error).
    private func start(
        _ name: String, task: FakeTask?, canFail: Bool = true, deliver: @escaping @Sendable (String?) -> Void
    ) {
        trace.log("api: \(name) called")
        let (outcome, trace) = (!canFail && outcome == .error ? .value : outcome, trace)
        let delivery: @Sendable () -> Void = {
            if task?.isCancelled ?? false { return }
            switch outcome {
            case .value, .neither, .held:
                trace.log("api: \(name) delivers")
                deliver("v")
            case .error:
                trace.log("api: \(name) fails")
                deliver(nil)
            case .dropped:
                trace.log("api: \(name) releases its handler")
                task?.releaseHandler()
            case .twice:
                trace.log("api: \(name) delivers")
                deliver("v")
            }
        }
        let again: @Sendable () -> Void = {
            trace.log("api: \(name) delivers again")
            deliver("v")
        }
        // `.held` holds every call made before `release()` (all the calls of a fan-out, whichever
        // reaches the API first); the calls a released delivery makes go on.
        let (waiting, holds) = lock.withLock {
            calls += 1
            let holds = outcome == .held && !released
            if holds { held.append(delivery) }
            if outcome == .twice { held.append(again) }
            defer { waiters = [] }
            return (waiters, holds)
        }
        if !holds { queue.async { [self] in asRun(delivery) } }
        for waiter in waiting { waiter.resume() }
    }
}

extension FakeAPI {
    /// The API's own async form of `count(completion:)`.
    public func count() async throws -> Int {
        try await withPromise(of: Int.self) { promise in
            count(completion: promise.resolve)
        }
    }
}
