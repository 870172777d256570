import Dispatch
import Fixtures
import Foundation
import FutureBridge
import LoopbackServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The forms generated from a request-object client (Fixtures/RequestClient+Async.swift),
/// against a real URLSession and an HTTP server on 127.0.0.1: every form whose operation
/// can be stopped is cancelled here, and the operation is seen to stop.
@Suite("Request objects, progress and observation", .timeLimit(.minutes(1)))
struct RequestClientTests {
    let client = RequestClient()

    @Test("A response that carries its result: the value comes back, the failure is thrown")
    func carriedResult() async throws {
        let server = try LoopbackServer()
        #expect(try await client.request(server.url("/hello")).responseString() == "/hello")
        let url = server.url("/gone")
        server.stop()
        await #expect(throws: RequestError.self) { try await client.request(url).responseString() }
    }

    @Test("Cancelling the awaiting task cancels the request (`-> Self`, cancel() inherited): the server sees it go")
    func requestReturningSelf() async throws {
        let server = try LoopbackServer(holding: ["/slow"])
        defer { server.stop() }
        let request = client.request(server.url("/slow"))
        let task = Task { try await request.responseString() }
        for await path in server.requests where path == "/slow" { break }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(request.isCancelled)
        var disconnects = server.disconnects.makeAsyncIterator()
        #expect(await disconnects.next() == "/slow")
    }

    @Test("Progress is a stream: every value in order; ending it cancels the request")
    func progressStream() async throws {
        let server = try LoopbackServer(holding: ["/large"])
        defer { server.stop() }
        let request = client.request(server.url("/large"))
        var progress = request.downloadProgress().makeAsyncIterator()
        for await path in server.requests where path == "/large" { break }
        for fraction in [0.25, 0.5, 1.0] { request.reportProgress(fraction) }
        var received: [Double] = []
        for _ in 0..<3 { try await received.append(#require(progress.next())) }
        #expect(received == [0.25, 0.5, 1.0])
        #expect(!request.isCancelled)

        let consumer = Task {
            for try await _ in request.downloadProgress() {}
        }
        consumer.cancel()
        try await consumer.value
        #expect(request.isCancelled)
        #expect(request.progressHandlerCount == 0)
        var disconnects = server.disconnects.makeAsyncIterator()
        #expect(await disconnects.next() == "/large")
    }

    @Test("A progress stream ends when its request finishes (its finish event), though the request is still held")
    func progressStreamEndsWithTheRequest() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let request = client.request(server.url("/quick"))
        // (Without the finish event, this loop would wait for as long as the request is held.)
        for try await _ in request.downloadProgress() {}
        #expect(!request.isCancelled)
        // The request is still held here: its handlers were not released; the finish event ended the loop.
        #expect(request.progressHandlerCount == 1)
    }

    @Test("A held stream request's progress stream ends with its stream handler's last event (`.complete`)")
    func progressStreamEndsWithTheStreamEvent() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let request = client.streamRequest(server.url("/quick"))
        // (Its class declares no handler called once: without `.complete`, this loop would wait
        // for as long as the request is held.)
        for try await _ in request.downloadProgress() {}
        #expect(!request.isCancelled)
        #expect(request.progressHandlerCount == 1)
    }

    @Test("An observation is a stream: every value in order; cancelling the consumer invalidates it")
    func observationStream() async throws {
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let consumer = Task { [client] in
            var received: [String] = []
            for try await status in client.observeStatus() {
                if received.isEmpty, status == "ready" {
                    startedContinuation.yield()
                    continue
                }
                received.append(status)
                if received.count == 3 { break }
            }
            return received
        }
        // The observer is registered when the stream is made; "ready" says the loop runs.
        while client.observerCount == 0 { await Task.yield() }
        client.publish("ready")
        for await _ in started { break }
        for status in ["a", "b", "c"] { client.publish(status) }
        #expect(try await consumer.value == ["a", "b", "c"])
        #expect(client.observerCount == 0)

        let cancelled = Task { [client] in
            for try await _ in client.observeStatus() {}
        }
        while client.observerCount == 0 { await Task.yield() }
        cancelled.cancel()
        try await cancelled.value
        #expect(client.observerCount == 0)
    }

    @Test("A throwing function's stream form throws what it throws; otherwise values in order, and its end invalidates")
    func throwingStream() async throws {
        #expect(throws: RequestError("no channel news")) { _ = try client.observeChannel("news") }
        #expect(client.observerCount == 0)
        var statuses = try client.observeChannel("status").makeAsyncIterator()
        #expect(client.observerCount == 1)
        client.publish("a")
        client.publish("b")
        #expect(try await statuses.next() == "a")
        #expect(try await statuses.next() == "b")

        let consumer = Task { [client] in
            for try await _ in try client.observeChannel("status") {}
        }
        while client.observerCount < 2 { await Task.yield() }
        consumer.cancel()
        try await consumer.value
        #expect(client.observerCount == 1)
    }

    @Test("start…/stop…: the stream's end calls stopMonitoring(); a nested Result stays the monitor's")
    func startStopPair() async throws {
        let monitor = ConnectionMonitor()
        var changes = monitor.startMonitoring().makeAsyncIterator()
        #expect(monitor.isMonitoring)
        monitor.report(.offline)
        monitor.report(.online)
        #expect(try await changes.next() == .offline)
        #expect(try await changes.next() == .online)

        let consumer = Task { for try await _ in monitor.startMonitoring() {} }
        consumer.cancel()
        try await consumer.value
        #expect(!monitor.isMonitoring)
    }

    @Test("A function that returns a future: awaited; cancelling the task cancels the request")
    func futureForm() async throws {
        let server = try LoopbackServer(holding: ["/slow"])
        defer { server.stop() }
        #expect(try await client.text(at: server.url("/text")) == "/text")
        let task = Task { [client] in try await client.text(at: server.url("/slow")) }
        for await path in server.requests where path == "/slow" { break }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        var disconnects = server.disconnects.makeAsyncIterator()
        #expect(await disconnects.next() == "/slow")
    }

    @Test("The SDK's own async form, and a parameter named like the method")
    func existingAsyncAndShadowing() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        #expect(try await client.status(of: server.url("/ok")) == 200)
        #expect(try await client.task("four") == 4)
    }

    @Test("A trailing-closure call of Just.get from async code still reaches the original: no form captures it")
    @MainActor
    func trailingClosureCallsKeepTheirMeaning() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        // With a scoped form `get(_:session:asyncCompletionHandler:) async`, this call would
        // not compile without `await` (Swift prefers the async overload in async code).
        let (texts, continuation) = AsyncStream<String>.makeStream()
        Just.get(server.url("/hi")) { result in continuation.yield(result.text ?? "") }
        var iterator = texts.makeAsyncIterator()
        #expect(await iterator.next() == "/hi")
    }

    @Test("A value that is not Sendable comes back as `sending` to the main actor, which may change it")
    @MainActor
    func sendingValue() async throws {
        let draft = try await client.makeDraft(title: "Hello")
        draft.text += "!"
        #expect(draft.text == "Hello!")
    }

    @Test("Existing calls from async code still reach the synchronous functions")
    func existingCallsUnchanged() async throws {
        let server = try LoopbackServer(holding: ["/file"])
        defer { server.stop() }
        let download = client.download(server.url("/file"))
        await ExistingCallers.cancelAndFlush(download: download, store: LegacyStore())
        #expect(download.isCancelled)
    }
}
