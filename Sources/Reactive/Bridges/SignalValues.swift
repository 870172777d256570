/// The values of a ``Signal`` as an `AsyncSequence`, for `for try await` loops; made by
/// ``Signal/values(buffering:)``.
///
/// The sequence is attached to its signal from the moment it is made: values the
/// signal sends while nobody awaits are kept, as its ``SignalBufferingPolicy`` says,
/// and a loop takes the kept values one after another without suspending; it suspends
/// only when none is kept. Completion ends the loop; a failure throws the signal's
/// error; an interruption throws `CancellationError`. Values kept before the end are
/// taken first.
///
/// ## Executors and isolation
/// The signal's observer runs inline, on the thread that delivers the signal's events
/// (see ``Signal``): it keeps the value, or resumes the suspended task with it. The loop's
/// body runs in the isolation of the code that iterates: on an actor, `next()` runs there
/// and resumes there, without a hop on the systems whose runtime calls
/// ``Iterator/next(isolation:)`` (macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, and
/// Linux); on earlier systems the runtime calls ``Iterator/next()``, which runs on the
/// global concurrent executor, as every `AsyncSequence`'s `next()` there does. A loop
/// that took several values at once while they were arriving fast may yield its thread
/// once (`Task.yield()`) before it takes more, so that the producer gets ahead again.
///
/// ## Cancellation and lifetime
/// Cancelling the iterating task detaches the observer (which stops the signal's source
/// if it was the last one) and ends the loop: a suspended `next()` returns `nil` at once,
/// and values kept before still come out first, as with `AsyncThrowingStream`. When the
/// sequence and every iterator made from it are released, the observer is detached too,
/// so a sequence made and never iterated, or a loop left with `break`, keeps nothing
/// attached. A sequence is iterated by one task at a time (a second task awaiting `next()`
/// while one waits stops the program, as with `AsyncStream`); for several consumers,
/// make one sequence each: each gets every value.
///
/// ```swift
/// func follow(_ readings: Signal<Double>) async throws {
///     for try await reading in readings.values(buffering: .newest(1)) { print(reading) }
/// }
/// ```
public struct SignalValues<Value: Sendable>: AsyncSequence, Sendable {
    @usableFromInline
    let reader: SignalValuesReader<Value>

    /// Attaches to `signal` at once. Inlinable, so that the observer's handler is
    /// specialized in the caller with the rest (see ``SignalValuesStorage``).
    @inlinable
    init(_ signal: Signal<Value>, policy: SignalBufferingPolicy) {
        let storage = SignalValuesStorage<Value>(policy: policy)
        storage.attach(to: signal)
        reader = SignalValuesReader(storage)
    }

    /// An iterator over the values. Iterators of one sequence share its values: a second
    /// loop over the same sequence goes on where the first one stopped.
    ///
    /// Each value goes to exactly one iterator. An iterator whose values ran out takes
    /// what the sequence keeps: with ``SignalBufferingPolicy/unbounded``, everything kept
    /// at that moment, which it then hands out itself, in order; with a bounded policy,
    /// the oldest value. So two iterators alive at once and used in turn (a loop inside a
    /// loop over one sequence) get the values in the order sent with a bounded policy;
    /// with the unbounded one, each keeps what it took, and the other gets the values sent
    /// after that take first (`0, 10, 1`, where `AsyncStream` gives `0, 1, 2`). A
    /// released iterator gives back what it had left, in front of the values kept since.
    /// For one order, finish or release one iterator before the next one takes values.
    ///
    /// - Returns: The iterator.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        Iterator(cursor: SignalValuesCursor(reader))
    }

    /// Takes the values of a ``SignalValues`` sequence, one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline
        let cursor: SignalValuesCursor<Value>

        @inlinable
        init(cursor: SignalValuesCursor<Value>) {
            self.cursor = cursor
        }

        /// The next value, at once if one is kept, else once the signal sends one; `nil`
        /// once the signal has completed (or the task was cancelled).
        ///
        /// Runs on the global concurrent executor, like every nonisolated `async`
        /// function; ``next(isolation:)`` runs in the caller's isolation instead, and the
        /// runtime calls it where it can.
        ///
        /// - Returns: The next value, or `nil` at the end.
        /// - Throws: The signal's error if it failed; `CancellationError` if it was
        ///   interrupted. Task cancellation does not throw: it detaches and ends the loop.
        @inlinable
        public mutating func next() async throws -> Value? {
            try await cursor.next()
        }

        /// The next value, as ``next()`` returns it, without leaving `actor`: a kept
        /// value is returned there at once, and a suspended call resumes there.
        ///
        /// - Parameter actor: The caller's isolation; `for try await` passes it.
        /// - Returns: The next value, or `nil` at the end.
        /// - Throws: The signal's error if it failed; `CancellationError` if it was
        ///   interrupted. Task cancellation does not throw: it detaches and ends the loop.
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> Value? {
            try await cursor.next()
        }
    }
}

/// An iterator belongs to the task that iterates: handing it to another task while it is
/// in use would let two tasks await one sequence.
@available(*, unavailable)
extension SignalValues.Iterator: Sendable {}
