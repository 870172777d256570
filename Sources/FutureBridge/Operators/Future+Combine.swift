import FutureBridgeInternals

/// Combining several futures into one.
///
/// Every combined future holds an interest in each of its inputs, so a cancel request
/// on it travels to all of them (to the producers of those still pending). When it
/// completes early (a failure in ``whenAll(_:)->Future<(Value)>``, a winner in
/// ``whenAny(_:)`` or ``race(_:)``) the inputs still pending get cancel requests: nobody
/// is waiting for them any more, unless another consumer holds an interest of its own.
/// No closure is involved: combined futures complete on the thread that completes their
/// last (or deciding) input.

/// A future of all the values, once every input has succeeded; typed over any number
/// of futures of different types.
///
/// Fails with the first failure (or is cancelled by the first cancellation) among the
/// inputs, and then sends cancel requests to the others.
///
/// ```swift
/// func profile(_ name: Future<String>, _ avatar: Future<Data>, _ followers: Future<Int>) async throws {
///     let (text, image, count) = try await whenAll(name, avatar, followers).value   // String, Data, Int
/// }
/// ```
///
/// - Parameter futures: The inputs.
/// - Returns: A future of the tuple of their values, in argument order.
public func whenAll<each Value: Sendable>(
    _ futures: repeat Future<each Value>
) -> Future<(repeat each Value)> {
    var inputs: [AnyFutureBox] = []
    for future in repeat each futures { inputs.append(future.storage.box) }
    if inputs.isEmpty { return Future(value: (repeat (each futures).storage.successValue)) }  // `()`
    let combination = Combination<(repeat each Value)>(inputs: inputs)
    let all = (repeat each futures)
    for future in repeat each futures {
        future.storage.whenComplete { outcome in
            combination.inputEnded(outcome) { (repeat (each all).storage.successValue) }
        }
    }
    return combination.future
}

/// A future of every value, in input order, once every input has succeeded.
///
/// Fails with the first failure (or is cancelled by the first cancellation) among the
/// inputs, and then sends cancel requests to the others. An empty collection succeeds
/// at once with `[]`. Linear in the number of inputs.
///
/// - Parameter futures: The inputs.
/// - Returns: A future of their values.
@inlinable
public func whenAll<Value: Sendable>(_ futures: some Collection<Future<Value>>) -> Future<[Value]> {
    whenAllSucceed(futures) { futures in futures.map { $0.storage.successValue } }
}

/// A future of every input's outcome, in input order, once all of them have completed
/// (PromiseKit's `when(resolved:)`). It never fails.
///
/// A cancel request on it travels to every input; it still waits for all of them to
/// complete, and its outcomes then show which were cancelled.
///
/// - Parameter futures: The inputs.
/// - Returns: A future of their outcomes; `[]` at once for an empty collection.
public func whenAllSettled<Value: Sendable>(
    _ futures: some Collection<Future<Value>>
) -> Future<[Outcome<Value>]> {
    makeCombination(futures, emptyOutcome: .success([])) { futures, combination, _ in
        guard combination.inputCompleted() else { return }
        combination.complete(.success(futures.map { $0.storage.outcome ?? .cancelled }))
    }
}

/// A future of the first value among the inputs; the others then get cancel requests.
///
/// Failures and cancellations are skipped while another input may still succeed. If
/// none succeeds, it fails with the first failure among them, or ends cancelled if all
/// were cancelled. An empty collection fails at once with ``EmptyInputError``.
///
/// - Parameter futures: The inputs.
/// - Returns: A future of the first successful value.
public func whenAny<Value: Sendable>(_ futures: some Collection<Future<Value>>) -> Future<Value> {
    let firstError = Locked<(any Error)?>(nil)
    return makeCombination(futures, emptyOutcome: .failure(EmptyInputError(operation: "whenAny"))) {
        _, combination, outcome in
        if case .failure(let error) = outcome { firstError.withLock { $0 = $0 ?? error } }
        if case .success = outcome {
            combination.complete(outcome)
        } else if combination.inputCompleted() {
            combination.complete(firstError.withLock { $0 }.map { .failure($0) } ?? .cancelled)
        }
    }
}

