import Dispatch
import Foundation
import FutureBridge
import Reactive
import Testing

// App code as users write it, compiled twice: in MainActorAppTests (Swift 6, `@MainActor`
// types) and, through a link to this file, in DefaultMainActorAppTests (Xcode 26's
// default main-actor isolation, unannotated types). No `assumeIsolated`, no
// `@unchecked`, no `nonisolated(unsafe)`, no `@preconcurrency`. Every closure records
// that it ran, on which thread; completions come from a background queue unless a
// scenario says otherwise.

/// Completes `promise` with `value` on a background queue.
func completeInBackground<Value: Sendable>(_ promise: Promise<Value>, with outcome: Outcome<Value>) {
    DispatchQueue.global().async { promise.complete(with: outcome) }
}

struct Failure: Error, Equatable {}

/// Requests cancellation of `future` from a background queue and returns once the request
/// is made. Made first, the request goes through; made while this task awaits the future,
/// it would wait for the awaiter's interest too, as `requestCancellation()` documents.
func requestCancellationInBackground<Value>(of future: Future<Value>) async {
    await withCheckedContinuation { (made: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            future.requestCancellation()
            made.resume()
        }
    }
}

/// Stops the test process unless the caller runs on the main queue, where the main actor
/// runs (on Linux that is not the process's first thread once `dispatchMain()` runs, so
/// `Thread.isMainThread` cannot tell); `true` otherwise, for the logs.
func isOnMainQueue() -> Bool {
    dispatchPrecondition(condition: .onQueue(.main))
    return true
}

