import Foundation
import FutureBridgeInternals
import LoopbackHTTP
import Testing

@testable import FutureBridge

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The URLSession story of "Migrating a callback API", old and new side by side against a
/// server on 127.0.0.1: the legacy entry point keeps its signature (it returns the
/// `URLSessionDataTask` its callers keep) and, with `cancelledAs:`, the error a cancelled
/// caller receives. Nothing sleeps: each test awaits the completion handler's call.
@Suite(.timeLimit(.minutes(1)))
struct LegacyShimTests {
    typealias Completion = @Sendable (Data?, URLResponse?, (any Error)?) -> Void

    /// Before the migration: the module calls URLSession itself.
    static func oldFetch(_ url: URL, in session: URLSession, completion: @escaping Completion) -> URLSessionDataTask {
        let task = session.dataTask(with: url, completionHandler: completion)
        task.resume()
        return task
    }

    /// After: the module makes a future, and hands out the task that runs it.
    /// `onFinish` runs after URLSession called the task's completion handler.
    static func download(
        _ url: URL, in session: URLSession, onFinish: @escaping @Sendable () -> Void = {}
    ) -> (future: Future<(Data?, URLResponse?)>, task: URLSessionDataTask) {
        let promise = Promise<(Data?, URLResponse?)>()
        let task = session.dataTask(with: url) { data, response, error in
            promise.resolve(data, response, error)
            onFinish()
        }
        promise.cancelOnRequest(task.cancel)
        task.resume()
        return (promise.future, task)
    }

    /// The legacy entry point on top of the new code, as the article shows it.
    static func newFetch(_ url: URL, in session: URLSession, completion: @escaping Completion) -> URLSessionDataTask {
        let (future, task) = download(url, in: session)
        future.deliver(cancelledAs: URLError(.cancelled), to: completion)
        return task
    }

    /// The same, without `cancelledAs:`: what the migration changed before it existed.
    static func newFetchWithoutMapping(
        _ url: URL, in session: URLSession, completion: @escaping Completion
    ) -> URLSessionDataTask {
        let (future, task) = download(url, in: session)
        future.deliver(to: completion)
        return task
    }

    /// What a legacy caller saw: the status, the body and the error of the one call.
    struct Seen: Sendable {
        var status: Int?
        var body: String?
        var error: (any Error)?
    }

    typealias Fetch = (URL, URLSession, @escaping Completion) -> URLSessionDataTask

    /// Calls `fetch` as a legacy caller would, cancels the returned task when `cancel` is
    /// set (the server holds the request open, so only the cancellation can end it), and
    /// returns what the completion handler received.
    static func call(_ fetch: Fetch, path: String, cancel: Bool) async throws -> Seen {
        let server = try LoopbackHTTPServer { path in
            path == "/held" ? nil : .init(body: "price of \(path)")
        }
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let seen = Promise<Seen>()
        let task = fetch(server.url(path), session) { data, response, error in
            seen.succeed(
                Seen(
                    status: (response as? HTTPURLResponse)?.statusCode,
                    body: data.map { String(decoding: $0, as: UTF8.self) }, error: error))
        }
        if cancel { task.cancel() }
        return try await seen.future.value
    }

    @Test func aValueArrivesAsBefore() async throws {
        for fetch in [Self.oldFetch, Self.newFetch] as [Fetch] {
            let seen = try await Self.call(fetch, path: "/apples", cancel: false)
            #expect(seen.status == 200)
            #expect(seen.body == "price of /apples")
            #expect(seen.error == nil)
        }
    }

    @Test func cancellingTheReturnedTaskGivesURLErrorCancelledAsBefore() async throws {
        let old = try await Self.call(Self.oldFetch, path: "/held", cancel: true)
        let new = try await Self.call(Self.newFetch, path: "/held", cancel: true)
        #expect((old.error as? URLError)?.code == .cancelled)
        #expect((new.error as? URLError)?.code == .cancelled)
        #expect(old.status == nil && new.status == nil)
    }

    @Test func withoutCancelledAsTheCallerReceivesCancellationError() async throws {
        let seen = try await Self.call(Self.newFetchWithoutMapping, path: "/held", cancel: true)
        #expect(seen.error is CancellationError)
    }

