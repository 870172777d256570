extension Future {
    /// A future of `transform` applied to this future's value.
    ///
    /// `transform` runs once, on `context`, if this future succeeds; a failure or a
    /// cancellation passes through unchanged, and a throw fails the new future (or
    /// cancels it, for a cancellation error). A cancel request on the new future
    /// travels to this one.
    ///
    /// There is no separate `tryMap`: `transform` may throw.
    ///
    /// - Parameters:
    ///   - context: Where `transform` runs; ``ExecutionContext/inline`` by default.
    ///   - transform: Turns the value into a new value; may throw.
    /// - Returns: The transformed future.
    @inlinable
    @_disfavoredOverload
    public func map<NewValue>(
        on context: ExecutionContext = .inline,
        _ transform: @escaping @Sendable (Value) throws -> NewValue
    ) -> Future<NewValue> {
        if resolved(context).isInline, let outcome = storage.outcome {
            return Future<NewValue>(storage: .completed(outcome.flatMapValue(transform)))
        }
        return derive(on: context) { outcome, next in next.complete(outcome.flatMapValue(transform)) }
    }

    /// A future that follows the future `transform` returns for this future's value.
    ///
    /// `transform` runs once, on `context`, if this future succeeds; a failure or a
    /// cancellation passes through. A cancel request on the new future travels to
    /// whichever future is current: this one until `transform` has run, then the one it
    /// returned.
    ///
    /// - Parameters:
    ///   - context: Where `transform` runs; ``ExecutionContext/inline`` by default.
    ///   - transform: Starts the next step.
    /// - Returns: A future of the next step's value.
    @inlinable
    @_disfavoredOverload
    public func flatMap<NewValue>(
        on context: ExecutionContext = .inline,
        _ transform: @escaping @Sendable (Value) throws -> Future<NewValue>
    ) -> Future<NewValue> {
        derive(on: context) { outcome, next in
            switch outcome.flatMapValue(transform) {
            case .success(let inner): next.complete(using: inner.storage)
            case .failure(let error): next.complete(.failure(error))
            case .cancelled: next.complete(.cancelled)
            }
        }
    }
}

extension Future {
    /// A future that fails with `transform(error)` where this one fails.
    ///
    /// `transform` runs once, on `context`, for a failure only; a value or a
    /// cancellation passes through. A cancel request travels to this future.
    ///
    /// - Parameters:
    ///   - context: Where `transform` runs; ``ExecutionContext/inline`` by default.
    ///   - transform: Turns the error into another (a cancellation error cancels).
    /// - Returns: The future with its error replaced.
    @_disfavoredOverload
    public func mapError(
        on context: ExecutionContext = .inline,
        _ transform: @escaping @Sendable (any Error) -> any Error
    ) -> Future {
        mapOutcome(on: context) { outcome in
            if case .failure(let error) = outcome { .failure(transform(error)) } else { outcome }
        }
    }

    /// A future that succeeds with `body(error)` where this one fails.
    ///
    /// `body` runs once, on `context`, for a failure only; a cancellation is not a
    /// failure and passes through, as does a value. A throw fails the new future. A
    /// cancel request travels to this future.
    ///
    /// A closure that only throws is ambiguous between this and the overload that
    /// returns a future: to replace an error with another, use ``mapError(on:_:)-(ExecutionContext,_)``.
    ///
    /// - Parameters:
    ///   - context: Where `body` runs; ``ExecutionContext/inline`` by default.
    ///   - body: Produces a replacement value from the error.
    /// - Returns: The recovered future.
    @_disfavoredOverload
    public func recover(
        on context: ExecutionContext = .inline,
        _ body: @escaping @Sendable (any Error) throws -> Value
    ) -> Future {
        mapOutcome(on: context) { outcome in
            if case .failure(let error) = outcome { Outcome { try body(error) } } else { outcome }
        }
    }

    /// A future that follows the future `body` returns where this one fails
    /// (PromiseKit's `recover` returning a promise).
    ///
    /// `body` runs once, on `context`, for a failure only; a value or a cancellation
    /// passes through. A cancel request travels to this future until `body` has run,
    /// then to the future it returned.
    ///
    /// - Parameters:
    ///   - context: Where `body` runs; ``ExecutionContext/inline`` by default.
    ///   - body: Starts the recovery.
    /// - Returns: The recovered future.
    @_disfavoredOverload
    public func recover(
        on context: ExecutionContext = .inline,
        _ body: @escaping @Sendable (any Error) throws -> Future
    ) -> Future {
        derive(on: context) { outcome, next in
            guard case .failure(let error) = outcome else {
                next.complete(outcome)
                return
            }
            do {
                next.complete(using: try body(error).storage)
            } catch {
                next.complete(.failure(error))
            }
        }
    }

    /// The same as ``recover(on:_:)-(_,(Error)->Future<Value>)``, under swift-nio's
    /// name, for teams moving from `EventLoopFuture`.
    ///
    /// - Parameters:
    ///   - context: Where `body` runs; ``ExecutionContext/inline`` by default.
    ///   - body: Starts the recovery.
    /// - Returns: The recovered future.
    @_disfavoredOverload
    public func flatMapError(
        on context: ExecutionContext = .inline,
        _ body: @escaping @Sendable (any Error) throws -> Future
    ) -> Future {
        recover(on: context, body)
    }

