// A tour of FutureBridge: `swift run Tour`.
//
// Each section is a small story with its output printed below a heading. Read it top
// to bottom; every line runs on Linux as it is. The bridges, in order: a promise and its
// future, executors, cancellation, future <-> async/await, callback APIs <-> futures,
// composition and time, Signal <-> futures and AsyncSequence, main-actor code, and what
// misuse reports.
import Dispatch
import Foundation
import FutureBridge
import LoopbackHTTP
import Reactive

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

func section(_ title: String) { print("\n## \(title)") }

// MARK: - 1. Promise and Future
section("1. A promise is the write side, its future the read side")

let greeting = Promise<String>()
greeting.future
    .onSuccess { print("onSuccess:", $0) }
    .onFailure { print("onFailure:", $0) }  // not printed: the future succeeds
    .always { print("always: runs whatever the outcome") }
print("first succeed wins:", greeting.succeed("hello"))
print("second succeed is ignored:", greeting.succeed("again"))
print("peek:", greeting.future.peek()!)

// MARK: - 2. Executors
section("2. Every closure runs on the executor you name (inline by default)")

let worker = DispatchQueue(label: "tour.worker")
let workerKey = DispatchSpecificKey<String>()
worker.setSpecific(key: workerKey, value: "the worker queue")
let parsed = Future(on: .queue(worker)) { () throws -> Int in
    guard let number = Int("42") else { throw CancellationError() }
    return number
}
// Synchronous code can block for a value with a timeout (never from async code: the
// compiler refuses, as it would here at top level, which is async).
func legacySynchronousCaller<Value>(_ future: Future<Value>) throws -> Value {
    try future.wait(deadline: .now() + .seconds(5))
}
print("Future(on: .queue(worker)) waited for:", try legacySynchronousCaller(parsed))

// MARK: - 3. Transforming
section("3. map and flatMap build new futures")

let doubled = parsed.map { $0 * 2 }.flatMap { value in Future(value: "\(value) as text") }
print("mapped and flat-mapped:", try await doubled.value)

// MARK: - 4. Cancellation requests
section("4. Cancelling asks the producer; it decides")

let download = Promise<String>()
download.onCancellationRequest { promise in
    print("producer: got a cancel request, stopping the work")
    promise.cancel()
}
let shared = download.future
let first = shared.cancellationToken()
let second = shared.cancellationToken()
first.cancel()
print("after one of two consumers cancelled, completed?", shared.isCompleted)
second.cancel()
print("after both cancelled:", shared.peek()!)

// MARK: - 5. Future -> async/await
section("5. Awaiting a future; cancelling the awaiting Task")

let slow = Promise<Int>()
worker.async { slow.succeed(7) }
print("try await future.value:", try await slow.future.value)

let never = Promise<Int>()
never.onCancellationRequest { _ in print("producer: the last awaiter left, request received") }
let waiting = Task { try await never.future.value }
waiting.cancel()
do {
    _ = try await waiting.value
} catch {
    print("awaiting task resumed with:", error)
}

// MARK: - 6. async/await -> Future
section("6. Wrapping async work in a future")

let computed = Future { () async throws -> Int in
    await Task.yield()
    return 6 * 7
}
print("Future { try await ... }:", await computed.outcome)

let endless = Future<Int> {
    try await never.future.value  // suspends until its task is cancelled
}
endless.requestCancellation()
print("cancel request cancels the task:", await endless.outcome)
never.succeed(0)

// MARK: - 7. Callback APIs
section("7. A callback API becomes a future, or a value awaited, in one line")

/// A legacy API with an `(Value?, Error?)` completion handler, answering on its queue.
func legacyLookup(_ name: String, completion: @escaping @Sendable (Int?, (any Error)?) -> Void) {
    worker.async { completion(name.count, nil) }
}
let length = Future<Int> { promise in legacyLookup("FutureBridge", completion: promise.resolve) }
print("Future { promise in api(completion: promise.resolve) }:", try await length.value)
let direct = try await withPromise(of: Int.self) { legacyLookup("bridge", completion: $0.resolve) }
print("try await withPromise { api(completion: $0.resolve) }:", direct)

