// Functions futurebridge-migrate must skip, one (or two) per reason, written for the
// tests: the golden report lists each with its reason.
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Stands for a Combine publisher: a type named `…Publisher`.
public struct EventPublisher<Output>: Sendable {
    public init() {}
}

/// Callback functions the tool leaves alone.
public final class SkippedAPI: @unchecked Sendable {
    public init() {}

    /// Already async, yet takes a handler.
    public func refreshAll(completion: @escaping @Sendable () -> Void) async {
        completion()
    }

    /// Has an async sibling below.
    public func status(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
        completion(.success("ok"))
    }

    public func status() async throws -> String { "ok" }

    /// Has a publisher of the same name and labels below (a Combine publisher's shape;
    /// Combine is not on Linux).
    public func events(for key: String, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        completion(.success(1))
    }

    public func events(for key: String) -> EventPublisher<Int> { EventPublisher() }

    /// Two overloads with the same async form: the first one gets it.
    public func value(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        completion(.success(1))
    }

    public func value(completion: @escaping @Sendable (Int?, (any Error)?) -> Void) {
        completion(1, nil)
    }

    private func secret(completion: @escaping @Sendable (Int) -> Void) {
        completion(0)
    }

    fileprivate func internalSecret(completion: @escaping @Sendable (Int) -> Void) {
        secret(completion: completion)
    }

    @available(*, unavailable, message: "gone")
    public func removed(completion: @escaping @Sendable (Int) -> Void) {}

    /// Not to be called from async code.
    @available(*, noasync)
    public func lockAndRun(completion: @escaping @Sendable () -> Void) {
        completion()
    }

    /// An initializer with a handler.
    public init(ready: @escaping @Sendable () -> Void) {
        ready()
    }

    /// Returns a closure: a combinator, not an operation.
    public func chain(_ first: @escaping @Sendable () -> Void, then: @escaping @Sendable () -> Void)
        -> @Sendable () -> Void
    {
        {
            first()
            then()
        }
    }

    /// A shape FutureBridge does not adapt: two values and no error.
    public func pair(completion: @escaping @Sendable (Int, String) -> Void) {
        completion(1, "one")
    }

    /// The handler is not the last parameter.
    public func load(completion: @escaping @Sendable (Result<Data, any Error>) -> Void, on queue: DispatchQueue) {
        queue.async { completion(.success(Data())) }
    }

    /// A non-escaping handler runs before the function returns.
    public func each(_ completion: (Result<Int, any Error>) -> Void) {
        completion(.success(1))
    }

    /// Reports changes, many times.
    public func observe(key: String, onChange: @escaping @Sendable (Int) -> Void) {
        onChange(1)
    }

    /// Reports progress.
    public func upload(progressHandler: @escaping @Sendable (Double) -> Void) {
        progressHandler(1)
    }

    /// Registers a callback for events.
    public func addObserver(_ callback: @escaping @Sendable () -> Void) {
        callback()
    }

    /// The value is not Sendable, and this shape has no scoped form.
    public func openConnection(completion: @escaping @Sendable (Connection?, (any Error)?) -> Void) {
        nonisolated(unsafe) let connection = Connection()  // a legacy API's non-Sendable value, used on one thread
        completion(connection, nil)
    }

    /// Variadic.
    public func tag(_ names: String..., completion: @escaping @Sendable ((any Error)?) -> Void) {
        completion(nil)
    }

    /// `inout`.
    public func fill(_ buffer: inout [UInt8], completion: @escaping @Sendable ((any Error)?) -> Void) {
        buffer.append(1)
        completion(nil)
    }

    /// An autoclosure.
    public func log(_ message: @autoclosure () -> String, completion: @escaping @Sendable () -> Void) {
        _ = message()
        completion()
    }

    /// An isolated parameter.
    public func run(on actor: isolated any Actor, completion: @escaping @Sendable () -> Void) {
        completion()
    }
}

/// A value type with a mutating callback function.
public struct Accumulator {
    public var total = 0

    public mutating func add(_ amount: Int, completion: @escaping @Sendable (Int) -> Void) {
        total += amount
        completion(total)
    }
}

/// A hook the API calls (a `…Handler` protocol): its conformers complete the handler, so
/// its requirement and its implementations get no async form.
public protocol RetryHandler: Sendable {
    func retry(after error: any Error, completion: @escaping @Sendable (Bool) -> Void)
}

/// An implementation of the hook, and a delegate method (the object that calls it comes first).
public final class NeverRetry: RetryHandler {
    public init() {}

    public func retry(after error: any Error, completion: @escaping @Sendable (Bool) -> Void) {
        completion(false)
    }

    public func session(
        _ session: URLSession, task: URLSessionTask, willRetry attempt: Int,
        completion: @escaping @Sendable (Bool) -> Void
    ) {
        completion(false)
    }
}

/// A protocol users implement and the API calls with its own completion (as an HTTP
/// client's `Authenticator.refresh(_:for:completion:)`): no type here conforms to it, so a
/// form of its requirement would be called by nobody.
public protocol CredentialRefresher: AnyObject, Sendable {
    func refresh(
        _ credential: String, for user: String, completion: @escaping @Sendable (Result<String, any Error>) -> Void)
}

/// Calls the users' refresher when a credential expires.
public final class CredentialInterceptor: Sendable {
    private let refresher: any CredentialRefresher

    public init(refresher: any CredentialRefresher) {
        self.refresher = refresher
    }

    /// Refreshes `credential`, then calls `completion` with the new one.
    public func renew(
        _ credential: String, for user: String, completion: @escaping @Sendable (Result<String, any Error>) -> Void
    ) {
        refresher.refresh(credential, for: user) { completion($0) }
    }
}
