// A request-object HTTP client over a real URLSession, written for the tests in the
// styles real callback libraries use: request methods that return the request itself
// (`-> Self`) with `cancel()` declared once in a base class, responses that carry their
// own failure (`result: Result<T, E>`, or an optional `error`), generic type aliases,
// callback-queue parameters defaulting to `.main`, progress and observation handlers
// called many times (one of them throwing), a finish event in each subclass (one of them a
// stream handler whose last event says the request is over), an SDK call with its own
// async form, a `start…`/`stop…` pair, a nested type named `Result`, and functions that return
// FutureBridge futures. The tests drive the async and stream forms futurebridge-migrate
// generated in RequestClient+Async.swift against a loopback server.
import Dispatch
import Foundation
import FutureBridge

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The failure a response carries.
public struct RequestError: Error, Equatable, Sendable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}

/// What a request delivers: the status code, and the result. A failure rides in the value.
public struct DataResponse<Success: Sendable>: Sendable {
    public let statusCode: Int?
    public let result: Result<Success, RequestError>
}

/// A response of any body type, as SDKs spell it: a generic type alias.
public typealias ResponseOf<Success: Sendable> = DataResponse<Success>

/// A request in flight. Its methods return the request itself, for chaining; `cancel()`
/// is declared here, once, and its subclasses inherit it.
open class Request: @unchecked Sendable {
    // Every mutable field is read and written under `lock`: the class is Sendable.
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var finished: (data: Data?, statusCode: Int?, error: RequestError?)?
    private var waiting: [@Sendable (Data?, Int?, RequestError?) -> Void] = []
    private var progressHandlers: [(queue: DispatchQueue, handler: @Sendable (Double) -> Void)] = []
    private var cancelledFlag = false

    init(session: URLSession, url: URL) {
        // The task's handler keeps the request until the task ends (as a session keeps its
        // requests), whoever else holds it.
        let task = session.dataTask(with: url) { data, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode
            self.finish(data: data, statusCode: status, error: error.map { RequestError("\($0)") })
        }
        lock.withLock { self.task = task }
        task.resume()
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { lock.withLock { cancelledFlag } }

    /// How many progress handlers are registered.
    public var progressHandlerCount: Int { lock.withLock { progressHandlers.count } }

    /// Cancels the request: its response handlers receive a cancellation failure.
    ///
    /// - Returns: The request.
    @discardableResult
    public func cancel() -> Self {
        let task = lock.withLock {
            cancelledFlag = true
            progressHandlers = []
            return self.task
        }
        task?.cancel()
        return self
    }

    /// Registers a handler for the download's progress, called on `queue` each time it
    /// advances.
    ///
    /// - Parameters:
    ///   - queue: The queue the handler runs on. `.main` by default.
    ///   - closure: Receives the fraction done, from 0 to 1.
    /// - Returns: The request.
    @discardableResult
    public func downloadProgress(queue: DispatchQueue = .main, closure: @escaping @Sendable (Double) -> Void) -> Self {
        lock.withLock { progressHandlers.append((queue, closure)) }
        return self
    }

    /// Reports progress to the registered handlers (a real client reports the bytes as
    /// they arrive; the tests say when).
    public func reportProgress(_ fraction: Double) {
        for (queue, handler) in lock.withLock({ progressHandlers }) {
            queue.async { handler(fraction) }
        }
    }

    /// Adds a handler for the raw outcome. (Its subclasses' handlers use it; the base class
    /// declares no finish event its users see, as Alamofire's `Request` does not.)
    fileprivate func whenFinished(_ handler: @escaping @Sendable (Data?, Int?, RequestError?) -> Void) {
        let finished: (data: Data?, statusCode: Int?, error: RequestError?)? = lock.withLock {
            if self.finished == nil { waiting.append(handler) }
            return self.finished
        }
        if let finished { handler(finished.data, finished.statusCode, finished.error) }
    }

    private func finish(data: Data?, statusCode: Int?, error: RequestError?) {
        let handlers = lock.withLock {
            finished = (data, statusCode, error)
            defer { waiting = [] }
            return waiting
        }
        for handler in handlers { handler(data, statusCode, error) }
    }
}

/// A request whose body is kept in memory.
public final class DataRequest: Request, @unchecked Sendable {
    /// Adds a handler called once the request has finished, with the response decoded as
    /// UTF-8 text.
    ///
    /// - Parameters:
    ///   - queue: The queue the handler runs on. `.main` by default.
    ///   - completionHandler: Receives the response. Its `result` is the text, or the
    ///     failure: a refused connection, or the request's cancellation.
    /// - Returns: The request.
    @discardableResult
    public func responseString(
        queue: DispatchQueue = .main, completionHandler: @escaping @Sendable (ResponseOf<String>) -> Void
    ) -> Self {
        whenFinished { data, status, error in
            let result: Result<String, RequestError> =
                error.map { .failure($0) } ?? .success(String(decoding: data ?? Data(), as: UTF8.self))
            queue.async { completionHandler(DataResponse(statusCode: status, result: result)) }
        }
        return self
    }
}

/// A request whose body is delivered as events (Alamofire's `DataStreamRequest`): a stream
/// handler is called with each part of the body, then with `.complete`.
public final class StreamRequest: Request, @unchecked Sendable {
    /// A stream handler: it may throw to stop the request.
    public typealias Handler<Success: Sendable> = @Sendable (Stream<Success>) throws -> Void

