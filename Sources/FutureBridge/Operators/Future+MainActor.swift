/// The main-actor twins of the handlers and transforms: `on: .main` (or
/// `.mainImmediate`) takes a `@MainActor` closure, which may use main-actor state. See
/// ``MainActorContext``.
///
/// Each runs its closure once, on the main actor (the main queue), exactly where its
/// `ExecutionContext` twin would run it with ``ExecutionContext/main``, and handles
/// cancellation the same way.
extension Future {
    /// Runs `body` on the main actor with the outcome once the future completes.
    ///
    /// `body` runs exactly once, on the main actor. A handler neither prevents nor makes
    /// cancel requests.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - body: Receives the outcome, on the main actor.
    /// - Returns: This future, so that handlers chain.
    @discardableResult
    public func onComplete(on context: MainActorContext, _ body: @escaping @MainActor (Outcome<Value>) -> Void)
        -> Future
    {
        storage.observe(on: context.executionContext, .outcome(MainActorContext.bridge(body)))
        return self
    }

    /// Runs `body` on the main actor with the value if the future succeeds.
    ///
    /// `body` runs at most once, on the main actor; not for a failure or a
    /// cancellation.
    ///
    /// ```swift
    /// @MainActor final class ProfileModel {
    ///     var title = ""
    ///     func show(_ name: Future<String>) {
    ///         name.onSuccess(on: .main) { name in self.title = name }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - body: Receives the value, on the main actor.
    /// - Returns: This future, so that handlers chain.
    @discardableResult
    public func onSuccess(on context: MainActorContext, _ body: @escaping @MainActor (Value) -> Void) -> Future {
        storage.observe(on: context.executionContext, .success(MainActorContext.bridge(body)))
        return self
    }

    /// Runs `body` on the main actor with the error if the future fails (a cancellation
    /// is not a failure).
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - body: Receives the error, on the main actor; runs at most once.
    /// - Returns: This future, so that handlers chain.
    @discardableResult
    public func onFailure(on context: MainActorContext, _ body: @escaping @MainActor (any Error) -> Void)
        -> Future
    {
        storage.observe(on: context.executionContext, .failure(MainActorContext.bridge(body)))
        return self
    }

    /// Runs `body` on the main actor if the future ends cancelled. Registering it does
    /// not request cancellation.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - body: Runs on cancellation, on the main actor; at most once.
    /// - Returns: This future, so that handlers chain.
    @discardableResult
    public func onCancel(on context: MainActorContext, _ body: @escaping @MainActor () -> Void) -> Future {
        storage.observe(on: context.executionContext, .cancelled(MainActorContext.bridge(body)))
        return self
    }

    /// Runs `body` on the main actor once the future completes, whatever the outcome.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - body: Runs exactly once, on the main actor.
    /// - Returns: This future, so that handlers chain.
    @discardableResult
    public func always(on context: MainActorContext, _ body: @escaping @MainActor () -> Void) -> Future {
        storage.observe(on: context.executionContext, .always(MainActorContext.bridge(body)))
        return self
    }
}

extension Future {
    /// A future of `transform`, run on the main actor, applied to this future's value.
    ///
    /// `transform` runs once, on the main actor, if this future succeeds; a failure or a
    /// cancellation passes through, and a throw fails the new future. A cancel request
    /// on the new future travels to this one.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - transform: Turns the value into a new value, on the main actor.
    /// - Returns: The transformed future.
    public func map<NewValue>(
        on context: MainActorContext, _ transform: @escaping @MainActor (Value) throws -> NewValue
    ) -> Future<NewValue> {
        map(on: context.executionContext, MainActorContext.bridge(transform))
    }