extension MainActorAppTests {
    @Test func handlersOnMainRunOnceOnTheMainThreadWithTheValue() async throws {
        let model = ProfileModel()
        let success = Promise<String>()
        let failure = Promise<String>()
        let cancellation = Promise<String>()
        let ran = (0..<6).map { _ in Promise<Void>() }
        success.future
            .onSuccess(on: .main) { name in
                model.title = name
                model.log.append("success \(name) \(isOnMainQueue())")
                ran[0].succeed()
            }
            .onComplete(on: .main) { outcome in
                model.log.append("complete \(outcome.value ?? "") \(isOnMainQueue())")
                ran[1].succeed()
            }
            .always(on: .mainImmediate) {
                model.log.append("always \(isOnMainQueue())")
                ran[2].succeed()
            }
        failure.future.onFailure(on: .main) { error in
            model.log.append("failure \(error is Failure) \(isOnMainQueue())")
            ran[3].succeed()
        }
        cancellation.future.onCancel(on: .main) {
            model.cancelled += 1
            model.log.append("cancel \(isOnMainQueue())")
            ran[4].succeed()
        }
        cancellation.future.onFailure(on: .main) { _ in model.log.append("a cancellation is no failure") }
        success.future.onFailure(on: .main) { _ in model.log.append("a success is no failure") }
        failure.future.onSuccess(on: .main) { _ in model.log.append("a failure is no success") }
        ran[5].succeed()
        completeInBackground(success, with: .success("Ada"))
        completeInBackground(failure, with: .failure(Failure()))
        completeInBackground(cancellation, with: .cancelled)
        for promise in ran { try await promise.future.value }
        #expect(model.title == "Ada")
        #expect(
            model.log.sorted() == [
                "always true", "cancel true", "complete Ada true", "failure true true", "success Ada true",
            ])
    }

    @Test func mainImmediateRunsAtOnceWhenCompletedOnTheMainThreadAndMainWaitsForTheQueue() async throws {
        let model = ProfileModel()
        let promise = Promise<Int>()
        let queued = Promise<Void>()
        promise.future.onSuccess(on: .main) { value in
            model.log.append("main \(value)")
            queued.succeed()
        }
        promise.future.onSuccess(on: .mainImmediate) { value in model.log.append("immediate \(value)") }
        promise.succeed(5)
        #expect(model.log == ["immediate 5"])
        try await queued.future.value
        #expect(model.log == ["immediate 5", "main 5"])
    }

    @Test func everyDeliverShapeCallsAMainActorCompletionOnce() async throws {
        let model = ProfileModel()
        let value = Promise<Int>()
        let void = Promise<Void>()
        let pair = Promise<(Int?, String?)>()
        let ran = (0..<9).map { _ in Promise<Void>() }
        func record(_ index: Int, _ entry: String) {
            model.log.append("\(entry) \(isOnMainQueue())")
            ran[index].succeed()
        }
        value.future.deliver(on: .main) { (result: Result<Int, any Error>) in record(0, "result \(try! result.get())") }
        value.future.deliver(on: .main) { (number: Int?, error: (any Error)?) in record(1, "optional \(number!)") }
        value.future.deliver(on: .main) { (error: (any Error)?, number: Int?) in record(2, "error-first \(number!)") }
        value.future.deliver(on: .main, to: { number, error in record(3, "with-default \(number)") }, valueOnFailure: 0)
        value.future.deliver(on: .main, success: { record(4, "success \($0)") }, failure: { _ in record(4, "failure") })
        value.future.deliver(on: .main) { (number: Int) in record(5, "value \(number)") }
        void.future.deliver(on: .main) { (error: (any Error)?) in record(6, "void-error \(error == nil)") }
        void.future.deliver(on: .main) { record(7, "void") }
        pair.future.deliver(on: .main) { (first: Int?, second: String?, error: (any Error)?) in
            record(8, "pair \(first!) \(second!)")
        }
        completeInBackground(value, with: .success(3))
        completeInBackground(void, with: .success(()))
        completeInBackground(pair, with: .success((1, "b")))
        for promise in ran { try await promise.future.value }
        #expect(
            model.log.sorted() == [
                "error-first 3 true", "optional 3 true", "pair 1 b true", "result 3 true", "success 3 true",
                "value 3 true", "void true", "void-error true true", "with-default 3 true",
            ])
    }

    @Test func transformsOnMainUseMainActorState() async throws {
        let model = ProfileModel()
        model.title = "prefix"
        let source = Promise<Int>()
        let mapped = source.future.map(on: .main) { "\(model.title) \($0) \(isOnMainQueue())" }
        let chained = source.future.flatMap(on: .main) { value in Future(value: "\(model.title)-\(value)") }
        let validated = source.future.validate(orFailWith: Failure(), on: .main) { $0 > model.title.count * 10 }
        let tapped = source.future
            .tap(on: .main) { model.log.append("tap \($0.value!)") }
            .ensure(on: .main) { model.log.append("ensure") }
        let failing = Promise<Int>()
        let recovered = failing.future.recover(on: .main) { _ in model.title.count }
        let recoveredLater = failing.future.recover(on: .main) { _ in Future(value: model.title.count + 1) }
        let mappedError = failing.future.mapError(on: .main) { _ in
            model.log.append("mapError")
            return Failure()
        }
        let flatMappedError = failing.future.flatMapError(on: .main) { _ in Future(value: 9) }
        let built = Future(on: .main) { model.title.uppercased() }
        completeInBackground(source, with: .success(7))
        completeInBackground(failing, with: .failure(CocoaError(.fileNoSuchFile)))
        #expect(try await mapped.value == "prefix 7 true")
        #expect(try await chained.value == "prefix-7")
        #expect(await validated.outcome.error is Failure)
        #expect(try await tapped.value == 7)
        #expect(try await recovered.value == 6)
        #expect(try await recoveredLater.value == 7)
        #expect(await mappedError.outcome.error is Failure)
        #expect(try await flatMappedError.value == 9)
        #expect(try await built.value == "PREFIX")
        #expect(model.log.sorted() == ["ensure", "mapError", "tap 7"])
    }

    @Test func limiterFIFOBatchAndFoldsRunMainActorWorkInOrder() async throws {
        let model = ProfileModel()
        let fifo = FutureFIFO()
        let first = Promise<Int>()
        let steps = [
            fifo.add(on: .main) { () -> Future<Int> in
                model.log.append("first \(isOnMainQueue())")
                return first.future
            },
            fifo.add(on: .main) { () -> Future<Int> in
                model.log.append("second")
                return Future(value: 2)
            },
        ]
        let limited = FutureLimiter(maxConcurrent: 2).add(on: .main) {
            Future(value: "\(model.title.isEmpty) \(isOnMainQueue())")
        }
        try await Future<Void>.after(.nanoseconds(0), timekeeper: .dispatch).value
        completeInBackground(first, with: .success(1))
        #expect(try await whenAll(steps).value == [1, 2])
        #expect(try await limited.value == "true true")
        let inputs = [Future(value: 1), Future(value: 2)]
        let batch = FutureBatch(inputs)
        let seen = Promise<Void>()
        batch.onEachComplete(on: .main) { index, outcome in
            model.log.append("child \(index) \(outcome.value!)")
            if index == 1 { seen.succeed() }
        }
        try await seen.future.value
        #expect(try await reduce(inputs, 0, on: .main) { $0 + $1 + model.cancelled }.value == 3)
        #expect(try await fold(inputs, 10, on: .main) { sum, next in Future(value: sum + next) }.value == 13)
        #expect(try await retry(attempts: 2, on: .main) { Future(value: model.title.isEmpty) }.value)
        #expect(model.log == ["first true", "second", "child 0 1", "child 1 2"])
    }

    @Test func signalObservationAndAMainActorSourceNeedNoHops() async throws {
        let model = ProfileModel()
        let tracker = LocationTracker()
        let locations = Signal<Int>(on: .main) { input in
            tracker.onUpdate = { input.send($0) }
            tracker.start()
            return { tracker.stop() }
        }
        let received = Promise<Void>()
        let observation = locations.observeValues(on: .main) { location in
            model.log.append("location \(location) \(isOnMainQueue())")
            if location == 2 { received.succeed() }
        }
        #expect(tracker.isRunning)
        tracker.report(1)
        tracker.report(2)
        try await received.future.value
        observation.detach()
        #expect(!tracker.isRunning)
        #expect(model.log == ["location 1 true", "location 2 true"])

        let (events, input) = Signal<String>.pipe()
        let ended = Promise<Void>()
        events.observe(on: .main) { event in
            model.log.append("event \(event.value ?? "end")")
            if event.isTerminal { ended.succeed() }
        }
        DispatchQueue.global().async {
            input.send("a")
            input.sendCompleted()
        }
        try await ended.future.value
        #expect(model.log.suffix(2) == ["event a", "event end"])

        // The general form takes the caller's isolation; a closure that uses main-actor
        // state says so.
        let other = LocationTracker()
        let annotated = Signal<Int> { @MainActor input in
            other.onUpdate = { input.send($0) }
            other.start()
            return { other.stop() }
        }
        let first = annotated.first()
        #expect(other.isRunning)
        other.report(7)
        #expect(try await first.value == 7)
        #expect(!other.isRunning)
    }

    @Test func forAwaitOverASignalRunsOnTheMainActor() async throws {
        let model = ProfileModel()
        let (readings, input) = Signal<Int>.pipe()
        let values = readings.values()
        DispatchQueue.global().async {
            for reading in 1...3 { input.send(reading) }
            input.sendCompleted()
        }
        for try await reading in values {
            model.log.append("reading \(reading) \(isOnMainQueue())")
        }
        #expect(model.log == ["reading 1 true", "reading 2 true", "reading 3 true"])
    }

    @Test func aMainActorCancelFunctionRunsOnTheMainActor() async throws {
        let request = LegacyRequest()
        let future = request.future
        future.requestCancellation()  // requested on the main thread: runs at once
        #expect(request.cancelCount == 1)
        #expect(future.peek()?.isCancelled == true)

        let other = LegacyRequest()
        let otherFuture = other.future
        await requestCancellationInBackground(of: otherFuture)  // requested elsewhere: hops
        #expect(await otherFuture.outcome.isCancelled)
        #expect(other.cancelCount == 1)

        // Handlers registered on the main actor run there in the order they were registered.
        let model = ProfileModel()
        let promise = Promise<Int>()
        for step in 1...3 {
            promise.onCancellationRequest { @MainActor _ in model.log.append("handler \(step) \(isOnMainQueue())") }
        }
        promise.cancelOnRequest { @MainActor in model.cancelled += 1 }
        let ordered = promise.future
        await requestCancellationInBackground(of: ordered)
        #expect(await ordered.outcome.isCancelled)
        #expect(model.log == ["handler 1 true", "handler 2 true", "handler 3 true"])
        #expect(model.cancelled == 1)
    }

    @Test func aMainActorFutureConvertibleIsAwaitedChainedAndFollowed() async throws {
        let request = LegacyRequest()
        let awaited = Task { try await request.value }
        while request.completion == nil { await Task.yield() }  // the task has started the request
        request.completion?(Data("body".utf8), nil)
        #expect(try await awaited.value == Data("body".utf8))

        let next = LegacyRequest()
        let chained = Future(value: 1).flatMap(on: .main) { _ in next }
        let follower = Promise<Data>()
        follower.complete(using: LegacyRequest())
        while next.completion == nil { await Task.yield() }  // the main-actor transform has run
        next.completion?(Data("next".utf8), nil)
        #expect(try await chained.value == Data("next".utf8))
        follower.future.requestCancellation()
        #expect(await follower.future.outcome.isCancelled)
    }

    @Test func withPromiseBodyUsesMainActorStateAndReturnsANonSendableValue() async throws {
        let model = ProfileModel()
        let number = try await withPromise(of: Int.self) { promise in
            model.title = "in body"
            promise.succeed(model.title.count)
        }
        #expect(number == 7)
        let draft = try await withPromise { promise in LegacyDrafts.makeDraft { promise.succeed($0) } }
        draft.text += "!"
        #expect(draft.text == "hello!")
        let adapted: Draft = try await withPromise { promise in
            LegacyDrafts.makeOptionalDraft(completion: promise.resolve)
        }
        adapted.text += "?"
        #expect(adapted.text == "optional?")
    }

    @Test func theAsyncBuilderInheritsTheMainActorAndAwaitingResumesThere() async throws {
        let model = ProfileModel()
        model.title = "from the main actor"
        let future = Future { () async -> String in
            await Task.yield()
            return "\(model.title) \(isOnMainQueue())"
        }
        #expect(try await future.value == "from the main actor true")
        let background = Promise<Int>()
        completeInBackground(background, with: .success(1))
        _ = try await background.future.value
        #expect(isOnMainQueue())
    }
}