    /// What a stream handler receives.
    public struct Stream<Success: Sendable>: Sendable {
        public let event: Event<Success>
    }

    /// A part of the body, or the end of the request with its status code.
    public enum Event<Success: Sendable>: Sendable {
        case stream(Success)
        case complete(Int?)
    }

    /// Adds a handler called with the body as it arrives (here: in one part), as text.
    ///
    /// - Parameters:
    ///   - queue: The queue the handler runs on. `.main` by default.
    ///   - stream: Called with each part, then with `.complete`.
    /// - Returns: The request.
    @discardableResult
    public func responseStream(on queue: DispatchQueue = .main, stream: @escaping Handler<String>) -> Self {
        whenFinished { data, status, _ in
            queue.async {
                try? stream(Stream(event: .stream(String(decoding: data ?? Data(), as: UTF8.self))))
                try? stream(Stream(event: .complete(status)))
            }
        }
        return self
    }
}

/// A request whose body is saved for later.
public final class DownloadRequest: Request, @unchecked Sendable {
    /// Cancels the download and hands over the data to resume it with. Its async form
    /// would be named `cancel()`, like the synchronous `cancel()` existing code calls: the
    /// tool must not write it.
    @discardableResult
    public func cancel(byProducingResumeData completionHandler: @escaping @Sendable (Data?) -> Void) -> Self {
        cancel()
        completionHandler(Data("resume".utf8))
        return self
    }
}

/// A client: requests, an SDK call with its own async form, futures and a status feed.
public final class RequestClient: Sendable {
    public let session: URLSession
    private let observers = Observers()

    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.session = session
    }

    /// Starts a request for `url`.
    public func request(_ url: URL) -> DataRequest {
        DataRequest(session: session, url: url)
    }

    /// Starts a request for `url` whose body is delivered as events.
    public func streamRequest(_ url: URL) -> StreamRequest {
        StreamRequest(session: session, url: url)
    }

    /// Starts a download of `url`.
    public func download(_ url: URL) -> DownloadRequest {
        DownloadRequest(session: session, url: url)
    }

    /// The status code of `url`. The SDK ships the async form below itself.
    ///
    /// - Parameters:
    ///   - url: What to ask.
    ///   - callbackQueue: The queue to call the completion on.
    ///     Defaults to `.main`.
    ///   - completion: The block to execute.
    ///     It receives the status code or the error.
    public func status(
        of url: URL, callbackQueue: DispatchQueue = .main,
        completion: @escaping @Sendable (Result<Int, RequestError>) -> Void
    ) {
        request(url).responseString(queue: callbackQueue) { response in
            completion(response.result.map { _ in response.statusCode ?? 0 })
        }
    }

    /// The status code of `url`.
    public func status(of url: URL) async throws -> Int {
        try await withPromise { promise in status(of: url, callbackQueue: .global(), completion: promise.resolve) }
    }

    /// The text at `url`, as a future: a cancel request cancels the request.
    public func text(at url: URL) -> Future<String> {
        Future { promise in
            let request = request(url).responseString(queue: .global()) { promise.resolve($0.result) }
            promise.cancelOnRequest { request.cancel() }
        }
    }

    /// The text at `url`, as a future that existing async code keeps whole (see
    /// CallSites.swift): a same-named async form would take that call over.
    public func cachedText(at url: URL) -> Future<String> {
        text(at: url)
    }

    /// A request whose parameter has the function's name: the form calls `self.task(_:)`.
    public func task(_ task: String, completion: @escaping @Sendable (Result<Int, RequestError>) -> Void) {
        completion(.success(task.count))
    }

    /// Observes the status feed: `handler` is called for every status published, until the
    /// observation is invalidated.
    ///
    /// - Parameter handler: Receives each status.
    /// - Returns: The observation; invalidate it to stop.
    public func observeStatus(_ handler: @escaping @Sendable (String) -> Void) -> StatusObservation {
        observers.add(handler)
    }

