// Async forms of the completion-handler functions of LegacyShapes.swift, written by
// futurebridge-migrate on FutureBridge's bridge: a handler released without being called
// fails with AbandonedPromiseError (naming the line below that made the promise), a
// second call is ignored and reported to Diagnostics, and a cancelled task throws
// CancellationError at once (and cancels the operation's handle, where there is one).
// Edit freely: the tool never overwrites an existing file.

import Dispatch
import Foundation
import FutureBridge

/// Carries a cancel handle into the closure that cancels it: the `@Sendable` closure given
/// to a stream's `StreamEnd.onStop`, or the `sending` closure given to `cancelOnRequest`,
/// which FutureBridge runs in the caller's isolation. Not every SDK marks its handles
/// `Sendable` (Combine's `AnyCancellable`, a request's task handle): the form touches the
/// handle only there after the call that returned it, and a cancel method is made to be
/// called while the operation runs.
private nonisolated struct UncheckedCancelHandle<Handle>: @unchecked Sendable {
    let value: Handle
    nonisolated init(_ value: Handle) { self.value = value }
}

extension LegacyStore {
    /// Async form of `fetchUser(id:completion:)`.
    ///
    /// Fetches a user.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Parameters:
    ///   - id: The user's identifier.
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func fetchUser(id: Int) async throws -> User {
        try await withPromise(of: User.self) { promise in
            fetchUser(id: id, completion: promise.resolve)
        }
    }

    /// Async form of `loadName(for:completion:)`.
    ///
    /// Loads a name.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Parameter id: The identifier.
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func loadName(for id: Int) async throws -> String {
        try await withPromise(of: String.self) { promise in
            loadName(for: id, completion: promise.resolve)
        }
    }

    /// Async form of `readValue(key:callback:)`.
    ///
    /// Reads a value, Node style: the error comes first.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func readValue(key: String) async throws -> Data {
        try await withPromise(of: Data.self) { promise in
            readValue(key: key, callback: promise.resolve)
        }
    }

    /// Async form of `save(_:completion:)`.
    ///
    /// Saves text.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func save(_ text: String) async throws {
        try await withPromise(of: Void.self) { promise in
            save(text, completion: promise.resolve)
        }
    }

    /// Async form of `count(completion:)`.
    ///
    /// Counts the records; cannot fail.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: `CancellationError` when the awaiting task is cancelled; `AbandonedPromiseError` when the
    ///   handler is released without being called.
    public nonisolated(nonsending) func count() async throws -> Int {
        try await withPromise(of: Int.self) { promise in
            count(completion: promise.resolve)
        }
    }

    /// Async form of `ping(completion:)`.
    ///
    /// Pings the store; cannot fail.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Throws: `CancellationError` when the awaiting task is cancelled; `AbandonedPromiseError` when the
    ///   handler is released without being called.
    public nonisolated(nonsending) func ping() async throws {
        try await withPromise(of: Void.self) { promise in
            ping(completion: promise.resolve)
        }
    }

    /// Async form of `login(user:success:failure:)`.
    ///
    /// Logs in with a success handler and a failure handler.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func login(user: String) async throws -> String {
        try await withPromise(of: String.self) { promise in
            login(user: user, success: promise.resolve, failure: promise.reject)
        }
    }

    /// Async form of `lookup(word:completionHandler:)`.
    ///
    /// Looks a word up: two optional values and an optional error.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func lookup(word: String) async throws -> (String?, Int?) {
        try await withPromise(of: (String?, Int?).self) { promise in
            lookup(word: word, completionHandler: promise.resolve)
        }
    }

    /// Async form of `validate(_:completion:)`.
    ///
    /// Validates text: always a value, and maybe an error.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func validate(_ text: String) async throws -> Bool {
        try await withPromise(of: Bool.self) { promise in
            validate(text, completion: promise.resolve)
        }
    }

    /// Async form of `decode(_:from:completion:)`.
    ///
    /// Decodes a value of any `Decodable` type.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: JSON.
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func decode<T: Decodable>(
        _ type: T.Type,
        from data: Data
    ) async throws -> sending T where T: Equatable {
        try await withPromise(of: T.self) { promise in
            decode(type, from: data, completion: promise.resolve)
        }
    }

    /// Async form of `open(named:completion:)`.
    ///
    /// Makes a store, from a type method.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public static nonisolated(nonsending) func open(named name: String) async throws -> LegacyStore {
        try await withPromise(of: LegacyStore.self) { promise in
            open(named: name, completion: promise.resolve)
        }
    }

    /// Async form of `archive(completion:)`.
    ///
    /// Archives the store (an API with availability).
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    @available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
    public nonisolated(nonsending) func archive() async throws -> Int {
        try await withPromise(of: Int.self) { promise in
            archive(completion: promise.resolve)
        }
    }

    /// Async form of `export(to:completion:)`.
    ///
    /// Exports the store; throws before starting when `path` is empty.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func export(to path: String) async throws {
        try await withPromise(of: Void.self) { promise in
            try export(to: path, completion: promise.resolve)
        }
    }

    /// Async form of `total(completion:)`.
    ///
    /// Totals the records (the handler type is a type alias).
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func total() async throws -> Int {
        try await withPromise(of: Int.self) { promise in
            total(completion: promise.resolve)
        }
    }

    /// Async form of `download(id:completion:)`.
    ///
    /// Downloads a blob.
    ///
    /// Cancelling the awaiting task calls `cancel()` on the `Operation` that `download(id:completion:)`
    /// returns.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    @discardableResult
    public nonisolated(nonsending) func download(id: Int) async throws -> Data {
        try await withPromise(of: Data.self) { promise in
            let handle = download(id: id, completion: promise.resolve)
            promise.cancelOnRequest { handle.cancel() }
        }
    }

    /// Async form of `schedule(job:completion:)`.
    ///
    /// Runs a job later; returns its work item.
    ///
    /// Cancelling the awaiting task cancels the `DispatchWorkItem` that `schedule(job:completion:)`
    /// returns.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func schedule(job: String) async throws -> String {
        try await withPromise(of: String.self) { promise in
            let workItem = schedule(job: job, completion: promise.resolve)
            promise.cancelOnRequest(workItem)
        }
    }

    /// Async form of `stream(feed:completion:)`.
    ///
    /// Streams a feed; returns a ticket that stops it.
    ///
    /// Cancelling the awaiting task calls `cancel()` on the `Ticket` that `stream(feed:completion:)`
    /// returns.
    ///
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func stream(feed: String) async throws {
        try await withPromise(of: Void.self) { promise in
            let handle = stream(feed: feed, completion: promise.resolve)
            promise.cancelOnRequest { handle.cancel() }
        }
    }

    /// Async form of `sync(completion:)`.
    ///
    /// Syncs; returns a legacy ticket that is not `Sendable`.
    ///
    /// Cancelling the awaiting task calls `cancel()` on the `LegacyTicket` that `sync(completion:)`
    /// returns, in the caller's isolation (the `LegacyTicket` is not `Sendable`: nothing else touches it
    /// after the call).
    ///
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func sync() async throws {
        try await withPromise(of: Void.self) { promise in
            let cancellable = sync(completion: promise.resolve)
            let handle = UncheckedCancelHandle(cancellable)
            promise.cancelOnRequest { handle.value.cancel() }
        }
    }

    /// Async form of `enqueue(completion:)`.
    ///
    /// Enqueues work; returns its position in the queue.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Throws: `CancellationError` when the awaiting task is cancelled; `AbandonedPromiseError` when the
    ///   handler is released without being called.
    public nonisolated(nonsending) func enqueue() async throws {
        try await withPromise(of: Void.self) { promise in
            // `Int` is not a cancel handle.
            _ = enqueue(completion: promise.resolve)
        }
    }

    /// Async form of `refresh(completion:)`.
    ///
    /// Refreshes.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped (the `Timer` that `refresh(completion:)` returns is not known to be a cancel handle).
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func refresh() async throws -> Int {
        try await withPromise(of: Int.self) { promise in
            // Not cancelled: `Timer` is not known to have cancel().
            _ = refresh(completion: promise.resolve)
        }
    }

    /// Async form of `connect(_:)`.
    ///
    /// Opens a connection: a `Result` of a value that cannot leave the callback.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Parameter handler: Runs inside the callback, with the `Connection` it receives (which may not
    ///   leave the callback). What it returns is returned; what it throws is thrown. It runs on the thread
    ///   where `connect(_:)` calls its handler, not in the caller's isolation, and it may run after the
    ///   awaiting task is cancelled (what it returns is then dropped).
    /// - Returns: What the body returns.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func connect<Output: Sendable>(
        _ handler: @escaping @Sendable (Connection) throws -> Output
    ) async throws -> Output {
        try await withPromise(of: Output.self) { promise in
            connect { result in
                promise.resolve(Result { try handler(result.get()) })
            }
        }
    }
}

