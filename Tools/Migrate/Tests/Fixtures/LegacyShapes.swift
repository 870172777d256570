// A callback API with one function per completion-handler shape, written for the tests:
// futurebridge-migrate generated LegacyShapes+Async.swift from this file, and the tests
// call those async forms. Each operation treats its handler as `behavior` says, on a
// background queue, so the tests can make it succeed, fail, call twice, drop the
// handler, or hold it until cancelled.
import Dispatch
import Foundation

/// How a fixture operation treats its completion handler.
public enum Behavior: Sendable, Equatable {
    /// Calls the handler once, with a value.
    case succeed
    /// Calls the handler once, with `FixtureError`.
    case fail
    /// Calls the handler twice.
    case callTwice
    /// Releases the handler without calling it.
    case drop
    /// Keeps the handler until the operation's handle is cancelled (then reports the cancellation).
    case holdUntilCancelled
}

/// The failure the fixtures report.
public struct FixtureError: Error, Equatable, Sendable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}

/// A value the fixtures deliver.
public struct User: Sendable, Equatable, Codable {
    public var id: Int
    public var name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// A cancel handle declared here: `Sendable`, with `cancel()`.
public final class Ticket: Sendable {
    private let state = Flag()
    let onCancel: @Sendable () -> Void

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Stops the operation.
    public func cancel() {
        if state.set() { onCancel() }
    }

    public var isCancelled: Bool { state.isSet }
}

/// A cancel handle that is not `Sendable`: its `cancel()` is wired when every argument of
/// the call is `Sendable` (the handle then belongs to the form alone), and runs in the
/// caller's isolation.
public final class LegacyTicket {
    public private(set) var isCancelled = false
    private let onCancel: @Sendable () -> Void

    init(onCancel: @escaping @Sendable () -> Void = {}) {
        self.onCancel = onCancel
    }

    public func cancel() {
        isCancelled = true
        onCancel()
    }
}

/// A resource that is valid only inside the callback that receives it (not `Sendable`).
public final class Connection {
    public private(set) var queries: [String] = []

    public func query(_ sql: String) throws -> Int {
        guard !sql.isEmpty else { throw FixtureError("empty query") }
        queries.append(sql)
        return sql.count
    }
}

/// An `Operation` that completes when it is cancelled (the `holdUntilCancelled` behavior).
public final class HoldingOperation: Operation, @unchecked Sendable {
    let onCancel: @Sendable () -> Void

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    public override func cancel() {
        super.cancel()
        onCancel()
    }
}

/// A thread-safe flag that is set once.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    /// Sets the flag; returns whether this call set it.
    func set() -> Bool {
        lock.withLock {
            defer { value = true }
            return !value
        }
    }

    var isSet: Bool { lock.withLock { value } }
}

/// A store with a completion-handler API of every shape.
public final class LegacyStore: Sendable {
    public let behavior: Behavior
    /// The name of each operation that returns a handle, as it starts.
    public let started: AsyncStream<String>
    /// The name of each operation whose handle was cancelled.
    public let cancelled: AsyncStream<String>
    private let startedContinuation: AsyncStream<String>.Continuation
    private let cancelledContinuation: AsyncStream<String>.Continuation
    private let queue = DispatchQueue(label: "LegacyStore")
    private let handles = HandleLog()

    /// Creates a store whose operations treat their handlers as `behavior` says.
    public init(behavior: Behavior = .succeed) {
        self.behavior = behavior
        (started, startedContinuation) = AsyncStream.makeStream()
        (cancelled, cancelledContinuation) = AsyncStream.makeStream()
    }

    /// The work items `schedule(job:completion:)` returned, latest last.
    public var workItems: [DispatchWorkItem] { handles.workItems }

    /// Calls `success` or `failure` as `behavior` says, later, on the store's queue.
    private func finish(_ success: @escaping @Sendable () -> Void, _ failure: @escaping @Sendable () -> Void) {
        switch behavior {
        case .succeed: queue.async { success() }
        case .fail: queue.async { failure() }
        case .callTwice:
            queue.async {
                success()
                success()
            }
        case .drop:
            // The handler is released (with the closures) once this block has run.
            queue.async { withExtendedLifetime((success, failure)) {} }
        case .holdUntilCancelled:
            // The returned handle keeps the handler; cancelling it reports the cancellation.
            break
        }
    }

    // MARK: - One function per shape

    /// Fetches a user.
    ///
    /// - Parameters:
    ///   - id: The user's identifier.
    ///   - completion: Called with the user, or `FixtureError`.
    public func fetchUser(id: Int, completion: @escaping @Sendable (Result<User, FixtureError>) -> Void) {
        finish(
            { completion(.success(User(id: id, name: "user\(id)"))) }, { completion(.failure(FixtureError("no user"))) }
        )
    }