Diagnostics.setHandler { diagnostic in print("diagnostics hook:", diagnostic) }
let twice = Promise<Int>()
twice.resolve(1, nil)
twice.resolve(2, nil)  // a buggy API calls its completion handler twice: ignored, reported
print("value kept:", twice.future.peek()!)
/// A buggy legacy API that reports neither a value nor an error.
func brokenLookup(completion: (Int?, (any Error)?) -> Void) { completion(nil, nil) }
let neither = Future<Int> { promise in brokenLookup(completion: promise.resolve) }
print("(nil, nil):", neither.peek()!)

// MARK: - 8. Real callback APIs
section("8. URLSession, Process, DispatchIO and a timer, each wrapped in two lines")

// A small HTTP server on 127.0.0.1; `/slow` never answers.
let slowArrived = Promise<Void>()
let slowClosed = Promise<String>()
let server = try LoopbackHTTPServer(
    handler: { path in
        guard path == "/slow" else { return .init(body: "hello from \(path)") }
        slowArrived.succeed()
        return nil
    },
    onDisconnect: { path in slowClosed.succeed(path) })
let session = URLSession(configuration: .ephemeral)

/// The migrated call site: the completion handler is the promise's adapter, and a cancel
/// request cancels the URLSessionTask.
func fetch(_ path: String) -> Future<(Data?, URLResponse?)> {
    Future { promise in
        let task = session.dataTask(with: server.url(path), completionHandler: promise.resolve)
        promise.cancelOnRequest(task.cancel)
        task.resume()
    }
}
let (body, response) = try await fetch("/greeting").value
print(
    "GET /greeting ->", (response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: body ?? Data(), as: UTF8.self)
)

let hanging = Task { try await fetch("/slow").value }
try await slowArrived.future.value
hanging.cancel()  // the awaiting task is cancelled: URLSessionTask.cancel() runs
print("cancelled GET /slow ->", await hanging.result.map { _ in "a reply" })
print("server: the client closed", try await slowClosed.future.value)

let exitStatus = try await Future<Int32> { promise in
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exit 3"]
    process.terminationHandler = { promise.resolve($0.terminationStatus) }
    try process.run()
}.value
print("Process exit status:", exitStatus)

