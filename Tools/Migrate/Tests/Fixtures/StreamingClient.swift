// A streaming API client in the style of real ones, written for the tests: a query
// streams its results through `onResult` and then calls a terminal `completion` with an
// optional error; what it returns is a handle protocol whose one method is
// `cancelRequest()`; a watch returns a `Disposable` whose one method is `dispose()`; an
// observer registration hands the observer and the client back with each status; a
// check reports a `ParseError` (a struct conforming to `Error`) through `(ParseError?)`.
// The tests play the server by hand through `Feed`, so every ending is deterministic:
// values, a failed value, a completion with or without an error, the handlers released
// without a completion, and the consumer leaving; `answering` plays it inside the call.
import Foundation

/// A request in flight, as the client hands it out.
public protocol RequestHandle: Sendable {
    /// Stops the request: no more results, and no completion.
    func cancelRequest()
}

/// What stops a watch.
public protocol Disposable: Sendable {
    func dispose()
}

/// One result of a query.
public struct Chunk: Sendable, Equatable {
    public var text: String

    public init(_ text: String) {
        self.text = text
    }
}

/// A failure the client reports: a struct, not an `Error` spelled as such.
public struct ParseError: Error, Equatable, Sendable {
    public var line: Int

    public init(line: Int) {
        self.line = line
    }
}

/// The server side of one query or watch, driven by the test.
public final class Feed: RequestHandle, Disposable, @unchecked Sendable {
    // Every mutable field is read and written under `lock`: the class is Sendable.
    private let lock = NSLock()
    private var onResult: (@Sendable (Result<Chunk, any Error>) -> Void)?
    private var completion: (@Sendable ((any Error)?) -> Void)?
    private var stops = 0

    init(
        onResult: @escaping @Sendable (Result<Chunk, any Error>) -> Void,
        completion: (@Sendable ((any Error)?) -> Void)?
    ) {
        self.onResult = onResult
        self.completion = completion
    }

    /// Whether the client stopped the feed (`cancelRequest()` or `dispose()`).
    public var isStopped: Bool { stopCount > 0 }

    /// How many times the client stopped the feed.
    public var stopCount: Int { lock.withLock { stops } }

    /// Sends a result, if the feed still runs.
    public func send(_ text: String) {
        lock.withLock { onResult }?(.success(Chunk(text)))
    }

    /// Sends a failed result.
    public func fail(_ error: any Error) {
        lock.withLock { onResult }?(.failure(error))
    }

    /// Ends the query: the completion is called once, then both handlers are released.
    public func finish(error: (any Error)? = nil) {
        released().completion?(error)
    }

    /// Lets go of both handlers without calling the completion (as a client that loses a
    /// connection and forgets the request does).
    public func drop() {
        _ = released()
    }

    public func cancelRequest() {
        lock.withLock { stops += 1 }
        _ = released()
    }

    /// Takes both handlers out, so that they are released after the lock (what releasing
    /// them runs may call back into the feed).
    private func released() -> (
        onResult: (@Sendable (Result<Chunk, any Error>) -> Void)?, completion: (@Sendable ((any Error)?) -> Void)?
    ) {
        lock.withLock {
            defer { (onResult, completion) = (nil, nil) }
            return (onResult, completion)
        }
    }

    public func dispose() {
        cancelRequest()
    }
}

/// What an observer registration returns: cancelling it removes the observer.
public final class ObservationToken: Sendable {
    private let feed: Feed

    init(_ feed: Feed) {
        self.feed = feed
    }

    public func cancel() {
        feed.cancelRequest()
    }
}

/// The client: each call starts a feed that the test drives.
public final class StreamingClient: Sendable {
    private let started: LockedFeeds

    /// `answering`: the server's side of each call, run inside the call before it returns
    /// (a cache that answers at once, a refusal, a server that hangs up at once).
    public init(answering: (@Sendable (Feed) -> Void)? = nil) {
        started = LockedFeeds(answering: answering)
    }

    /// The feeds started so far, in order.
    public var feeds: [Feed] { started.all }

    /// Streams the results of `query`, then calls `completion` (with the error that ended
    /// the query, if any).
    public func stream(
        query: String, onResult: @escaping @Sendable (Result<Chunk, any Error>) -> Void,
        completion: (@Sendable ((any Error)?) -> Void)? = nil
    ) -> RequestHandle {
        started.append(Feed(onResult: onResult, completion: completion))
    }

    /// Calls `onChange` with each new value of `key` until the returned watch is disposed.
    public func watch(_ key: String, onChange: @escaping @Sendable (String) -> Void) -> Disposable {
        started.append(Feed(onResult: { if case .success(let chunk) = $0 { onChange(chunk.text) } }, completion: nil))
    }

    /// Calls `closure` with the observer, the client and each new status, while the observer
    /// lives (it is held weakly) and until the token is cancelled.
    public func addObserver<O: AnyObject & Sendable>(
        _ observer: O, closure: @escaping @Sendable (O, StreamingClient, String) -> Void
    ) -> ObservationToken {
        let feed = started.append(
            Feed(
                onResult: { [weak observer, weak self] result in
                    guard let observer, let self, case .success(let chunk) = result else { return }
                    closure(observer, self, chunk.text)
                }, completion: nil))
        return ObservationToken(feed)
    }

    /// Checks `text`, then calls `completion` with the first error found, or `nil`.
    public func validate(_ text: String, completion: @escaping @Sendable (ParseError?) -> Void) {
        let line = text.split(separator: "\n").firstIndex { $0.contains("!") }
        completion(line.map { ParseError(line: $0 + 1) })
    }
}

private final class LockedFeeds: @unchecked Sendable {
    // `feeds` is read and written under `lock`, and `answering` is a constant Sendable
    // closure: the class is Sendable.
    private let lock = NSLock()
    private var feeds: [Feed] = []
    private let answering: (@Sendable (Feed) -> Void)?

    init(answering: (@Sendable (Feed) -> Void)?) {
        self.answering = answering
    }

    var all: [Feed] { lock.withLock { feeds } }

    func append(_ feed: Feed) -> Feed {
        lock.withLock { feeds.append(feed) }
        answering?(feed)
        return feed
    }
}
