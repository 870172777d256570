/// How a ``Future`` ended: with a value, with an error, or cancelled.
///
/// Cancellation is an outcome of its own, not an error: ``Future/onFailure(on:_:)-(ExecutionContext,_)``
/// does not see it, ``Future/onCancel(on:_:)-(ExecutionContext,_)`` does. Crossing into `async/await` it
/// becomes `CancellationError`; coming back, any error for which
/// ``isCancellation(_:)`` is true (such as `CancellationError`, `URLError(.cancelled)`
/// or a type conforming to ``CancellationIndicating``) becomes ``cancelled``.
///
/// ```swift
/// func report(_ future: Future<Int>) async {
///     switch await future.outcome {
///     case .success(let value): print("got", value)
///     case .failure(let error): print("failed:", error)
///     case .cancelled: print("cancelled")
///     }
/// }
/// ```
public enum Outcome<Value> {
    /// The future produced a value.
    case success(Value)
    /// The future failed with an error that is not a cancellation.
    case failure(any Error)
    /// The future was cancelled.
    case cancelled
}

extension Outcome: Sendable where Value: Sendable {}

extension Outcome {
    /// Builds an outcome from an error: ``cancelled`` when the error is a cancellation
    /// (see ``isCancellation(_:)``), ``failure(_:)`` otherwise.
    ///
    /// - Parameter error: The error to classify.
    public init(error: any Error) {
        self = isCancellation(error) ? .cancelled : .failure(error)
    }

    /// Builds an outcome from a `Result`; a failure that is a cancellation becomes
    /// ``cancelled``.
    ///
    /// - Parameter result: The result to convert.
    public init(_ result: Result<Value, any Error>) {
        switch result {
        case .success(let value): self = .success(value)
        case .failure(let error): self.init(error: error)
        }
    }

    /// Runs `body` and captures how it ended: its value, its error, or ``cancelled``
    /// when the error is a cancellation.
    ///
    /// - Parameter body: The work to run, on the calling thread.
    public init(catching body: () throws -> Value) {
        do {
            self = .success(try body())
        } catch {
            self.init(error: error)
        }
    }

    /// The outcome as a `Result`; ``cancelled`` becomes `.failure(CancellationError())`.
    @inlinable
    public var result: Result<Value, any Error> {
        switch self {
        case .success(let value): .success(value)
        case .failure(let error): .failure(error)
        case .cancelled: .failure(CancellationError())
        }
    }

    /// The outcome as a `Result`, ``cancelled`` becoming `.failure(cancellationError())`:
    /// what a legacy caller receives where the domain has its own cancellation error.
    func result(cancelledAs cancellationError: () -> any Error) -> Result<Value, any Error> {
        if case .cancelled = self { return .failure(cancellationError()) }
        return result
    }

    /// Returns the value, or throws the error; ``cancelled`` throws `CancellationError`.
    ///
    /// - Returns: The success value.
    @inlinable
    public func get() throws -> Value {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw error
        case .cancelled: throw CancellationError()
        }
    }

    /// The value, if the outcome is a success.
    @inlinable
    public var value: Value? {
        if case .success(let value) = self { value } else { nil }
    }

    /// The error, if the outcome is a failure (a cancellation is not a failure).
    @inlinable
    public var error: (any Error)? {
        if case .failure(let error) = self { error } else { nil }
    }

    /// Whether the outcome is ``cancelled``.
    @inlinable
    public var isCancelled: Bool {
        if case .cancelled = self { true } else { false }
    }

    /// A failure whose error is a cancellation, turned into ``cancelled``; every other
    /// outcome unchanged. Every completion goes through this, so a failure handler
    /// never sees a cancellation.
    @inlinable
    var normalized: Outcome {
        if case .failure(let error) = self, isCancellation(error) { return .cancelled }
        return self
    }
}

extension Outcome: CustomStringConvertible {
    /// `success(<value>)`, `failure(<error>)` or `cancelled`.
    public var description: String {
        switch self {
        case .success(let value): "success(\(value))"
        case .failure(let error): "failure(\(error))"
        case .cancelled: "cancelled"
        }
    }
}

extension Outcome where Value == Void {
    /// A successful outcome with no value.
    public static var success: Outcome { .success(()) }
}
