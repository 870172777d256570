/// The main-actor twins of ``Future/deliver(on:cancelledAs:to:)-(_,_,(Result<Value,Error>)->Void)``
/// and the other `deliver` shapes: with `on: .main` the completion handler is a
/// `@MainActor` closure, called exactly once on the main actor (the main queue), as its
/// `ExecutionContext` twin would call it with ``ExecutionContext/main``. The returned
/// token's `cancel()` is a cancel request, as there.
extension Future {
    /// Delivers the outcome to a main-actor `(Result<Value, Error>) -> Void` handler.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - cancellationError: The error a cancelled future delivers, `CancellationError()`
    ///     by default (the domain's own, such as `URLError(.cancelled)`, keeps what legacy
    ///     callers received). Made only for a cancelled outcome, on the main queue, right
    ///     before `completion` is called.
    ///   - completion: Called exactly once on the main actor; cancellation is
    ///     `.failure(cancellationError())`.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    public func deliver(
        on context: MainActorContext,
        cancelledAs cancellationError: @escaping @autoclosure @Sendable () -> any Error = CancellationError(),
        to completion: @escaping @MainActor (Result<Value, any Error>) -> Void
    ) -> CancellationToken {
        deliver(on: context.executionContext, cancelledAs: cancellationError(), to: MainActorContext.bridge(completion))
    }

    /// Delivers the outcome to a main-actor `(Value?, Error?) -> Void` handler: exactly
    /// one of the two is non-nil.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - cancellationError: The error a cancelled future delivers, `CancellationError()`
    ///     by default (the domain's own, such as `URLError(.cancelled)`, keeps what legacy
    ///     callers received). Made only for a cancelled outcome, on the main queue, right
    ///     before `completion` is called.
    ///   - completion: Called exactly once on the main actor; cancellation is
    ///     `(nil, cancellationError())`.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    public func deliver(
        on context: MainActorContext,
        cancelledAs cancellationError: @escaping @autoclosure @Sendable () -> any Error = CancellationError(),
        to completion: @escaping @MainActor (Value?, (any Error)?) -> Void
    ) -> CancellationToken {
        deliver(on: context.executionContext, cancelledAs: cancellationError()) {
            (value: Value?, error: (any Error)?) in
            MainActor.assumeIsolated { completion(value, error) }
        }
    }

    /// Delivers the outcome to a main-actor error-first `(Error?, Value?) -> Void`
    /// handler: exactly one of the two is non-nil.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - cancellationError: The error a cancelled future delivers, `CancellationError()`
    ///     by default (the domain's own, such as `URLError(.cancelled)`, keeps what legacy
    ///     callers received). Made only for a cancelled outcome, on the main queue, right
    ///     before `completion` is called.
    ///   - completion: Called exactly once on the main actor; cancellation is
    ///     `(cancellationError(), nil)`.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    public func deliver(
        on context: MainActorContext,
        cancelledAs cancellationError: @escaping @autoclosure @Sendable () -> any Error = CancellationError(),
        to completion: @escaping @MainActor ((any Error)?, Value?) -> Void
    ) -> CancellationToken {
        deliver(on: context.executionContext, cancelledAs: cancellationError()) {
            (error: (any Error)?, value: Value?) in
            MainActor.assumeIsolated { completion(error, value) }
        }
    }

    /// Delivers the outcome to a main-actor `(Value, Error?) -> Void` handler, which
    /// always receives a value: `valueOnFailure` goes with an error.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - cancellationError: The error a cancelled future delivers, `CancellationError()`
    ///     by default (the domain's own, such as `URLError(.cancelled)`, keeps what legacy
    ///     callers received). Made only for a cancelled outcome, on the main queue, right
    ///     before `completion` is called.
    ///   - completion: Called exactly once on the main actor.
    ///   - valueOnFailure: The value passed along with an error.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    public func deliver(
        on context: MainActorContext,
        cancelledAs cancellationError: @escaping @autoclosure @Sendable () -> any Error = CancellationError(),
        to completion: @escaping @MainActor (Value, (any Error)?) -> Void,
        valueOnFailure: Value
    ) -> CancellationToken {
        deliver(
            on: context.executionContext, cancelledAs: cancellationError(),
            to: { (value: Value, error: (any Error)?) in MainActor.assumeIsolated { completion(value, error) } },
            valueOnFailure: valueOnFailure)
    }

    /// Delivers the outcome to separate main-actor success and failure handlers; exactly
    /// one of them is called, once (a cancellation goes to `failure` as
    /// `cancellationError()`).
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - cancellationError: The error a cancelled future delivers, `CancellationError()`
    ///     by default (the domain's own, such as `URLError(.cancelled)`, keeps what legacy
    ///     callers received). Made only for a cancelled outcome, on the main queue, right
    ///     before `completion` is called.
    ///   - success: Receives the value, on the main actor.
    ///   - failure: Receives the error, on the main actor.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    public func deliver(
        on context: MainActorContext,
        cancelledAs cancellationError: @escaping @autoclosure @Sendable () -> any Error = CancellationError(),
        success: @escaping @MainActor (Value) -> Void,
        failure: @escaping @MainActor (any Error) -> Void
    ) -> CancellationToken {
        deliver(
            on: context.executionContext, cancelledAs: cancellationError(), success: MainActorContext.bridge(success),
            failure: MainActorContext.bridge(failure))
    }

    /// Delivers the value to a main-actor `(Value) -> Void` handler, which cannot take an
    /// error: a failure is reported to ``Diagnostics``, a cancellation is skipped.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - completion: Called at most once, on the main actor, with the value.
    ///   - fileID: Named in the report of a failure that could not be delivered.
    ///   - line: The line named in that report.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    public func deliver(
        on context: MainActorContext, to completion: @escaping @MainActor (Value) -> Void,
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> CancellationToken {
        deliver(on: context.executionContext, to: MainActorContext.bridge(completion), fileID: fileID, line: line)
    }

    /// Delivers the outcome to a main-actor `(First?, Second?, Error?) -> Void` handler
    /// (the shape of `URLSession`'s completion handlers).
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - cancellationError: The error a cancelled future delivers, `CancellationError()`
    ///     by default (the domain's own, such as `URLError(.cancelled)`, keeps what legacy
    ///     callers received). Made only for a cancelled outcome, on the main queue, right
    ///     before `completion` is called.
    ///   - completion: Called exactly once on the main actor; cancellation is
    ///     `(nil, nil, cancellationError())`.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    public func deliver<First, Second>(
        on context: MainActorContext,
        cancelledAs cancellationError: @escaping @autoclosure @Sendable () -> any Error = CancellationError(),
        to completion: @escaping @MainActor (First?, Second?, (any Error)?) -> Void
    ) -> CancellationToken where Value == (First?, Second?) {
        deliver(on: context.executionContext, cancelledAs: cancellationError()) {
            (first: First?, second: Second?, error: (any Error)?) in
            MainActor.assumeIsolated { completion(first, second, error) }
        }
    }
}

