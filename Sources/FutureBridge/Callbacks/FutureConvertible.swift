/// A type that will produce one value and can present itself as a ``Future`` (FutureKit's
/// `CompletionType`).
///
/// Conform a third-party request or operation object to it, and it can be returned from
/// ``Future/flatMap(on:_:)-(_,(Value)->Next)``, passed to ``Promise/complete(using:)`` and
/// awaited with ``value``, like a future:
///
/// <!-- fragment: legacy -->
/// ```swift
/// extension LegacyRequest: FutureConvertible {
///     var future: Future<Data> {
///         Future { promise in
///             self.start(completion: promise.resolve)
///             promise.cancelOnRequest(self.cancel)
///         }
///     }
/// }
/// let body = try await LegacyRequest(url).value
/// ```
///
/// Cancel requests on a future derived from a conforming value travel to the future its
/// ``future`` property returned, as for any future.
///
/// The protocol does not require `Sendable`, so a main-actor type conforms as it is (in a
/// module that is main-actor by default, the conformance is main-actor-isolated): its
/// ``future`` is then read on the main actor, by ``value``,
/// ``Future/flatMap(on:_:)-8gys1`` and ``Promise/complete(using:)`` called
/// from there.
public protocol FutureConvertible<Value> {
    /// The type of the value produced.
    associatedtype Value: Sendable

    /// The future of this object's value.
    ///
    /// Each read may start the work anew (a `Future { promise in ... }` body runs when it
    /// is built): library operators read it exactly once per use.
    var future: Future<Value> { get }
}

extension FutureConvertible {
    /// The value, awaited: see ``Future/value``. Cancelling the awaiting `Task` withdraws
    /// its interest in ``future`` and throws `CancellationError` at once.
    nonisolated(nonsending) public var value: Value {
        get async throws {
            try await future.value
        }
    }
}

extension Future: FutureConvertible {
    /// The future itself.
    @inlinable
    public var future: Future { self }
}

extension Promise: FutureConvertible {}

extension Future {
    /// A future that follows the future `transform` returns, given as any
    /// ``FutureConvertible`` (a third-party operation, a ``Promise``).
    ///
    /// `transform` runs once, on `context`, if this future succeeds; its result's
    /// ``FutureConvertible/future`` is read once, and cancel requests then travel to it.
    ///
    /// - Parameters:
    ///   - context: Where `transform` runs; ``ExecutionContext/inline`` by default.
    ///   - transform: Starts the next step.
    /// - Returns: A future of the next step's value.
    @inlinable
    @_disfavoredOverload
    public func flatMap<Next: FutureConvertible & SendableMetatype>(
        on context: ExecutionContext = .inline,
        _ transform: @escaping @Sendable (Value) throws -> Next
    ) -> Future<Next.Value> {
        flatMap(on: context) { value -> Future<Next.Value> in try transform(value).future }
    }
}