extension Catalog.Shelf {
    /// Async form of `countBooks(completion:)`.
    ///
    /// Counts the books on the shelf.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: `CancellationError` when the awaiting task is cancelled; `AbandonedPromiseError` when the
    ///   handler is released without being called.
    public nonisolated(nonsending) func countBooks() async throws -> Int {
        try await withPromise(of: Int.self) { promise in
            countBooks(completion: promise.resolve)
        }
    }
}

extension Box {
    /// Async form of `open(completion:)`.
    ///
    /// Opens the box.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func open() async throws -> sending Content {
        try await withPromise(of: Content.self) { promise in
            open(completion: promise.resolve)
        }
    }
}

extension RemoteCounter {
    /// Async form of `fetchCount(completion:)`.
    ///
    /// Fetches the count.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func fetchCount() async throws -> Int {
        try await withPromise(of: Int.self) { promise in
            fetchCount(completion: promise.resolve)
        }
    }
}

extension ViewModel {
    /// Async form of `reload(completion:)`.
    ///
    /// Refreshes the model.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public func reload() async throws -> Int {
        try await withPromise(of: Int.self) { promise in
            reload(completion: promise.resolve)
        }
    }
}

extension Counter {
    /// Async form of `increment(by:completion:)`.
    ///
    /// Adds to the counter and reports the new value.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public func increment(by amount: Int) async throws -> Int {
        try await withPromise(of: Int.self) { promise in
            increment(by: amount, completion: promise.resolve)
        }
    }
}

#if canImport(Foundation)
    /// Async form of `legacyGreeting(for:completion:)`.
    ///
    /// A function at file scope, under a compilation condition.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: `CancellationError` when the awaiting task is cancelled; `AbandonedPromiseError` when the
    ///   handler is released without being called.
    public nonisolated(nonsending) func legacyGreeting(for name: String) async throws -> String {
        try await withPromise(of: String.self) { promise in
            legacyGreeting(for: name, completion: promise.resolve)
        }
    }
#endif
