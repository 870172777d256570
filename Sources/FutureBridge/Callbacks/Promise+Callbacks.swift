import FutureBridgeAtomics

/// Completion handlers of every common shape, to pass straight to a callback API.
///
/// Each `resolve` (and ``reject(_:)``) is meant to be handed over as the completion
/// handler itself:
///
/// <!-- fragment: legacy -->
/// ```swift
/// let data = Future<Data> { promise in legacy.load(url, completion: promise.resolve) }
/// let user = try await withPromise(of: User.self) { promise in
///     api.fetchUser(id: 7, completion: promise.resolve)
/// }
/// ```
///
/// They are overloads told apart by the completion handler's type, so pass them as
/// function values; a direct call such as `promise.resolve(nil, nil)` is ambiguous.
///
/// Whichever adapter is called first completes the future (on the calling thread, which
/// then runs the future's inline handlers). A callback API that misbehaves loses
/// nothing and crashes nothing:
/// - a second call of any adapter is ignored and reported to ``Diagnostics`` as
///   ``Diagnostic/Kind/completedTwice`` (a call that comes after the future was
///   completed some other way, such as a cancellation, is ignored silently);
/// - a `(Value?, Error?)`-style call with neither a value nor an error fails the future
///   with ``InvalidCallbackError``, naming the calling convention;
/// - a completion handler released without being called abandons the promise: the
///   future fails with ``AbandonedPromiseError``, naming where the promise was made.
extension Promise {
    /// Completes from a `(Result<Value, Failure>) -> Void` callback.
    @inlinable
    public func resolve<Failure: Error>(_ result: Result<Value, Failure>) {
        switch result {
        case .success(let value): adapterCompletes(.success(value))
        case .failure(let error): adapterCompletes(.failure(error))
        }
    }

    /// Completes from a `(Value?, Error?) -> Void` callback: the error wins if both are
    /// given; neither fails the future with ``InvalidCallbackError``.
    @inlinable
    public func resolve(_ value: Value?, _ error: (any Error)?) {
        adapterCompletes(Self.outcome(value, error, convention: "(Value?, Error?)"))
    }

    /// Completes from an `(Error?, Value?) -> Void` callback (error first, as in
    /// Node-style APIs): the error wins if both are given; neither fails the future
    /// with ``InvalidCallbackError``.
    @inlinable
    public func resolve(_ error: (any Error)?, _ value: Value?) {
        adapterCompletes(Self.outcome(value, error, convention: "(Error?, Value?)"))
    }

    /// Completes from a `(Value, Error?) -> Void` callback: a non-nil error fails the
    /// future, otherwise the value completes it.
    @inlinable
    public func resolve(_ value: Value, _ error: (any Error)?) {
        adapterCompletes(error.map { .failure($0) } ?? .success(value))
    }

    /// Completes from a `(Value) -> Void` callback that cannot fail, or from the success
    /// handler of a success-plus-failure pair (see ``reject(_:)``).
    @inlinable
    public func resolve(_ value: Value) {
        adapterCompletes(.success(value))
    }

    /// Fails the future from the failure handler of a success-plus-failure pair
    /// (`success: promise.resolve, failure: promise.reject`). A cancellation error
    /// cancels it.
    @inlinable
    public func reject(_ error: any Error) {
        adapterCompletes(.failure(error))
    }

    /// The outcome of an optional-value, optional-error callback.
    @inlinable
    static func outcome(_ value: Value?, _ error: (any Error)?, convention: String) -> Outcome<Value> {
        if let error { return .failure(error) }
        if let value { return .success(value) }
        return .failure(InvalidCallbackError(convention: convention))
    }

    /// Completes on behalf of a completion-handler adapter; reports a second adapter call.
    ///
    /// Inlinable, as the adapters are, so that the completion is specialized for `Value`
    /// in the caller: unspecialized, looking up the generic metadata of the storage and the
    /// outcome cost more than the completion itself (B11 in the Benchmarks package).
    @inlinable
    func adapterCompletes(_ outcome: Outcome<Value>) {
        let isFirstCall = fb_u32_fetch_or_acq_rel(promiseWord, Self.adapterCalledBit) & Self.adapterCalledBit == 0
        complete(with: outcome)
        if !isFirstCall { reportSecondAdapterCall() }
    }

    /// Reports a completion-handler adapter called after it had completed the future.
    @usableFromInline @inline(never)
    func reportSecondAdapterCall() {
        let origin = origin
        Diagnostics.report(
            Diagnostic(
                kind: .completedTwice,
                message:
                    "a completion handler was called again after it had completed its future; the call was ignored",
                fileID: origin.fileID, line: origin.line))
    }
}

extension Promise where Value == Void {
    /// Completes a `Promise<Void>` from an `(Error?) -> Void` callback: `nil` succeeds.
    @inlinable
    public func resolve(_ error: (any Error)?) {
        adapterCompletes(error.map { .failure($0) } ?? .success(()))
    }

    /// Completes a `Promise<Void>` from a `() -> Void` callback.
    @inlinable
    public func resolve() {
        adapterCompletes(.success(()))
    }
}

extension Promise {
    /// Completes from a callback with two optional values and an optional error, such as
    /// URLSession's `(Data?, URLResponse?, Error?) -> Void`; the value is the pair.
    ///
    /// An error fails the future; otherwise it succeeds if at least one value is given;
    /// with nothing at all it fails with ``InvalidCallbackError``.
    @inlinable
    public func resolve<First, Second>(_ first: First?, _ second: Second?, _ error: (any Error)?)
    where Value == (First?, Second?) {
        let pair = first == nil && second == nil ? nil : (first, second)
        adapterCompletes(Self.outcome(pair, error, convention: "(First?, Second?, Error?)"))
    }
}