    /// Observes the feed of `channel`, which must exist: only `"status"` does here.
    ///
    /// - Parameters:
    ///   - channel: The feed to observe.
    ///   - handler: Receives each status.
    /// - Returns: The observation; invalidate it to stop.
    /// - Throws: `RequestError` when the channel does not exist (no handler is registered).
    public func observeChannel(_ channel: String, _ handler: @escaping @Sendable (String) -> Void) throws
        -> StatusObservation
    {
        guard channel == "status" else { throw RequestError("no channel \(channel)") }
        return observers.add(handler)
    }

    /// Publishes a status to the observers, in order.
    public func publish(_ status: String) {
        observers.publish(status)
    }

    /// How many observers are registered.
    public var observerCount: Int { observers.count }
}

/// A draft the client makes: a class that is not `Sendable`, handed over to the caller.
public final class Draft {
    public var text: String

    init(text: String) {
        self.text = text
    }
}

extension RequestClient {
    /// Makes a draft of `title`, on a queue of the client's.
    public func makeDraft(title: String, completion: @escaping @Sendable (Result<Draft, RequestError>) -> Void) {
        DispatchQueue.global().async { completion(.success(Draft(text: title))) }
    }
}

/// A registered observer of the status feed.
public final class StatusObservation: Sendable {
    private let remove: @Sendable () -> Void

    init(remove: @escaping @Sendable () -> Void) {
        self.remove = remove
    }

    /// Stops the observation: the handler is not called again.
    public func invalidate() {
        remove()
    }
}

/// The status feed's observers, behind a lock.
private final class Observers: @unchecked Sendable {
    // Every field is read and written under `lock`: the class is Sendable.
    private let lock = NSLock()
    private var handlers: [Int: @Sendable (String) -> Void] = [:]
    private var next = 0

    var count: Int { lock.withLock { handlers.count } }

    func add(_ handler: @escaping @Sendable (String) -> Void) -> StatusObservation {
        let key = lock.withLock {
            defer { next += 1 }
            handlers[next] = handler
            return next
        }
        return StatusObservation { [weak self] in
            guard let self else { return }
            _ = lock.withLock { handlers.removeValue(forKey: key) }
        }
    }

    func publish(_ status: String) {
        for (_, handler) in lock.withLock({ handlers.sorted { $0.key < $1.key } }) { handler(status) }
    }
}

/// Watches connectivity between `startMonitoring` and `stopMonitoring`, with a nested type
/// named `Result` that must not change how `Result` reads elsewhere.
public final class ConnectionMonitor: @unchecked Sendable {
    /// What the monitor sees.
    public enum Result: Sendable, Equatable {
        case online, offline
    }

    // Every field is read and written under `lock`: the class is Sendable.
    private let lock = NSLock()
    private var listener: (queue: DispatchQueue, handler: @Sendable (Result) -> Void)?

    public init() {}

    /// Whether a listener is registered.
    public var isMonitoring: Bool { lock.withLock { listener != nil } }

    /// Starts calling `handler` on `queue` with each change, until `stopMonitoring()`.
    ///
    /// - Returns: Whether monitoring started.
    @discardableResult
    public func startMonitoring(
        onQueue queue: DispatchQueue = .main, onUpdatePerforming handler: @escaping @Sendable (Result) -> Void
    ) -> Bool {
        lock.withLock { listener = (queue, handler) }
        return true
    }

    /// Stops calling the handler.
    public func stopMonitoring() {
        lock.withLock { listener = nil }
    }

    /// Reports a change (the tests say when).
    public func report(_ result: Result) {
        if let (queue, handler) = lock.withLock({ listener }) { queue.async { handler(result) } }
    }
}

/// A single-file helper's result: a class that is not `Sendable`, whose `error` says the
/// request failed.
public final class HTTPResult {
    public let text: String?
    public let error: (any Error)?

    init(text: String?, error: (any Error)?) {
        self.text = text
        self.error = error
    }
}

@available(*, unavailable)
extension HTTPResult: Sendable {}

/// A single-file HTTP helper: optional completion handlers, results that are not `Sendable`.
public enum Just {
    /// Gets `url`; calls `asyncCompletionHandler` with the result, if given.
    public static func get(
        _ url: URL, session: URLSession = .shared, asyncCompletionHandler: ((HTTPResult) -> Void)? = nil
    ) {
        let handler = HandedOver(asyncCompletionHandler)
        let task = session.dataTask(with: url) { data, _, error in
            handler.value?(HTTPResult(text: data.map { String(decoding: $0, as: UTF8.self) }, error: error))
        }
        task.resume()
    }
}

/// A handler that is not `Sendable`, handed to URLSession's queue as a Swift 5 library
/// does: `get` never touches it again, and URLSession calls its completion once, so the
/// handler is used from one thread at a time (what `@unchecked Sendable` promises).
private struct HandedOver<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