    /// Loads a name.
    ///
    /// - Parameter id: The identifier.
    /// - Parameter completion: Called with the name or an error.
    public func loadName(for id: Int, completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
        finish({ completion("name\(id)", nil) }, { completion(nil, FixtureError("no name")) })
    }

    /// Reads a value, Node style: the error comes first.
    public func readValue(key: String, callback: @escaping @Sendable ((any Error)?, Data?) -> Void) {
        finish({ callback(nil, Data(key.utf8)) }, { callback(FixtureError("no value"), nil) })
    }

    /// Saves text.
    public func save(_ text: String, completion: @escaping @Sendable ((any Error)?) -> Void) {
        finish({ completion(nil) }, { completion(FixtureError("not saved")) })
    }

    /// Counts the records; cannot fail.
    public func count(completion: @escaping @Sendable (Int) -> Void) {
        finish({ completion(42) }, { completion(-1) })
    }

    /// Pings the store; cannot fail.
    public func ping(completion: @escaping @Sendable () -> Void) {
        finish({ completion() }, { completion() })
    }

    /// Logs in with a success handler and a failure handler.
    public func login(
        user: String, success: @escaping @Sendable (String) -> Void, failure: @escaping @Sendable (any Error) -> Void
    ) {
        finish({ success("token-\(user)") }, { failure(FixtureError("denied")) })
    }

    /// Looks a word up: two optional values and an optional error.
    public func lookup(
        word: String, completionHandler: @escaping @Sendable (String?, Int?, (any Error)?) -> Void
    ) {
        finish(
            { completionHandler(word.uppercased(), word.count, nil) },
            { completionHandler(nil, nil, FixtureError("unknown")) })
    }

    /// Validates text: always a value, and maybe an error.
    public func validate(_ text: String, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        finish({ completion(!text.isEmpty, nil) }, { completion(false, FixtureError("invalid")) })
    }

    /// Decodes a value of any `Decodable` type.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: JSON.
    ///   - completion: Called with the value or the decoding error.
    public func decode<T: Decodable>(
        _ type: T.Type, from data: Data, completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) where T: Equatable {
        // Synchronously: a `@Sendable` closure here would capture `T`'s metatype.
        completion(Result { try JSONDecoder().decode(T.self, from: data) })
    }

    /// Makes a store, from a type method.
    public static func open(
        named name: String, completion: @escaping @Sendable (Result<LegacyStore, any Error>) -> Void
    ) {
        DispatchQueue.global().async {
            completion(name.isEmpty ? .failure(FixtureError("no name")) : .success(LegacyStore()))
        }
    }

    /// Archives the store (an API with availability).
    @available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
    public func archive(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        finish({ completion(.success(1)) }, { completion(.failure(FixtureError("not archived"))) })
    }

    /// Exports the store; throws before starting when `path` is empty.
    public func export(to path: String, completion: @escaping @Sendable ((any Error)?) -> Void) throws {
        guard !path.isEmpty else { throw FixtureError("empty path") }
        finish({ completion(nil) }, { completion(FixtureError("not exported")) })
    }

    /// Flushes the store; the handler is optional.
    public func flush(completion: (@Sendable ((any Error)?) -> Void)? = nil) {
        finish({ completion?(nil) }, { completion?(FixtureError("not flushed")) })
    }

    /// Totals the records (the handler type is a type alias).
    public func total(completion: @escaping TotalCompletion) {
        finish({ completion(.success(7)) }, { completion(.failure(FixtureError("no total"))) })
    }

    // MARK: - Returned handles

    /// Downloads a blob; returns the operation, which cancels the download.
    @discardableResult
    public func download(id: Int, completion: @escaping @Sendable (Result<Data, any Error>) -> Void) -> Operation {
        let cancelled = cancelledContinuation
        let operation = HoldingOperation {
            cancelled.yield("download")
            completion(.failure(CancellationError()))
        }
        finish({ completion(.success(Data(count: id))) }, { completion(.failure(FixtureError("no blob"))) })
        startedContinuation.yield("download")
        return operation
    }

    /// Runs a job later; returns its work item.
    public func schedule(job: String, completion: @escaping @Sendable (Result<String, any Error>) -> Void)
        -> DispatchWorkItem
    {
        let item = DispatchWorkItem { completion(.success(job)) }
        handles.add(item)
        if behavior == .succeed { queue.async(execute: item) }
        startedContinuation.yield("schedule")
        return item
    }