extension Future where Value == Void {
    /// Delivers the outcome to a main-actor `(Error?) -> Void` handler: `nil` on success.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - cancellationError: The error a cancelled future delivers, `CancellationError()`
    ///     by default (the domain's own, such as `URLError(.cancelled)`, keeps what legacy
    ///     callers received). Made only for a cancelled outcome, on the main queue, right
    ///     before `completion` is called.
    ///   - completion: Called exactly once on the main actor; cancellation is
    ///     `cancellationError()`.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    public func deliver(
        on context: MainActorContext,
        cancelledAs cancellationError: @escaping @autoclosure @Sendable () -> any Error = CancellationError(),
        to completion: @escaping @MainActor ((any Error)?) -> Void
    ) -> CancellationToken {
        deliver(on: context.executionContext, cancelledAs: cancellationError()) { (error: (any Error)?) in
            MainActor.assumeIsolated { completion(error) }
        }
    }

    /// Delivers success to a main-actor `() -> Void` handler: a failure is reported to
    /// ``Diagnostics``, a cancellation is skipped.
    ///
    /// - Parameters:
    ///   - context: ``MainActorContext/main`` or ``MainActorContext/mainImmediate``.
    ///   - completion: Called at most once, on the main actor.
    ///   - fileID: Named in the report of a failure that could not be delivered.
    ///   - line: The line named in that report.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    public func deliver(
        on context: MainActorContext, to completion: @escaping @MainActor () -> Void,
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> CancellationToken {
        deliver(on: context.executionContext, to: MainActorContext.bridge(completion), fileID: fileID, line: line)
    }
}
