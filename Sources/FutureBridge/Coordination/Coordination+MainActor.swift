/// The main-actor twins of the coordination APIs: with `on: .main` the work or body is a
/// `@MainActor` closure, run on the main actor (the main queue), exactly where its
/// `ExecutionContext` twin would run it with ``ExecutionContext/main``. Cancellation
/// behaves as in the twin. See ``MainActorContext``.
extension FutureLimiter {
    /// Queues main-actor `work`; it starts, on the main actor, once fewer than
    /// ``maxConcurrent`` units run and every unit submitted before it has started.
    ///
    /// A cancel request on the returned future removes queued work (it never runs and
    /// the future is cancelled), or travels to the future started work returned.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - work: Starts one unit of work, on the main actor.
    /// - Returns: A future that follows the future `work` returns.
    @discardableResult
    public func add<Value: Sendable>(
        on context: MainActorContext, _ work: @escaping @MainActor () throws -> Future<Value>
    ) -> Future<Value> {
        add(on: context.executionContext) { try MainActor.assumeIsolated { try work() } }
    }
}

extension FutureFIFO {
    /// Queues main-actor `work` behind every unit submitted before it; it runs on the
    /// main actor. See ``FutureLimiter/add(on:_:)-(MainActorContext,_)`` for cancellation.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - work: Starts one unit of work, on the main actor.
    /// - Returns: A future that follows the future `work` returns.
    @discardableResult
    public func add<Value: Sendable>(
        on context: MainActorContext, _ work: @escaping @MainActor () throws -> Future<Value>
    ) -> Future<Value> {
        add(on: context.executionContext) { try MainActor.assumeIsolated { try work() } }
    }
}

extension FutureBatch {
    /// Runs `body` on the main actor with each child's index and outcome as the child
    /// completes.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - body: Runs once per child, on the main actor.
    /// - Returns: This batch, so that calls chain.
    @discardableResult
    public func onEachComplete(
        on context: MainActorContext, _ body: @escaping @MainActor (_ index: Int, _ outcome: Outcome<Value>) -> Void
    ) -> FutureBatch {
        onEachComplete(on: context.executionContext) { index, outcome in
            MainActor.assumeIsolated { body(index, outcome) }
        }
    }
}

extension Future {
    /// A future that follows the ``FutureConvertible`` that `transform`, run on the main
    /// actor, returns: a main-actor type may conform with an isolated conformance.
    ///
    /// `transform` runs once, on the main actor, if this future succeeds; its result's
    /// `future` is read there, once, and cancel requests then travel to it.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - transform: Starts the next step, on the main actor.
    /// - Returns: A future of the next step's value.
    public func flatMap<Next: FutureConvertible>(
        on context: MainActorContext, _ transform: @escaping @MainActor (Value) throws -> Next
    ) -> Future<Next.Value> {
        flatMap(on: context) { @MainActor value -> Future<Next.Value> in try transform(value).future }
    }
}

/// The values of all inputs combined with `combine`, run on the main actor, once every
/// input has succeeded; fails like ``whenAll(_:)->Future<[Value]>``.
///
/// - Parameters:
///   - futures: The inputs.
///   - initial: The value to start from.
///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
///   - combine: Adds one value to the accumulated result, on the main actor.
/// - Returns: A future of the accumulated result.
public func reduce<Value: Sendable, Result: Sendable>(
    _ futures: some Collection<Future<Value>>, _ initial: Result, on context: MainActorContext,
    _ combine: @escaping @MainActor (Result, Value) throws -> Result
) -> Future<Result> {
    whenAll(futures).map(on: context) { values in try values.reduce(initial, combine) }
}

/// The values of all inputs combined one after another by an asynchronous step that
/// starts on the main actor, once every input has succeeded. A cancel request travels to
/// the inputs while they are pending, then to the step in progress.
///
/// - Parameters:
///   - futures: The inputs.
///   - initial: The value to start from.
///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
///   - combine: Starts the step that adds one value, on the main actor.
/// - Returns: A future of the accumulated result.
public func fold<Value: Sendable, Result: Sendable>(
    _ futures: some Collection<Future<Value>>, _ initial: Result, on context: MainActorContext,
    _ combine: @escaping @MainActor (Result, Value) throws -> Future<Result>
) -> Future<Result> {
    fold(futures, initial, on: context.executionContext) { result, value in
        try MainActor.assumeIsolated { try combine(result, value) }
    }
}

/// Runs main-actor `operation` until its future succeeds, at most `attempts` times,
/// waiting `delay` between attempts as measured by `timekeeper`; see
/// ``retry(attempts:delay:timekeeper:if:on:_:)-(_,_,_,_,ExecutionContext,_)`` for
/// cancellation.
///
/// - Parameters:
///   - attempts: How many times to run `operation` at most (at least once).
///   - delay: The wait before each retry; ``RetryDelay/none`` by default.
///   - timekeeper: What measures the waits; ``Timekeeper/dispatch`` by default.
///   - shouldRetry: Whether a failure is worth another attempt; runs where the failed
///     attempt completed.
///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
///   - operation: Starts one attempt, on the main actor.
/// - Returns: A future of the first successful attempt's value.
public func retry<Value: Sendable>(
    attempts: Int, delay: RetryDelay = .none, timekeeper: Timekeeper = .dispatch,
    if shouldRetry: @escaping @Sendable (any Error) -> Bool = { _ in true },
    on context: MainActorContext, _ operation: @escaping @MainActor () -> Future<Value>
) -> Future<Value> {
    retry(attempts: attempts, delay: delay, timekeeper: timekeeper, if: shouldRetry, on: context.executionContext) {
        MainActor.assumeIsolated { operation() }
    }
}
