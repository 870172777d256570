/// Keeping a callback API for legacy callers on top of futures and `async` code.
///
/// Each `deliver` overload calls a completion handler of one common shape exactly once
/// with the future's outcome, on the executor you name (legacy UI code usually expects
/// `.main`), and returns a ``CancellationToken``: the legacy caller's interest in the
/// future, and its way to cancel. Its ``CancellationToken/cancel()`` is a cancel request,
/// sent upstream once no other consumer holds an interest. Discarding the token gives up
/// that interest too, as any token does (see <doc:Cancellation>): the handler is still
/// called exactly once, but with the cancellation if other consumers' requests (or the
/// holder's ``Future/requestCancellation()``) cancel the future meanwhile. Keep the token
/// while the legacy caller must keep the future wanted.
///
/// <!-- fragment: app -->
/// ```swift
/// // The old entry point, now implemented with async code:
/// @discardableResult
/// func fetchUser(id: Int, completion: @escaping @Sendable (User?, Error?) -> Void) -> CancellationToken {
///     Future { try await client.user(id: id) }.deliver(on: .main, to: completion)
/// }
/// ```
///
/// A cancelled future reaches the shapes that carry an error as `CancellationError`, or
/// as the domain's own error passed as `cancelledAs` (`URLError(.cancelled)`).
/// The shapes that cannot carry an error (`(Value)`, `()`) are called on success only:
/// a failure is then reported to ``Diagnostics`` (``Diagnostic/Kind/failureNotDelivered``)
/// rather than lost silently, and a cancellation is skipped (someone asked for it).
extension Future {
    /// Delivers the outcome to a `(Result<Value, Error>) -> Void` completion handler.
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``ExecutionContext/inline`` by default.
    ///   - cancellationError: The error a cancelled future delivers, `CancellationError()`
    ///     by default; pass the domain's own (`URLError(.cancelled)`) to give legacy
    ///     callers what they received before the migration. Made only for a cancelled
    ///     outcome, right before `completion` is called, where it runs.
    ///   - completion: Called exactly once; cancellation is `.failure(cancellationError())`.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    @_disfavoredOverload
    public func deliver(
        on context: ExecutionContext = .inline,
        cancelledAs cancellationError: @escaping @autoclosure @Sendable () -> any Error = CancellationError(),
        to completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) -> CancellationToken {
        deliverOutcome(on: context) { completion($0.result(cancelledAs: cancellationError)) }
    }

    /// Delivers the outcome to a `(Value?, Error?) -> Void` completion handler: exactly
    /// one of the two is non-nil.
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``ExecutionContext/inline`` by default.
    ///   - cancellationError: The error a cancelled future delivers, `CancellationError()`
    ///     by default; pass the domain's own (`URLError(.cancelled)`) to give legacy
    ///     callers what they received before the migration. Made only for a cancelled
    ///     outcome, right before `completion` is called, where it runs.
    ///   - completion: Called exactly once; cancellation is `(nil, cancellationError())`.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    @_disfavoredOverload
    public func deliver(
        on context: ExecutionContext = .inline,
        cancelledAs cancellationError: @escaping @autoclosure @Sendable () -> any Error = CancellationError(),
        to completion: @escaping @Sendable (Value?, (any Error)?) -> Void
    ) -> CancellationToken {
        deliverOutcome(on: context) { outcome in
            switch outcome.result(cancelledAs: cancellationError) {
            case .success(let value): completion(value, nil)
            case .failure(let error): completion(nil, error)
            }
        }
    }

    /// Delivers the outcome to an error-first `(Error?, Value?) -> Void` completion
    /// handler (Node style): exactly one of the two is non-nil.
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``ExecutionContext/inline`` by default.
    ///   - cancellationError: The error a cancelled future delivers, `CancellationError()`
    ///     by default; pass the domain's own (`URLError(.cancelled)`) to give legacy
    ///     callers what they received before the migration. Made only for a cancelled
    ///     outcome, right before `completion` is called, where it runs.
    ///   - completion: Called exactly once; cancellation is `(cancellationError(), nil)`.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    @_disfavoredOverload
    public func deliver(
        on context: ExecutionContext = .inline,
        cancelledAs cancellationError: @escaping @autoclosure @Sendable () -> any Error = CancellationError(),
        to completion: @escaping @Sendable ((any Error)?, Value?) -> Void
    ) -> CancellationToken {
        deliver(on: context, cancelledAs: cancellationError()) { (value: Value?, error: (any Error)?) in
            completion(error, value)
        }
    }

    /// Delivers the outcome to a `(Value, Error?) -> Void` completion handler, which
    /// always receives a value: `valueOnFailure` goes with an error.
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``ExecutionContext/inline`` by default.
    ///   - cancellationError: The error a cancelled future delivers, `CancellationError()`
    ///     by default; pass the domain's own (`URLError(.cancelled)`) to give legacy
    ///     callers what they received before the migration. Made only for a cancelled
    ///     outcome, right before `completion` is called, where it runs.
    ///   - completion: Called exactly once; cancellation is
    ///     `(valueOnFailure, cancellationError())`.
    ///   - valueOnFailure: The value passed along with an error (`false`, `[]`, `0`...).
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    @_disfavoredOverload
    public func deliver(
        on context: ExecutionContext = .inline,
        cancelledAs cancellationError: @escaping @autoclosure @Sendable () -> any Error = CancellationError(),
        to completion: @escaping @Sendable (Value, (any Error)?) -> Void,
        valueOnFailure: Value
    ) -> CancellationToken {
        deliver(on: context, cancelledAs: cancellationError()) { (value: Value?, error: (any Error)?) in
            completion(value ?? valueOnFailure, error)
        }
    }

