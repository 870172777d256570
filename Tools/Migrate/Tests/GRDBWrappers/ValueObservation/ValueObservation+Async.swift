// Async forms of the completion-handler functions of ValueObservation.swift, written by
// futurebridge-migrate on FutureBridge's bridge: a handler released without being called
// fails with AbandonedPromiseError (naming the line below that made the promise), a
// second call is ignored and reported to Diagnostics, and a cancelled task throws
// CancellationError at once (and cancels the operation's handle, where there is one).
// Edit freely: the tool never overwrites an existing file.

import Dispatch
import Foundation
import FutureBridge
import GRDB
#if canImport(Combine)
    import Combine
#endif

/// Ends a stream form's stream when the library releases the handlers that feed it (no
/// more values can come), throwing `AbandonedPromiseError` if a completion was due.
private final class StreamEnd<Element: Sendable>: Sendable {
    let continuation: AsyncThrowingStream<Element, any Error>.Continuation
    private let abandoned: AbandonedPromiseError?

    init(
        _ continuation: AsyncThrowingStream<Element, any Error>.Continuation, abandoned: AbandonedPromiseError? = nil
    ) {
        self.continuation = continuation
        self.abandoned = abandoned
    }

    deinit {
        // The operation is over: ending the stream must not call back into the library.
        continuation.onTermination = nil
        if let abandoned {
            continuation.finish(throwing: abandoned)
        } else {
            continuation.finish()
        }
    }
}

extension ValueObservation {
    /// Stream form of `start(in:scheduling:onError:onChange:)`: the values its handler receives, in order.
    ///
    /// Starts observing the database.
    ///
    /// For example:
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking { db in
    ///     try Player.fetchAll(db)
    /// }
    ///
    /// let cancellable = try observation.start(
    ///     in: dbQueue,
    ///     scheduling: .async(onQueue: .main))
    /// { error in
    ///     // handle error
    /// } onChange: { (players: [Player]) in
    ///     print("Fresh players: \(players)")
    /// }
    /// ```
    ///
    /// The stream ends when its consumer stops (leaving the loop, or cancelling the iterating task), or
    /// when the operation reports an error, which the loop throws; it also ends when the library releases
    /// the handler, since no more values can come. Then it calls `cancel()` on the `AnyDatabaseCancellable`
    /// that `start(in:scheduling:onError:onChange:)` returns, which stops the handler.
    ///
    /// - parameter reader: A DatabaseReader.
    /// - parameter scheduler: A ValueObservationScheduler.
    /// - Returns: The handler's values, in order. The stream buffers those its consumer has not taken yet.
    public func start(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler
    ) -> AsyncThrowingStream<Reducer.Value, any Error> where Reducer: ValueReducer, Reducer.Value: Sendable {
        let (stream, continuation) = AsyncThrowingStream<Reducer.Value, any Error>.makeStream()
        let end = StreamEnd(continuation)
        let finish: @Sendable (Error) -> Void = { end.continuation.finish(throwing: $0) }
        let handle = start(in: reader, scheduling: scheduler, onError: finish) { value in
            end.continuation.yield(value)
        }
        continuation.onTermination = { _ in handle.cancel() }
        return stream
    }

    /// Stream form of `start(in:scheduling:onError:onChange:)`: the values its handler receives, in order.
    ///
    /// Starts observing the database and notifies fresh values on the
    /// main actor.
    ///
    /// For example:
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking { db in
    ///     try Player.fetchAll(db)
    /// }
    ///
    /// let cancellable = try observation.start(in: dbQueue) { error in
    ///     // handle error
    /// } onChange: { (players: [Player]) in
    ///     print("Fresh players: \(players)")
    /// }
    /// ```
    ///
    /// By default, fresh values are dispatched asynchronously on the
    /// main actor. Pass `.immediate` if the first value shoud be notified
    /// immediately when the observation starts:
    ///
    /// ```swift
    /// let cancellable = try observation.start(in: dbQueue, scheduling: .immediate) { error in
    ///     // handle error
    /// } onChange: { (players: [Player]) in
    ///     print("Fresh players: \(players)")
    /// }
    /// // <- here "Fresh players" is already printed.
    /// ```
    ///
    /// The stream ends when its consumer stops (leaving the loop, or cancelling the iterating task), or
    /// when the operation reports an error, which the loop throws; it also ends when the library releases
    /// the handler, since no more values can come. Then it calls `cancel()` on the `AnyDatabaseCancellable`
    /// that `start(in:scheduling:onError:onChange:)` returns, which stops the handler.
    ///
    /// - parameter reader: A DatabaseReader.
    /// - parameter scheduler: A ValueObservationMainActorScheduler.
    ///   By default, fresh values are dispatched asynchronously on the
    ///   main actor.
    /// - Returns: The handler's values, in order. The stream buffers those its consumer has not taken yet.
    @MainActor
    public func start(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationMainActorScheduler = .mainActor
    ) -> AsyncThrowingStream<Reducer.Value, any Error> where Reducer: ValueReducer, Reducer.Value: Sendable {
        let (stream, continuation) = AsyncThrowingStream<Reducer.Value, any Error>.makeStream()
        let end = StreamEnd(continuation)
        let finish: @Sendable (Error) -> Void = { end.continuation.finish(throwing: $0) }
        let handle = start(in: reader, scheduling: scheduler, onError: finish) { value in
            end.continuation.yield(value)
        }
        continuation.onTermination = { _ in handle.cancel() }
        return stream
    }
}