    @Test func aCancelRequestFromTheFutureSideAlsoReachesTheLegacyCallerAsTheDomainError() async throws {
        let server = try LoopbackHTTPServer { _ in nil }
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        // The test ends only once URLSession has called the task back: a session
        // invalidated and a server stopped while the cancelled task is still winding down
        // can stop the process in FoundationNetworking ("a task that is not in the
        // registry"), as it did once in a later test.
        let finished = Promise<Void>()
        let (future, task) = Self.download(server.url("/held"), in: session, onFinish: { finished.succeed() })
        let seen = Promise<(any Error)?>()
        future.deliver(cancelledAs: URLError(.cancelled)) { (_: Data?, _: URLResponse?, error: (any Error)?) in
            seen.succeed(error)
        }
        future.requestCancellation()
        let error = try await seen.future.value
        #expect((error as? URLError)?.code == .cancelled)
        #expect(task.state == .canceling || task.state == .completed)  // cancelOnRequest ran task.cancel()
        _ = await finished.future.outcome
    }

    struct Stopped: Error {}

    static func cancelled<Value>(_: Value.Type = Value.self) -> Future<Value> {
        let promise = Promise<Value>()
        promise.cancel()
        return promise.future
    }

    @Test func everyShapeThatCarriesAnErrorDeliversTheDomainError() {
        let seen = Locked<[String]>([])
        let record: @Sendable ((any Error)?) -> Void = { error in
            seen.withLock { $0.append(error.map { "\(type(of: $0))" } ?? "nil") }
        }
        let int = Self.cancelled(Int.self)
        int.deliver(cancelledAs: Stopped()) { (result: Result<Int, any Error>) in
            if case .failure(let error) = result { record(error) } else { record(nil) }
        }
        int.deliver(cancelledAs: Stopped()) { (_: Int?, error: (any Error)?) in record(error) }
        int.deliver(cancelledAs: Stopped()) { (error: (any Error)?, _: Int?) in record(error) }
        int.deliver(cancelledAs: Stopped(), to: { (_: Int, error: (any Error)?) in record(error) }, valueOnFailure: 0)
        int.deliver(cancelledAs: Stopped(), success: { _ in record(nil) }, failure: { record($0) })
        Self.cancelled(Void.self).deliver(cancelledAs: Stopped()) { (error: (any Error)?) in record(error) }
        Self.cancelled((Int?, String?).self).deliver(cancelledAs: Stopped()) {
            (_: Int?, _: String?, error: (any Error)?) in record(error)
        }
        #expect(seen.withLock { $0 } == Array(repeating: "Stopped", count: 7))
    }

    @MainActor @Test func theMainActorTwinsDeliverTheDomainError() async throws {
        var received: [Promise<String>] = []
        func recorder() -> @MainActor ((any Error)?) -> Void {
            let promise = Promise<String>()
            received.append(promise)
            return { error in promise.succeed(error.map { "\(type(of: $0))" } ?? "nil") }
        }
        let int = Self.cancelled(Int.self)
        let r1 = recorder()
        let r2 = recorder()
        let r3 = recorder()
        let r4 = recorder()
        let r5 = recorder()
        let r6 = recorder()
        let r7 = recorder()
        int.deliver(on: .main, cancelledAs: Stopped()) { (result: Result<Int, any Error>) in
            if case .failure(let error) = result { r1(error) } else { r1(nil) }
        }
        int.deliver(on: .main, cancelledAs: Stopped()) { (_: Int?, error: (any Error)?) in r2(error) }
        int.deliver(on: .main, cancelledAs: Stopped()) { (error: (any Error)?, _: Int?) in r3(error) }
        int.deliver(
            on: .main, cancelledAs: Stopped(), to: { (_: Int, error: (any Error)?) in r4(error) }, valueOnFailure: 0)
        int.deliver(on: .main, cancelledAs: Stopped(), success: { _ in r5(nil) }, failure: { r5($0) })
        Self.cancelled(Void.self).deliver(on: .main, cancelledAs: Stopped()) { (error: (any Error)?) in r6(error) }
        Self.cancelled((Int?, String?).self).deliver(on: .main, cancelledAs: Stopped()) {
            (_: Int?, _: String?, error: (any Error)?) in r7(error)
        }
        var names: [String] = []
        for promise in received { names.append(try await promise.future.value) }
        #expect(names == Array(repeating: "Stopped", count: 7))
    }
}