    /// A future that fails with `error` unless `predicate` accepts this future's value.
    ///
    /// `predicate` runs once, on `context`, for a value only; a throw fails the new
    /// future with the thrown error. A cancel request travels to this future.
    ///
    /// ```swift
    /// enum HTTPError: Error { case notFound }
    /// func found(_ status: Future<Int>) -> Future<Int> {
    ///     status.validate(orFailWith: HTTPError.notFound) { $0 != 404 }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - error: The failure when the value is rejected.
    ///   - context: Where `predicate` runs; ``ExecutionContext/inline`` by default.
    ///   - predicate: Accepts or rejects the value.
    /// - Returns: The validated future.
    @_disfavoredOverload
    public func validate(
        orFailWith error: any Error,
        on context: ExecutionContext = .inline,
        _ predicate: @escaping @Sendable (Value) throws -> Bool
    ) -> Future {
        map(on: context) { value in
            guard try predicate(value) else { throw error }
            return value
        }
    }

    /// A future that completes like this one, after `body` has run (PromiseKit's
    /// `ensure`): clean-up that later steps can rely on.
    ///
    /// `body` runs exactly once, on `context`, whatever the outcome. A cancel request
    /// travels to this future. Unlike ``always(on:_:)-(ExecutionContext,_)``, which returns this future, the
    /// returned future completes only once `body` has returned.
    ///
    /// - Parameters:
    ///   - context: Where `body` runs; ``ExecutionContext/inline`` by default.
    ///   - body: The clean-up.
    /// - Returns: A future with this future's outcome.
    @_disfavoredOverload
    public func ensure(
        on context: ExecutionContext = .inline,
        _ body: @escaping @Sendable () -> Void
    ) -> Future {
        tap(on: context) { _ in body() }
    }

    /// A future that completes like this one, after `body` has looked at the outcome
    /// (PromiseKit's `tap`): logging in the middle of a chain.
    ///
    /// `body` runs exactly once, on `context`. A cancel request travels to this future.
    ///
    /// - Parameters:
    ///   - context: Where `body` runs; ``ExecutionContext/inline`` by default.
    ///   - body: Looks at the outcome.
    /// - Returns: A future with this future's outcome.
    @_disfavoredOverload
    public func tap(
        on context: ExecutionContext = .inline,
        _ body: @escaping @Sendable (Outcome<Value>) -> Void
    ) -> Future {
        mapOutcome(on: context) { outcome in
            body(outcome)
            return outcome
        }
    }

    /// A future of this future's completion without its value. A cancel request travels
    /// to this future.
    public func asVoid() -> Future<Void> {
        map { _ in () }
    }

    /// Completes `promise` with this future's outcome (swift-nio's `cascade`); a cancel
    /// request on the promise's future travels to this one.
    ///
    /// - Parameter promise: The promise to complete.
    /// - Returns: `false` if `promise` was already completed or follows another future.
    @discardableResult
    public func pipe(to promise: Promise<Value>) -> Bool {
        promise.complete(using: self)
    }

    /// A future completed with `transform(outcome)`, run once on `context`; a cancel
    /// request travels to this future.
    func mapOutcome<NewValue>(
        on context: ExecutionContext,
        _ transform: @escaping @Sendable (Outcome<Value>) -> Outcome<NewValue>
    ) -> Future<NewValue> {
        derive(on: context) { outcome, next in next.complete(transform(outcome)) }
    }
}

extension Future {
    /// The future of the inner future's value: a `Future<Future<T>>` flattened to a
    /// `Future<T>`. A cancel request travels to the outer future, then to the inner one.
    ///
    /// - Returns: A future that follows the inner future.
    public func flatten<Inner>() -> Future<Inner> where Value == Future<Inner> {
        flatMap { $0 }
    }
}

/// The failure of a future that was told to follow itself, directly or around a cycle,
/// and so could never complete: a `flatMap` transform that returns the very future
/// `flatMap` returned (PromiseKit's `returnedSelf`), a promise completed using its own
/// future, or promises completed using each other's futures (`p.complete(using:
/// q.future)` and `q.complete(using: p.future)`).
///
/// The link that closes the cycle finds it, and every future in the cycle fails with
/// this error (an operator in the cycle passes it on as it passes any failure); nothing
/// is left waiting, and nothing leaks.
public struct FutureCycleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// How many futures the cycle has: 1 for a future told to follow itself, 2 for two
    /// promises completed using each other's futures.
    public let length: Int

    /// Creates the error for a cycle of `length` futures.
    public init(length: Int = 1) {
        self.length = length
    }

    /// Says what happened, e.g. `a cycle of 2 futures, each told to follow the next (complete(using:), flatMap) and
    /// the last the first: none of them could ever complete`.
    public var description: String {
        if length <= 1 { return "a future was told to follow itself and could never complete" }
        return "a cycle of \(length) futures, each told to follow the next (complete(using:), flatMap) and the last "
            + "the first: none of them could ever complete"
    }
}