/// Reads the start of a file with DispatchIO. (A function, not top-level code: a closure
/// written at top level is main-actor isolated, and DispatchIO calls it on its own queue.)
func readStart(of path: String) -> Future<Data> {
    let file = open(path, O_RDONLY)
    return Future { promise in
        DispatchIO.read(fromFileDescriptor: file, maxLength: 64, runningHandlerOn: .global()) { data, errorNumber in
            close(file)
            if errorNumber == 0 { promise.resolve(Data(data)) } else { promise.reject(POSIXError(.EIO)) }
        }
    }
}
let firstLine = try await readStart(of: #filePath).value
print("DispatchIO read:", String(decoding: firstLine, as: UTF8.self).split(separator: "\n")[0])

let timer = DispatchSource.makeTimerSource(queue: .global())
let tick = Future<Void> { promise in
    timer.setEventHandler(handler: promise.resolve)
    promise.cancelOnRequest(timer)
    timer.schedule(deadline: .now() + .milliseconds(10))
    timer.resume()
}
print("DispatchSource timer fired:", await tick.outcome)

// MARK: - 9. Legacy callers
section("9. Old callback entry points, now implemented with async code")

func modernLookup(_ name: String) async throws -> Int { name.count }
/// The legacy signature stays; its body is one line on top of the async function.
@discardableResult
func legacyEntryPoint(_ name: String, completion: @escaping @Sendable (Int?, (any Error)?) -> Void)
    -> CancellationToken
{
    Future { try await modernLookup(name) }.deliver(on: .queue(worker), to: completion)
}
let answered = Promise<String>()
legacyEntryPoint("FutureBridge") { value, error in
    answered.succeed("value \(value!), error \(String(describing: error))")
}
print("legacy completion handler got:", try await answered.future.value)

// MARK: - 10. Composition
section("10. Composing: serial +>, parallel <>, whenAll over any types")

let userID: CallbackFunction<String, Int> = { name, completion in completion(.success(name.count)) }
let avatar: CallbackFunction<Int, String> = { id, completion in
    worker.async { completion(.success("avatar-\(id).png")) }
}
let posts: CallbackFunction<Int, [String]> = { id, completion in completion(.success(["post \(id)a", "post \(id)b"])) }
let page = userID +> (avatar <> posts)  // serial, then both in parallel
let pageReady = Promise<String>()
page("ada") { result in pageReady.succeed("\(result)") }
print("userID +> (avatar <> posts):", try await pageReady.future.value)

let (count, label, flag) = try await whenAll(Future(value: 3), Future(value: "three"), Future(value: true)).value
print("whenAll of Int, String, Bool:", count, label, flag)
let neverAnswered = Promise<Int>()
neverAnswered.onCancellationRequest { promise in
    print("race: the loser got a cancel request")
    promise.cancel()
}
print("race of a pending and a completed future:", await race([neverAnswered.future, Future(value: 1)]).outcome)

// MARK: - 11. Time and coordination
section("11. Time, retries and coordination")

let patient = Promise<Int>()
patient.onCancellationRequest { promise in
    print("timeout: the slow producer got a cancel request")
    promise.cancel()
}
// Every time function has a `DispatchTimeInterval` form for every deployment target, and
// a `Duration` form measured on a `Clock` (macOS 13, iOS 16 and later).
print("timeout after 10 ms:", await patient.future.timeout(after: .milliseconds(10), timekeeper: .dispatch).outcome)
if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
    let unanswered = Promise<Int>()
    print("the same on a clock:", await unanswered.future.timeout(after: .milliseconds(10)).outcome)
    unanswered.cancel()
}

// A promise completes once: the first of these still pending numbers each attempt.
let attemptNumbers = (1...3).map { _ in Promise<Void>() }
let flaky = retry(attempts: 3, delay: .exponential(initialInterval: .milliseconds(1))) { () -> Future<String> in
    let attempt = attemptNumbers.firstIndex { $0.succeed() }! + 1
    return attempt < 3 ? Future(error: URLError(.timedOut)) : Future(value: "ok on attempt \(attempt)")
}
print("retry with exponential backoff:", try await flaky.value)

let fifo = FutureFIFO()
let steps = (1...3).map { step in
    fifo.add { Future(on: .queue(worker)) { "step \(step)" } }  // one at a time, in order
}
print("FutureFIFO:", try await whenAll(steps).value)

let cache = FutureCache<String, Int>()
let fetches = (0..<5).map { _ in Promise<Void>() }  // one completed per fetch
let lookups = (0..<5).map { _ in
    cache.findOrFetch("answer") { _ in
        _ = fetches.first { $0.succeed() }
        return Future.after(.milliseconds(5), timekeeper: .dispatch).map { 42 }
    }
}
let fetchCount = fetches.filter(\.isCompleted).count
print("FutureCache: five lookups,", try await whenAll(lookups).value, "from", fetchCount, "fetch")

let onWorker = await Future(value: 1).hop(to: .queue(worker)).map { _ in
    DispatchQueue.getSpecific(key: workerKey) ?? "elsewhere"
}.outcome
print("hop(to: .queue(worker)).map runs on:", onWorker)

// MARK: - 12. Signals
section("12. Signal: values over time, mapFuture between signals and futures")

