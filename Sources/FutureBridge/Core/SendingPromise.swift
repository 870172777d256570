import FutureBridgeInternals

/// The promise that ``withPromise(of:isolation:fileID:line:_:)-(_,_,_,_,(SendingPromise<Value>)->Void)``
/// hands to its body when the value is not `Sendable`: one producer completes it, and
/// its value goes to exactly one consumer, the awaiting caller.
///
/// It has ``Promise``'s completion methods and completion-handler adapters, with the same
/// misuse handling (a second call is ignored and reported, `(nil, nil)` fails with
/// ``InvalidCallbackError``, a dropped promise fails with ``AbandonedPromiseError``), and
/// its cancellation hooks.
///
/// <!-- fragment: legacy -->
/// ```swift
/// @MainActor func edit() async throws {
///     let draft = try await withPromise { promise in legacy.makeDraft { promise.succeed($0) } }
///     draft.text += "!"   // Draft is a class that is not Sendable
/// }
/// ```
///
/// The value crosses from the producer to the consumer: the producer hands it over when
/// it completes the promise and must not use it afterwards.
public struct SendingPromise<Value>: Sendable {
    @usableFromInline
    let promise: Promise<Transfer<Value>>

    @inlinable
    init(_ promise: Promise<Transfer<Value>>) {
        self.promise = promise
    }

    /// Completes with `value`; `false` (and nothing changed) if already completed.
    @discardableResult
    public func succeed(_ value: Value) -> Bool {
        promise.succeed(Transfer(value))
    }

    /// Fails with `error` (cancels, if `error` is a cancellation); `false` if already
    /// completed.
    @discardableResult
    public func fail(_ error: any Error) -> Bool {
        promise.fail(error)
    }

    /// Completes as cancelled: the awaiting caller gets `CancellationError`.
    @discardableResult
    public func cancel() -> Bool {
        promise.cancel()
    }

    /// Completes from a `(Result<Value, Failure>) -> Void` callback.
    public func resolve<Failure: Error>(_ result: Result<Value, Failure>) {
        promise.resolve(result.map(Transfer.init))
    }

    /// Completes from a `(Value?, Error?) -> Void` callback: the error wins if both are
    /// given; neither fails with ``InvalidCallbackError``.
    public func resolve(_ value: Value?, _ error: (any Error)?) {
        promise.resolve(value.map(Transfer.init), error)
    }

    /// Completes from an error-first `(Error?, Value?) -> Void` callback.
    public func resolve(_ error: (any Error)?, _ value: Value?) {
        promise.resolve(error, value.map(Transfer.init))
    }

    /// Completes from a `(Value, Error?) -> Void` callback: a non-nil error fails.
    public func resolve(_ value: Value, _ error: (any Error)?) {
        promise.resolve(Transfer(value), error)
    }

    /// Completes from a `(Value) -> Void` callback, or the success handler of a pair.
    public func resolve(_ value: Value) {
        promise.resolve(Transfer(value))
    }

    /// Fails from the failure handler of a success-plus-failure pair.
    public func reject(_ error: any Error) {
        promise.reject(error)
    }

    /// Registers what to do when the awaiting task is cancelled; see
    /// ``Promise/onCancellationRequest(isolation:_:)`` (it runs once, in the caller's
    /// isolation).
    ///
    /// - Parameters:
    ///   - isolation: Where the handler runs; the caller's isolation by default.
    ///   - handler: Stops the work (then ``cancel()``), or lets it go on.
    public func onCancellationRequest(
        isolation: isolated (any Actor)? = #isolation,
        _ handler: sending @escaping (SendingPromise<Value>) -> Void
    ) {
        let call = IsolatedCall(isolation: isolation, handler)
        promise.storage.addCancelHandler { [weak promise] in
            guard let promise else { return }
            call.run(SendingPromise(promise))
        }
    }

    /// On a cancel request, calls `cancel` and completes as cancelled; see
    /// ``Promise/cancelOnRequest(isolation:_:)`` (it runs once, in the caller's
    /// isolation).
    ///
    /// - Parameters:
    ///   - isolation: Where `cancel` runs; the caller's isolation by default.
    ///   - cancel: Stops the underlying work.
    public func cancelOnRequest(isolation: isolated (any Actor)? = #isolation, _ cancel: sending @escaping () -> Void) {
        promise.cancelOnRequest(isolation: isolation, cancel)
    }

    /// Whether the awaiting task asked for cancellation.
    public var isCancellationRequested: Bool { promise.isCancellationRequested }
}

/// A value handed from one producer to one consumer through a ``SendingPromise``.
// @unchecked Sendable: a `Transfer` is made only by `SendingPromise` from the value its
// producer hands over (and no longer uses), stored once in a future that exactly one
// consumer reads: `withPromise`, which awaits it once and returns the value as `sending`.
// The value is never reachable from two isolation domains at once.
@usableFromInline
struct Transfer<Value>: @unchecked Sendable {
    @usableFromInline
    let value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }
}