    /// Delivers the outcome to a success handler and a failure handler: exactly one of
    /// them is called once.
    ///
    /// - Parameters:
    ///   - context: Where the handler runs; ``ExecutionContext/inline`` by default.
    ///   - cancellationError: The error a cancelled future delivers, `CancellationError()`
    ///     by default; pass the domain's own (`URLError(.cancelled)`) to give legacy
    ///     callers what they received before the migration. Made only for a cancelled
    ///     outcome, right before `failure` is called, where it runs.
    ///   - success: Receives the value.
    ///   - failure: Receives the error; `cancellationError()` for a cancellation.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    @_disfavoredOverload
    public func deliver(
        on context: ExecutionContext = .inline,
        cancelledAs cancellationError: @escaping @autoclosure @Sendable () -> any Error = CancellationError(),
        success: @escaping @Sendable (Value) -> Void,
        failure: @escaping @Sendable (any Error) -> Void
    ) -> CancellationToken {
        deliverOutcome(on: context) { outcome in
            switch outcome.result(cancelledAs: cancellationError) {
            case .success(let value): success(value)
            case .failure(let error): failure(error)
            }
        }
    }

    /// Delivers the value to a `(Value) -> Void` completion handler that cannot receive
    /// an error.
    ///
    /// `completion` is called once on success. A failure is reported to ``Diagnostics``
    /// as ``Diagnostic/Kind/failureNotDelivered``, naming this call's `fileID:line`; a
    /// cancellation calls nothing. Prefer an overload that carries errors when the
    /// future can fail.
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``ExecutionContext/inline`` by default.
    ///   - completion: Receives the value.
    ///   - fileID: The call site, named in the report of an undeliverable failure.
    ///   - line: The line of the call site.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    @_disfavoredOverload
    public func deliver(
        on context: ExecutionContext = .inline,
        to completion: @escaping @Sendable (Value) -> Void,
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> CancellationToken {
        deliverOutcome(on: context) { outcome in
            switch outcome {
            case .success(let value):
                completion(value)
            case .failure(let error):
                Diagnostics.report(
                    Diagnostic(
                        kind: .failureNotDelivered,
                        message:
                            "a completion handler that takes no error was not called: the future failed with \(error)",
                        fileID: "\(fileID)", line: Int(line)))
            case .cancelled:
                break
            }
        }
    }

    /// Takes the legacy caller's interest, then runs `body` with the outcome on `context`.
    func deliverOutcome(
        on context: ExecutionContext,
        _ body: @escaping @Sendable (Outcome<Value>) -> Void
    ) -> CancellationToken {
        let token = cancellationToken()
        storage.observe(on: resolved(context), .outcome(body))
        return token
    }
}

extension Future where Value == Void {
    /// Delivers the outcome to an `(Error?) -> Void` completion handler: `nil` on
    /// success.
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``ExecutionContext/inline`` by default.
    ///   - cancellationError: The error a cancelled future delivers, `CancellationError()`
    ///     by default; pass the domain's own (`URLError(.cancelled)`) to give legacy
    ///     callers what they received before the migration. Made only for a cancelled
    ///     outcome, right before `completion` is called, where it runs.
    ///   - completion: Called exactly once; cancellation is `cancellationError()`.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    @_disfavoredOverload
    public func deliver(
        on context: ExecutionContext = .inline,
        cancelledAs cancellationError: @escaping @autoclosure @Sendable () -> any Error = CancellationError(),
        to completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> CancellationToken {
        deliver(on: context, cancelledAs: cancellationError()) { (result: Result<Void, any Error>) in
            if case .failure(let error) = result { completion(error) } else { completion(nil) }
        }
    }

    /// Delivers success to a `() -> Void` completion handler; a failure is reported as
    /// for ``deliver(on:to:fileID:line:)``, and a cancellation calls nothing.
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``ExecutionContext/inline`` by default.
    ///   - completion: Called once on success.
    ///   - fileID: The call site, named in the report of an undeliverable failure.
    ///   - line: The line of the call site.
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    @_disfavoredOverload
    public func deliver(
        on context: ExecutionContext = .inline,
        to completion: @escaping @Sendable () -> Void,
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> CancellationToken {
        deliver(on: context, to: { (_: Void) in completion() }, fileID: fileID, line: line)
    }
}

extension Future {
    /// Delivers a pair of optional values to a callback with two optional values and an
    /// optional error, such as URLSession's `(Data?, URLResponse?, Error?) -> Void`.
    ///
    /// - Parameters:
    ///   - context: Where `completion` runs; ``ExecutionContext/inline`` by default.
    ///   - cancellationError: The error a cancelled future delivers, `CancellationError()`
    ///     by default; pass the domain's own (`URLError(.cancelled)`) to give legacy
    ///     callers what they received before the migration. Made only for a cancelled
    ///     outcome, right before `completion` is called, where it runs.
    ///   - completion: Called exactly once: `(first, second, nil)` on success,
    ///     `(nil, nil, error)` otherwise (`cancellationError()` for a cancellation).
    /// - Returns: The handle with which the legacy caller requests cancellation.
    @discardableResult
    @_disfavoredOverload
    public func deliver<First, Second>(
        on context: ExecutionContext = .inline,
        cancelledAs cancellationError: @escaping @autoclosure @Sendable () -> any Error = CancellationError(),
        to completion: @escaping @Sendable (First?, Second?, (any Error)?) -> Void
    ) -> CancellationToken where Value == (First?, Second?) {
        deliver(on: context, cancelledAs: cancellationError()) { (result: Result<Value, any Error>) in
            switch result {
            case .success(let pair): completion(pair.0, pair.1, nil)
            case .failure(let error): completion(nil, nil, error)
            }
        }
    }
}