    /// A future that follows the future `transform`, run on the main actor, returns for
    /// this future's value.
    ///
    /// `transform` runs once, on the main actor, if this future succeeds. A cancel
    /// request travels to this future until `transform` has run, then to the one it
    /// returned.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - transform: Starts the next step, on the main actor.
    /// - Returns: A future of the next step's value.
    public func flatMap<NewValue>(
        on context: MainActorContext, _ transform: @escaping @MainActor (Value) throws -> Future<NewValue>
    ) -> Future<NewValue> {
        flatMap(on: context.executionContext, MainActorContext.bridge(transform))
    }

    /// A future that fails with `transform(error)`, run on the main actor, where this one
    /// fails. A value or a cancellation passes through; a cancel request travels to this
    /// future.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - transform: Turns the error into another, on the main actor.
    /// - Returns: The future with its error replaced.
    public func mapError(
        on context: MainActorContext, _ transform: @escaping @MainActor (any Error) -> any Error
    ) -> Future {
        mapError(on: context.executionContext) { error in MainActor.assumeIsolated { transform(error) } }
    }

    /// A future that succeeds with `body(error)`, run on the main actor, where this one
    /// fails. A value or a cancellation passes through; a throw fails the new future; a
    /// cancel request travels to this future.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - body: Produces a replacement value from the error, on the main actor.
    /// - Returns: The recovered future.
    public func recover(on context: MainActorContext, _ body: @escaping @MainActor (any Error) throws -> Value)
        -> Future
    {
        recover(on: context.executionContext, MainActorContext.bridge(body))
    }

    /// A future that follows the future `body`, run on the main actor, returns where this
    /// one fails. A value or a cancellation passes through; a cancel request travels to
    /// this future until `body` has run, then to the future it returned.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - body: Starts the recovery, on the main actor.
    /// - Returns: The recovered future.
    public func recover(
        on context: MainActorContext, _ body: @escaping @MainActor (any Error) throws -> Future
    ) -> Future {
        recover(on: context.executionContext, MainActorContext.bridge(body))
    }

    /// The main-actor form of `recover` returning a future, under swift-nio's name.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - body: Starts the recovery, on the main actor.
    /// - Returns: The recovered future.
    public func flatMapError(
        on context: MainActorContext, _ body: @escaping @MainActor (any Error) throws -> Future
    ) -> Future {
        recover(on: context, body)
    }

    /// A future that fails with `error` unless `predicate`, run on the main actor,
    /// accepts this future's value. A cancel request travels to this future.
    ///
    /// - Parameters:
    ///   - error: The failure when the value is rejected.
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - predicate: Accepts or rejects the value, on the main actor.
    /// - Returns: The validated future.
    public func validate(
        orFailWith error: any Error, on context: MainActorContext,
        _ predicate: @escaping @MainActor (Value) throws -> Bool
    ) -> Future {
        validate(orFailWith: error, on: context.executionContext, MainActorContext.bridge(predicate))
    }

    /// A future that completes like this one after `body` has run on the main actor
    /// (clean-up that later steps can rely on). A cancel request travels to this future.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - body: The clean-up, on the main actor; runs exactly once.
    /// - Returns: A future with this future's outcome.
    public func ensure(on context: MainActorContext, _ body: @escaping @MainActor () -> Void) -> Future {
        ensure(on: context.executionContext, MainActorContext.bridge(body))
    }

    /// A future that completes like this one after `body` has looked at the outcome on
    /// the main actor. A cancel request travels to this future.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - body: Looks at the outcome, on the main actor; runs exactly once.
    /// - Returns: A future with this future's outcome.
    public func tap(on context: MainActorContext, _ body: @escaping @MainActor (Outcome<Value>) -> Void) -> Future {
        tap(on: context.executionContext, MainActorContext.bridge(body))
    }

    /// Runs `work` on the main actor and completes with what it returns or throws.
    ///
    /// A cancel request that arrives before `work` starts completes the future as
    /// cancelled, and `work` never runs; once started, it runs to the end.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - work: The work, on the main actor.
    public init(on context: MainActorContext, _ work: @escaping @MainActor () throws -> Value) {
        self.init(on: context.executionContext) { try MainActor.assumeIsolated { try work() } }
    }
}
