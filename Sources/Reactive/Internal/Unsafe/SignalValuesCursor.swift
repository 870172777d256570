/// One iterator's place in a ``SignalValues`` sequence: the batch of values it took out
/// of the shared storage in one lock round trip, handed out from here without the lock.
///
/// ## Invariant
///
/// `batch` is touched only by the task that owns the iterator (the iterator is not
/// `Sendable`, so no other task can reach this object), and only inside one call of
/// ``next(isolation:)`` or in `deinit`, which never overlap: an iterator's `next` calls
/// follow one another (it is `mutating`), and `deinit` runs once no iterator refers to the
/// cursor. Hence no two accesses to `batch` ever overlap, which is why it skips the
/// dynamic exclusivity checks (two runtime calls per value, on every value).
///
/// When an iterator that still holds values is released (a loop left with `break`), its
/// cursor gives them back to the storage, in front of those kept since, so that another
/// loop over the same sequence goes on where this one stopped.
@usableFromInline
final class SignalValuesCursor<Value: Sendable> {
    @usableFromInline
    let reader: SignalValuesReader<Value>
    /// Values taken from the storage and not handed out yet, oldest first.
    @usableFromInline @exclusivity(unchecked)
    var batch = RingBuffer<Value>()
    /// Whether this iterator has already told the storage that its task was cancelled.
    @usableFromInline @exclusivity(unchecked)
    var hasSeenCancellation = false
    /// How many values the last take from the storage found (0: the last value came
    /// from a suspension, the consumer was ahead).
    @usableFromInline @exclusivity(unchecked)
    var lastTakeCount = 0
    /// Whether a take moves everything kept (the unbounded policy), not one value.
    @usableFromInline
    let takesBatches: Bool

    /// With batches, fewer values than this in one take mean that the producer is
    /// ahead, but only just.
    @inlinable static var smallBatch: Int { 16 }

    @inlinable
    init(_ reader: SignalValuesReader<Value>) {
        self.reader = reader
        takesBatches = reader.storage.policy == .unbounded
    }

    deinit {
        if !batch.isEmpty { reader.storage.leftoversReturned(batch) }
    }

    /// The next value: from the batch without the lock; else whatever is kept, taken
    /// into the batch in one lock round trip; else suspends until a value or the end
    /// arrives. Runs in the caller's isolation, without a hop (`nonisolated(nonsending)`:
    /// an isolated parameter would make every call check the executor). A cancelled task
    /// detaches first, once, and then takes what was kept.
    ///
    /// Small, so that it is inlined into the caller's loop: a value from the batch costs
    /// no call of its own.
    @inlinable
    nonisolated(nonsending) func next() async throws -> Value? {
        if !hasSeenCancellation && Task.isCancelled { cancellationSeen() }
        if let value = batch.popFirst() { return value }
        return try await nextFromStorage()
    }

    /// Tells the storage, once, that the task was cancelled.
    @inlinable @inline(never)
    func cancellationSeen() {
        hasSeenCancellation = true
        reader.storage.cancel()
    }

    /// ``next()`` when the batch is empty: takes what is kept, or suspends.
    ///
    /// Two turns given to a producer that is ahead, each one `Task.yield()`, which costs
    /// the consumer (who has time to spare) where the alternative costs the producer:
    /// - After a small batch, before taking again: otherwise the two take the lock in
    ///   turn for every value or two, and each take moves the lock's and the ring's
    ///   memory from one core to the other.
    /// - After a large batch, when nothing is kept: a producer that is running usually
    ///   sends within that time, where a suspension would cost it a wake-up of the
    ///   consumer on the next value.
    ///
    /// A consumer that was waiting (its last value resumed it) suspends at once, so a
    /// producer in step with it pays nothing. Measured in benchmark B8 (a producer task
    /// sending a million values): 30 to 65 ns a value with these turns, 60 to 110 ns with
    /// the second one only, 80 to 175 ns with neither.
    @inlinable @inline(never)
    nonisolated(nonsending) func nextFromStorage() async throws -> Value? {
        if takesBatches && lastTakeCount > 0 && lastTakeCount < Self.smallBatch { await Task.yield() }
        var action = reader.storage.take(into: &batch)
        if case .suspend = action, lastTakeCount >= Self.smallBatch {
            await Task.yield()
            action = reader.storage.take(into: &batch)
        }
        switch action {
        case .taken:
            lastTakeCount = batch.count
            return batch.popFirst()
        case .end(let end):
            return try end.get()
        case .suspend:
            lastTakeCount = 0
            let value = try await reader.storage.suspend()
            // Resumed by its cancellation: detach before the loop ends.
            if value == nil && !hasSeenCancellation && Task.isCancelled { cancellationSeen() }
            return value
        }
    }
}

/// Reached by one task only; see the invariant above.
@available(*, unavailable)
extension SignalValuesCursor: Sendable {}