/// A future of the first outcome among the inputs, whatever it is; the others then get
/// cancel requests.
///
/// An empty collection fails at once with ``EmptyInputError``.
///
/// - Parameter futures: The inputs.
/// - Returns: A future that completes like the first input to complete.
public func race<Value: Sendable>(_ futures: some Collection<Future<Value>>) -> Future<Value> {
    makeCombination(futures, emptyOutcome: .failure(EmptyInputError(operation: "race"))) { _, combination, outcome in
        combination.complete(outcome)
    }
}

/// The values of all inputs combined with `combine`, in input order, once every input
/// has succeeded; fails like ``whenAll(_:)->Future<[Value]>``.
///
/// - Parameters:
///   - futures: The inputs.
///   - initial: The value to start from.
///   - context: Where `combine` runs; ``ExecutionContext/inline`` by default.
///   - combine: Adds one value to the accumulated result; a throw fails the future.
/// - Returns: A future of the accumulated result.
@_disfavoredOverload
public func reduce<Value: Sendable, Result: Sendable>(
    _ futures: some Collection<Future<Value>>,
    _ initial: Result,
    on context: ExecutionContext = .inline,
    _ combine: @escaping @Sendable (Result, Value) throws -> Result
) -> Future<Result> {
    whenAll(futures).map(on: context) { values in try values.reduce(initial, combine) }
}

/// The values of all inputs combined one after another by an asynchronous step, in
/// input order, once every input has succeeded.
///
/// Each `combine` step starts when the previous one has succeeded; the first failure
/// (of an input or a step) fails the result. A cancel request travels to the inputs
/// while they are pending, then to the step in progress.
///
/// - Parameters:
///   - futures: The inputs.
///   - initial: The value to start from.
///   - context: Where `combine` runs; ``ExecutionContext/inline`` by default.
///   - combine: Starts the step that adds one value to the accumulated result.
/// - Returns: A future of the accumulated result.
@_disfavoredOverload
public func fold<Value: Sendable, Result: Sendable>(
    _ futures: some Collection<Future<Value>>,
    _ initial: Result,
    on context: ExecutionContext = .inline,
    _ combine: @escaping @Sendable (Result, Value) throws -> Future<Result>
) -> Future<Result> {
    whenAll(futures).flatMap(on: context) { values in
        values.reduce(Future(value: initial)) { accumulated, value in
            accumulated.flatMap(on: context) { try combine($0, value) }
        }
    }
}

/// The failure of a combinator that needs at least one input and was given none.
public struct EmptyInputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The combinator, such as `whenAny`.
    public let operation: String

    /// Creates the error for `operation`.
    public init(operation: String) {
        self.operation = operation
    }

    /// Says which combinator got no input.
    public var description: String { "\(operation) was given no futures" }
}

/// A future of `gather(futures)` once every input has succeeded; the first failure (or
/// cancellation) completes it at once and sends cancel requests to the others.
@inlinable
func whenAllSucceed<Value: Sendable, Output: Sendable>(
    _ futures: some Collection<Future<Value>>,
    gather: @escaping @Sendable ([Future<Value>]) -> Output
) -> Future<Output> {
    makeCombination(futures, emptyOutcome: .success(gather([]))) { futures, combination, outcome in
        combination.inputEnded(outcome) { gather(futures) }
    }
}

/// Builds a combined future over `futures`: `onInput` runs once per input, on the
/// thread that completes it, with all inputs, the combination and that input's outcome.
@inlinable
func makeCombination<Value: Sendable, Output: Sendable>(
    _ futures: some Collection<Future<Value>>,
    emptyOutcome: Outcome<Output>,
    onInput: @escaping @Sendable ([Future<Value>], Combination<Output>, Outcome<Value>) -> Void
) -> Future<Output> {
    let futures = Array(futures)
    if futures.isEmpty { return Future(outcome: emptyOutcome) }
    let combination = Combination<Output>(inputs: futures.map { $0.storage.box })
    // One callback shared by every input: no allocation per input.
    let callback: OutcomeCallback<Value> = { outcome in onInput(futures, combination, outcome) }
    for future in futures { future.storage.whenComplete(callback) }
    return combination.future
}

extension Outcome {
    /// A failure or cancellation, retyped; must not be called on a success.
    @inlinable
    func withoutValue<Other>() -> Outcome<Other> {
        switch self {
        case .success: preconditionFailure("withoutValue() called on a success")
        case .failure(let error): .failure(error)
        case .cancelled: .cancelled
        }
    }
}
