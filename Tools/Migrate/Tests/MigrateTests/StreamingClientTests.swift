import Fixtures
import Foundation
import FutureBridge
import Testing

/// The forms generated from a streaming client (Fixtures/StreamingClient+Async.swift): a
/// value handler beside a terminal completion is one stream, a handle whose one method is
/// `cancelRequest()` or `dispose()` is stopped through it, a stream ends when the library
/// releases its handlers, and a `(ParseError?)` handler throws the `ParseError`.
@Suite("Streams with a terminal completion", .timeLimit(.minutes(1)))
struct StreamingClientTests {
    let client = StreamingClient()

    /// Everything the stream yields until it ends, and the error that ended it.
    func drain(_ stream: AsyncThrowingStream<Chunk, any Error>) async -> ([String], (any Error)?) {
        var texts: [String] = []
        do {
            for try await chunk in stream { texts.append(chunk.text) }
            return (texts, nil)
        } catch {
            return (texts, error)
        }
    }

    @Test("Every value in order, and the completion ends the loop")
    func completionEnds() async throws {
        let stream = client.stream(query: "q")
        let feed = try #require(client.feeds.last)
        for text in ["a", "b", "c"] { feed.send(text) }
        feed.finish()
        let (texts, error) = await drain(stream)
        #expect(texts == ["a", "b", "c"])
        #expect(error == nil)
        // The completion ended the request: nothing cancels it afterwards.
        #expect(feed.stopCount == 0)
    }

    @Test("A non-nil terminal error is thrown after the values")
    func completionError() async throws {
        let stream = client.stream(query: "q")
        let feed = try #require(client.feeds.last)
        feed.send("a")
        feed.finish(error: ParseError(line: 500))
        let (texts, error) = await drain(stream)
        #expect(texts == ["a"])
        #expect(error as? ParseError == ParseError(line: 500))
        #expect(feed.stopCount == 0)
    }

    @Test("A `.failure` value ends the loop by throwing it, and the request is cancelled")
    func failedValue() async throws {
        let stream = client.stream(query: "q")
        let feed = try #require(client.feeds.last)
        feed.send("a")
        feed.fail(ParseError(line: 7))
        feed.send("late")
        let (texts, error) = await drain(stream)
        #expect(texts == ["a"])
        #expect(error as? ParseError == ParseError(line: 7))
        #expect(feed.stopCount == 1)
    }

    @Test("Handlers released without the completion: the loop throws AbandonedPromiseError naming the generated file")
    func released() async throws {
        let stream = client.stream(query: "q")
        let feed = try #require(client.feeds.last)
        feed.send("a")
        feed.drop()
        let (texts, error) = await drain(stream)
        #expect(texts == ["a"])
        let abandoned = try #require(error as? AbandonedPromiseError)
        #expect(abandoned.fileID.hasSuffix("StreamingClient+Async.swift"))
    }

    @Test("Cancelling the consumer calls cancelRequest(): no more values reach the handler")
    func consumerCancelled() async throws {
        let stream = client.stream(query: "q")
        let feed = try #require(client.feeds.last)
        let task = Task { await drain(stream) }
        task.cancel()
        _ = await task.value
        #expect(feed.isStopped)
    }

    @Test("A watch's stream: dispose() when its consumer leaves; it ends when the library lets the handler go")
    func watch() async throws {
        let first = client.watch("k")
        let firstFeed = try #require(client.feeds.last)
        firstFeed.send("x")
        firstFeed.drop()
        var values: [String] = []
        for try await value in first { values.append(value) }
        #expect(values == ["x"])

        let second = client.watch("k")
        let secondFeed = try #require(client.feeds.last)
        let task = Task {
            for try await _ in second {}
        }
        task.cancel()
        try await task.value
        #expect(secondFeed.isStopped)
    }

    /// Drains the stream `start` makes, and returns once the stream is released.
    func drained(_ start: () -> AsyncThrowingStream<Chunk, any Error>) async -> ([String], (any Error)?) {
        await drain(start())
    }

    @Test("An operation that ends inside the call is not stopped, when it ends or when the stream is released")
    func endedInsideTheCall() async throws {
        let answered = StreamingClient { feed in
            feed.send("a")
            feed.finish()
        }
        let (texts, error) = await drained { answered.stream(query: "q") }
        #expect(texts == ["a"])
        #expect(error == nil)
        #expect(try #require(answered.feeds.last).stopCount == 0)

        let hungUp = StreamingClient { feed in
            feed.send("x")
            feed.drop()
        }
        var values: [String] = []
        for try await value in hungUp.watch("k") { values.append(value) }
        #expect(values == ["x"])
        #expect(try #require(hungUp.feeds.last).stopCount == 0)
    }

    @Test("A `.failure` inside the call stops the request once, as soon as the form has its handle")
    func failedInsideTheCall() async throws {
        let failing = StreamingClient { feed in feed.fail(ParseError(line: 1)) }
        let stream = failing.stream(query: "q")
        let feed = try #require(failing.feeds.last)
        #expect(feed.stopCount == 1)
        let (texts, error) = await drain(stream)
        #expect(texts.isEmpty)
        #expect(error as? ParseError == ParseError(line: 1))
        #expect(feed.stopCount == 1)
    }

    @Test("A completion on another thread racing the call: the request is never stopped after it")
    func completionRacingTheCall() async throws {
        for _ in 0..<1_000 {
            let finished = DispatchGroup()
            let client = StreamingClient { feed in
                finished.enter()
                DispatchQueue.global().async {
                    feed.send("a")
                    feed.finish()
                    finished.leave()
                }
            }
            let (texts, error) = await drained { client.stream(query: "q") }
            await withCheckedContinuation { done in finished.notify(queue: .global()) { done.resume() } }
            #expect(texts == ["a"])
            #expect(error == nil)
            let stops = try #require(client.feeds.last).stopCount
            #expect(stops == 0)
            if stops != 0 { break }
        }
    }

    @Test("A `(ParseError?)` handler: the struct conforms to Error, so the form throws it")
    func typedError() async throws {
        try await client.validate("fine")
        await #expect(throws: ParseError(line: 2)) { try await client.validate("ok\nbad!") }
    }

    @Test("An observer's stream yields each status (not the observer); the consumer's end cancels the token")
    func observer() async throws {
        final class Observer: Sendable {}
        let observer = Observer()
        let statuses = client.addObserver(observer)
        let feed = try #require(client.feeds.last)
        for status in ["starting", "ok"] { feed.send(status) }
        var iterator = statuses.makeAsyncIterator()
        #expect(try await iterator.next() == "starting")
        #expect(try await iterator.next() == "ok")
        let task = Task {
            for try await _ in statuses {}
        }
        task.cancel()
        try await task.value
        #expect(feed.isStopped)
        withExtendedLifetime(observer) {}
    }
}