let (clicks, clickInput) = Signal<Int>.pipe(onStop: { print("pipe: its last observer left, the source was told") })
let evens = clicks.filter { $0.isMultiple(of: 2) }.map { "click \($0)" }
let collected = evens.take(first: 2).collect()  // a future of the first two values
for click in 1...5 { clickInput.send(click) }
print("filter + map + take(first: 2), collected:", try await collected.value)

// mapFuture: each value starts a future; .latest cancels the superseded one.
let (queries, queryInput) = Signal<String>.pipe()
let searches = ["fut": Promise<String>(), "future": Promise<String>()]  // stand-ins for requests
let results = queries.mapFuture(.latest) { query in
    let search = searches[query]!
    search.onCancellationRequest { promise in
        print("mapFuture(.latest): superseded search for \"\(query)\" got a cancel request")
        promise.cancel()
    }
    return search.future
}.collect()
queryInput.send("fut")
queryInput.send("future")  // cancels the search for "fut"
searches["future"]!.succeed("FutureBridge")
queryInput.sendCompleted()
print("mapFuture(.latest) results:", try await results.value)

// Consumed with for await (`swift run Streams` shows timers, notifications and files).
let (readings, readingInput) = Signal<Int>.pipe()
let firstReadings = readings.take(first: 3).values()
worker.async { for n in 1...5 { readingInput.send(n * 10) } }
for try await reading in firstReadings { print("for await reading:", reading) }

// Back to a future, and from an AsyncSequence.
print("Signal(future).first():", try await Signal(Future(value: "one value")).first().value)
let fromSequence = Signal(
    AsyncStream<Int> { continuation in
        for n in [3, 2, 1] { continuation.yield(n) }
        continuation.finish()
    })
print("AsyncSequence -> Signal -> collect():", try await fromSequence.collect().value)

session.finishTasksAndInvalidate()  // every task has ended; nothing to cancel
server.stop()

// MARK: - 13. The main actor
section("13. A main-actor view model: `on: .main` closures and a main-actor cancel method")

/// A view model as app code writes it: its state belongs to the main actor, and the
/// closures it hands to FutureBridge use that state directly.
@MainActor final class ProfileViewModel {
    var title = "(none)"
    var status = "idle"
    private var completion: (@Sendable (String?, (any Error)?) -> Void)?

    /// `on: .main` takes `@MainActor` closures: they run on the main actor, in order.
    func show(_ profile: Future<String>) -> Future<String> {
        profile.onSuccess(on: .main) { name in self.title = name }
        return profile.map(on: .main) { name in "\(name) (title now \"\(self.title)\")" }
    }

    /// A callback operation whose cancellation is this view model's own main-actor method.
    func startLoading() -> Future<String> {
        Future { promise in
            self.status = "loading"
            self.completion = promise.resolve  // held as a callback API holds its handler
            promise.cancelOnRequest(self.cancel)  // runs on the main actor
        }
    }

    func cancel() {
        status = "cancelled by the view model's cancel()"
        completion?(nil, CancellationError())  // the operation reports its cancellation
        completion = nil
    }
}

let viewModel = ProfileViewModel()
let profileName = Promise<String>()
let shown = viewModel.show(profileName.future)
worker.async { profileName.succeed("Ada") }  // completed on another thread
print("map(on: .main):", try await shown.value)
print("onSuccess(on: .main) set title:", viewModel.title)

let loading = viewModel.startLoading()
print("status:", viewModel.status)
loading.requestCancellation()  // requested on the main queue: cancel() runs at once, on the main actor
print("status right after cancel():", viewModel.status)
print("the future:", await loading.outcome)

// MARK: - 14. Misuse is reported, not crashed on
section("14. An abandoned promise fails its future and says where it was made")

var orphan: Promise<Int>? = Promise<Int>()
let orphaned = orphan!.future
orphan = nil  // e.g. a callback API dropped its completion handler
print("outcome:", orphaned.peek()!)
Diagnostics.resetHandler()

print("\nDone.")
