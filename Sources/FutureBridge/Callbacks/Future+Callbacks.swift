extension Future {
    /// Starts callback-based work and returns its future: `body` receives the promise,
    /// whose `resolve` adapters it passes to the callback API as the completion handler.
    ///
    /// `body` runs at once, on the calling thread, in the caller's isolation; a throw fails
    /// the future (or cancels it, for a cancellation error). Register
    /// ``Promise/onCancellationRequest(isolation:_:)`` in `body` to turn cancel requests into the
    /// API's own cancellation. If the API releases the completion handler without calling
    /// it, the future fails with ``AbandonedPromiseError`` naming this call's
    /// `fileID:line`.
    ///
    /// ```swift
    /// let url = URL(string: "https://example.com")!
    /// let future = Future<Data> { promise in
    ///     let task = URLSession.shared.dataTask(with: url) { data, _, error in promise.resolve(data, error) }
    ///     promise.onCancellationRequest { _ in task.cancel() }
    ///     task.resume()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: Where the bridge is created; named if the promise is abandoned.
    ///   - line: The line where the bridge is created.
    ///   - body: Starts the work; runs synchronously on the calling thread.
    @inlinable
    public init(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ body: (Promise<Value>) throws -> Void
    ) {
        let promise = Promise<Value>(fileID: fileID, line: line)
        do {
            try body(promise)
        } catch {
            promise.fail(error)
        }
        self = promise.future
    }
}

/// Calls callback-based work and awaits its value: the `async` counterpart of
/// `withCheckedThrowingContinuation`, with cancellation and misuse handled.
///
/// `body` runs at once, in the caller's isolation (a `@MainActor` caller's body may use
/// main-actor state), and passes the promise's `resolve` adapters to the callback API.
/// Cancelling the awaiting task sends a cancel request to the promise (run by the handler
/// `body` registered with ``Promise/onCancellationRequest(isolation:_:)``) and throws
/// `CancellationError` at once. A completion handler called twice is reported, never a
/// crash; one released without being called resumes the task with ``AbandonedPromiseError``
/// naming this call's `fileID:line`: the task never hangs and no continuation leaks.
///
/// <!-- fragment: app -->
/// ```swift
/// let user = try await withPromise(of: User.self) { promise in
///     api.fetchUser(id: 7, completion: promise.resolve)
/// }
/// ```
///
/// - Parameters:
///   - type: The value type, when the compiler cannot infer it.
///   - isolation: The caller's isolation, where `body` runs; inherited by default.
///   - fileID: Where the bridge is created; named if the promise is abandoned.
///   - line: The line where the bridge is created.
///   - body: Starts the work.
/// - Returns: The value the callback delivered.
/// - Throws: The callback's error, `CancellationError` when cancelled, or the
///   bridge's misuse errors.
@inlinable
public func withPromise<Value: Sendable>(
    of type: Value.Type = Value.self,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ body: (Promise<Value>) throws -> Void
) async throws -> Value {
    try await Future(fileID: fileID, line: line, body).value
}

/// Calls callback-based work and awaits its value when the value is not `Sendable`: one
/// producer hands it to this one consumer, which gets it as a `sending` result.
///
/// Behaves exactly as the `Sendable` form: `body` runs at once, in the caller's
/// isolation; cancelling the awaiting task sends a cancel request (run by the handler
/// `body` registered) and throws `CancellationError` at once; misuse is reported, never
/// a crash, and an abandoned promise fails with ``AbandonedPromiseError``.
///
/// <!-- fragment: legacy -->
/// ```swift
/// @MainActor func edit() async throws {
///     let draft = try await withPromise { promise in legacy.makeDraft { promise.succeed($0) } }
///     draft.text += "!"   // Draft is a class that is not Sendable
/// }
/// ```
///
/// - Parameters:
///   - type: The value type, when the compiler cannot infer it.
///   - isolation: The caller's isolation, where `body` runs; inherited by default.
///   - fileID: Where the bridge is created; named if the promise is abandoned.
///   - line: The line where the bridge is created.
///   - body: Starts the work and hands the value over through the promise.
/// - Returns: The value the callback delivered.
/// - Throws: The callback's error, `CancellationError` when cancelled, or the
///   bridge's misuse errors.
public func withPromise<Value>(
    of type: Value.Type = Value.self,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ body: (SendingPromise<Value>) throws -> Void
) async throws -> sending Value {
    let transfer = try await withPromise(of: Transfer<Value>.self, isolation: isolation, fileID: fileID, line: line) {
        try body(SendingPromise($0))
    }
    // The one consumer takes the value the producer handed over (see `Transfer`).
    nonisolated(unsafe) let value = transfer.value
    return value
}