    /// Streams a feed; returns a ticket that stops it.
    public func stream(feed: String, completion: @escaping @Sendable ((any Error)?) -> Void) -> Ticket {
        let cancelled = cancelledContinuation
        let ticket = Ticket {
            cancelled.yield("stream")
            completion(CancellationError())
        }
        finish({ completion(nil) }, { completion(FixtureError("no feed")) })
        startedContinuation.yield("stream")
        return ticket
    }

    /// Syncs; returns a legacy ticket that is not `Sendable`.
    public func sync(completion: @escaping @Sendable ((any Error)?) -> Void) -> LegacyTicket {
        finish({ completion(nil) }, { completion(FixtureError("not synced")) })
        let cancelled = cancelledContinuation
        let holds = behavior == .holdUntilCancelled
        let ticket = LegacyTicket {
            cancelled.yield("sync")
            if holds { completion(CancellationError()) }
        }
        startedContinuation.yield("sync")
        return ticket
    }

    /// Enqueues work; returns its position in the queue.
    @discardableResult
    public func enqueue(completion: @escaping @Sendable () -> Void) -> Int {
        finish({ completion() }, { completion() })
        return 1
    }

    /// Refreshes; returns a `Timer`, which this tool does not know as a cancel handle.
    public func refresh(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Timer {
        finish({ completion(.success(3)) }, { completion(.failure(FixtureError("not refreshed"))) })
        return Timer(timeInterval: 60, repeats: false) { _ in }
    }

    // MARK: - Scoped access

    /// Runs `body` with a connection that is valid only during the call.
    public func withConnection(_ body: @escaping @Sendable (Connection) -> Void) {
        nonisolated(unsafe) let connection = Connection()  // a legacy API's non-Sendable value, used on one thread
        finish({ body(connection) }, { body(connection) })
    }

    /// Opens a connection: a `Result` of a value that cannot leave the callback.
    public func connect(_ handler: @escaping @Sendable (Result<Connection, any Error>) -> Void) {
        nonisolated(unsafe) let connection = Connection()  // a legacy API's non-Sendable value, used on one thread
        finish({ handler(.success(connection)) }, { handler(.failure(FixtureError("no connection"))) })
    }

    /// Performs work on the store's queue.
    public func perform(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }
}

/// The handler of `LegacyStore.total(completion:)`.
public typealias TotalCompletion = @Sendable (Result<Int, any Error>) -> Void

/// Records the work items the store returned.
final class HandleLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [DispatchWorkItem] = []

    func add(_ item: DispatchWorkItem) { lock.withLock { items.append(item) } }
    var workItems: [DispatchWorkItem] { lock.withLock { items } }
}

// MARK: - Owners of every kind

/// A namespace with a nested type.
public enum Catalog {
    /// A nested type with a callback API.
    public final class Shelf: Sendable {
        public init() {}

        /// Counts the books on the shelf.
        public func countBooks(completion: @escaping @Sendable (Int) -> Void) {
            DispatchQueue.global().async { completion(12) }
        }
    }
}

/// A generic type whose handler delivers its generic parameter.
public final class Box<Content>: @unchecked Sendable {
    let content: Content

    public init(_ content: Content) {
        self.content = content
    }

    /// Opens the box.
    public func open(completion: @escaping @Sendable (Content?, (any Error)?) -> Void) {
        nonisolated(unsafe) let content = content  // a legacy API's unconstrained value, read once
        DispatchQueue.global().async { completion(content, nil) }
    }
}

/// A protocol requirement: its async form goes in the protocol's extension.
public protocol RemoteCounter: Sendable {
    /// Fetches the count.
    func fetchCount(completion: @escaping @Sendable (Result<Int, any Error>) -> Void)
}

/// Conforms to ``RemoteCounter``: served by the protocol extension's async form.
public final class InMemoryCounter: RemoteCounter {
    public init() {}

    public func fetchCount(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(5)) }
    }
}

/// Main-actor code: its async forms run on the main actor too.
@MainActor
public final class ViewModel {
    public private(set) var refreshes = 0

    public init() {}

    /// Refreshes the model.
    public func reload(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        refreshes += 1
        let count = refreshes
        DispatchQueue.global().async { completion(.success(count)) }
    }
}

/// An actor with a callback API.
public actor Counter {
    private var value = 0

    public init() {}

    /// Adds to the counter and reports the new value.
    public func increment(by amount: Int, completion: @escaping @Sendable (Int?, (any Error)?) -> Void) {
        value += amount
        let value = value
        DispatchQueue.global().async { completion(value, nil) }
    }
}

#if canImport(Foundation)
    /// A function at file scope, under a compilation condition.
    public func legacyGreeting(for name: String, completion: @escaping @Sendable (String) -> Void) {
        DispatchQueue.global().async { completion("Hello, \(name)!") }
    }
#endif
