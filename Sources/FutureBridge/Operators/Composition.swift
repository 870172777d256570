/// Serial `+>` and parallel `<>` composition of asynchronous functions, typed and built
/// on futures, for callback-style functions and future-returning ones alike.
///
/// ```swift
/// let user: FutureFunction<Int, String> = { id in Future(value: "user \(id)") }
/// let avatar: FutureFunction<String, Data> = { name in Future(value: Data(name.utf8)) }
/// let posts: FutureFunction<String, [String]> = { name in Future(value: ["\(name)'s post"]) }
///
/// let loadPage = user +> (avatar <> posts)   // Int -> (Data, [String])
/// loadPage(7).onSuccess { avatar, posts in print(avatar.count, posts) }
/// ```
///
/// `<>` binds tighter than `+>`; both associate to the left.
///
/// Cancellation: composed future functions forward cancel requests (serially to the
/// step running, in parallel to both sides, and a failing side cancels the other). A
/// callback function has no way to be cancelled, so composing callback functions gives
/// none either: lift them with ``futureFunction(_:fileID:line:)`` and compose the
/// future functions when callers need to cancel.

precedencegroup ParallelCompositionPrecedence {
    associativity: left
    higherThan: SerialCompositionPrecedence
}

precedencegroup SerialCompositionPrecedence {
    associativity: left
    higherThan: AssignmentPrecedence
}

/// Serial composition: the first function's result feeds the second.
infix operator +> : SerialCompositionPrecedence
/// Parallel composition: both functions run on the same input; their results pair up.
infix operator <> : ParallelCompositionPrecedence

/// An asynchronous function in callback style: it takes an input and calls its
/// completion handler exactly once with the result.
public typealias CallbackFunction<Input, Output> =
    @Sendable (Input, @escaping @Sendable (Result<Output, any Error>) -> Void) -> Void

/// An asynchronous function that returns a future.
public typealias FutureFunction<Input: Sendable, Output: Sendable> = @Sendable (Input) -> Future<Output>

/// Serial composition of future functions: `second` runs on `first`'s value; the first
/// failure stops the chain and is the result.
///
/// A cancel request on the result travels to whichever step is running.
///
/// - Returns: A function from `first`'s input to `second`'s output.
public func +> <A: Sendable, B: Sendable, C: Sendable>(
    first: @escaping FutureFunction<A, B>,
    second: @escaping FutureFunction<B, C>
) -> FutureFunction<A, C> {
    { input in first(input).flatMap(second) }
}

/// Parallel composition of future functions: both start at once on the same input; the
/// result is the pair of their values, once both succeed.
///
/// The first failure is the result, and the other function's future gets a cancel
/// request. A cancel request on the result travels to both. Completes exactly once,
/// whichever threads the two complete on.
///
/// - Returns: A function from the shared input to both outputs.
public func <> <A: Sendable, B: Sendable, C: Sendable>(
    left: @escaping FutureFunction<A, B>,
    right: @escaping FutureFunction<A, C>
) -> FutureFunction<A, (B, C)> {
    { input in whenAll(left(input), right(input)) }
}

/// Serial composition of callback functions: `second` runs on `first`'s value; the
/// first failure stops the chain and is passed to the completion handler.
///
/// The composed function calls its completion handler exactly once, on the thread that
/// completes the last step. A step that calls its own completion handler twice is
/// reported to ``Diagnostics`` and the second call is ignored; one that releases it
/// without calling it fails the chain with ``AbandonedPromiseError``.
///
/// - Returns: A callback function from `first`'s input to `second`'s output.
public func +> <A: Sendable, B: Sendable, C: Sendable>(
    first: @escaping CallbackFunction<A, B>,
    second: @escaping CallbackFunction<B, C>
) -> CallbackFunction<A, C> {
    callbackFunction(futureFunction(first) +> futureFunction(second))
}

/// Parallel composition of callback functions: both start at once on the same input;
/// the completion handler gets the pair of their values, or the first failure.
///
/// The handler is called exactly once, whichever threads the two complete on, even when
/// they race. Misbehaving steps are handled as for `+>`.
///
/// - Returns: A callback function from the shared input to both outputs.
public func <> <A: Sendable, B: Sendable, C: Sendable>(
    left: @escaping CallbackFunction<A, B>,
    right: @escaping CallbackFunction<A, C>
) -> CallbackFunction<A, (B, C)> {
    callbackFunction(futureFunction(left) <> futureFunction(right))
}

/// The future-returning form of a callback function.
///
/// Each call starts the callback function with a fresh promise's completion handler.
/// A second call of that handler is reported and ignored; a handler released without
/// being called fails the future with ``AbandonedPromiseError`` naming this site.
///
/// - Parameters:
///   - function: The callback function.
///   - fileID: Named if a call's completion handler is abandoned.
///   - line: The line of this call.
/// - Returns: A function that returns the future of each call.
public func futureFunction<Input: Sendable, Output: Sendable>(
    _ function: @escaping CallbackFunction<Input, Output>,
    fileID: StaticString = #fileID, line: UInt = #line
) -> FutureFunction<Input, Output> {
    { input in Future(fileID: fileID, line: line) { promise in function(input, promise.resolve) } }
}

/// The callback form of a future-returning function, for legacy callers.
///
/// The completion handler is called exactly once, on the thread that completes the
/// future; a cancelled future reaches it as `.failure(CancellationError())`. The callback
/// form cannot be cancelled; callers that need to cancel use ``Future/deliver(on:cancelledAs:to:)-(_,_,(Result<Value,Error>)->Void)``
/// on the future, which returns a ``CancellationToken``.
///
/// - Parameter function: The future-returning function.
/// - Returns: A callback function that starts `function` and delivers its outcome.
public func callbackFunction<Input: Sendable, Output: Sendable>(
    _ function: @escaping FutureFunction<Input, Output>
) -> CallbackFunction<Input, Output> {
    { input, completion in function(input).deliver(to: completion) }
}

/// Starts a chain with a block that returns a future (PromiseKit's `firstly`), so that
/// every step of the chain reads at the same indentation; a throw in `body` becomes a
/// failed future.
///
/// <!-- fragment: app -->
/// ```swift
/// firstly { fetchUser(id: 7) }
///     .flatMap { user in api.avatar(id: user.id) }
///     .onSuccess(on: .main) { avatar in view.show(avatar) }
/// ```
///
/// - Parameter body: Starts the first step, at once, on the calling thread.
/// - Returns: The first step's future.
public func firstly<Next: FutureConvertible>(_ body: () throws -> Next) -> Future<Next.Value> {
    do {
        return try body().future
    } catch {
        return Future(error: error)
    }
}
