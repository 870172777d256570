import FutureBridge

extension Signal {
    /// The signal's values as an `AsyncSequence`, for `for try await` loops.
    ///
    /// The sequence attaches to the signal when it is made (the first observer starts
    /// the signal's source); values sent while the consumer is busy are kept as `policy`
    /// says, and the loop takes them without suspending. Completion ends the loop; a
    /// failure throws the error; an interruption throws `CancellationError`. Cancelling
    /// the consuming task detaches from the signal, which stops its source if that was
    /// the last observer; so does releasing the sequence and its iterators (a sequence
    /// made and never iterated, a loop left with `break`). Iterate one sequence from one
    /// task; see ``SignalValues`` for the executors and isolation.
    ///
    /// ```swift
    /// func follow(_ readings: Signal<Double>) async throws {
    ///     for try await reading in readings.values(buffering: .newest(1)) { print(reading) }
    /// }
    /// ```
    ///
    /// Several consumers each make their own sequence, and each gets every value sent
    /// after it attached; over ``init(_:priority:)``, they share one iteration of an
    /// `AsyncSequence` (see there).
    ///
    /// - Parameter policy: What to keep while the consumer lags; unbounded by default.
    /// - Returns: The values, as a sequence attached to the signal.
    @inlinable
    public func values(buffering policy: SignalBufferingPolicy = .unbounded) -> SignalValues<Value> {
        SignalValues(self, policy: policy)
    }

    /// A signal of `sequence`'s elements, iterated by a `Task` that starts when the
    /// signal's first observer attaches and is cancelled when its last observer detaches
    /// (or the signal otherwise ends).
    ///
    /// The end of the sequence completes the signal; an error fails it, a cancellation
    /// error interrupts it.
    ///
    /// The task runs on the global concurrent executor, whoever makes the signal (it
    /// inherits no actor), and sends each element to the observers as it comes: it is the
    /// only sender of the signal's values, so it keeps the signal's delivery turn for the
    /// whole iteration, and an element costs one `next()` of the sequence and one
    /// delivery, without a lock, a hop to another task or executor, or an atomic
    /// read-modify-write (observers attached with an executor of their own get it there).
    /// It does not wait for slow observers: a ``values(buffering:)`` consumer keeps what it
    /// has not taken yet as its policy says.
    ///
    /// When the last observer detaches, the task is cancelled and the signal ends
    /// (interrupted) at once, even while the task waits for a sequence that does not answer
    /// cancellation. The task delivers without a lock, so while it waits for its sequence it
    /// keeps the observers that left meanwhile (their handlers and what those capture)
    /// until its next element or its end.
    ///
    /// ## Sharing one iteration
    /// A signal is hot and multicast, so consumers that each make their own
    /// ``values(buffering:)`` of one such signal share one iteration of the sequence, on
    /// every deployment target (the role swift-async-algorithms' `share()` plays from
    /// macOS 15 and iOS 18): the first consumer's attaching starts it, each consumer gets
    /// every element that comes after it attached, one leaving does not disturb the others,
    /// and the last one leaving cancels the iterating task. The iteration is not started
    /// again: a consumer that comes after that finds the signal interrupted, and its loop
    /// throws `CancellationError`.
    ///
    /// ```swift
    /// func share(_ ticks: AsyncStream<Int>) async {
    ///     let shared = Signal(ticks)
    ///     let first = shared.values(), second = shared.values()   // the first one starts it
    ///     async let a: Void = { for try await tick in first { print("a", tick) } }()
    ///     async let b: Void = { for try await tick in second { print("b", tick) } }()
    ///     _ = try? await (a, b)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - sequence: The elements.
    ///   - priority: The priority of the iterating task; inherited when `nil`.
    @inlinable
    public convenience init<Elements: AsyncSequence & Sendable>(
        _ sequence: Elements, priority: TaskPriority? = nil
    ) where Elements.Element == Value {
        // Inlinable, so that the loop is specialized for the sequence in the caller:
        // unspecialized, generic-metadata lookups made an element cost 12 times as much
        // (benchmark B9: 334 ns against 28).
        self.init { input in
            let task = Task(priority: priority) { await input.sendElements(of: sequence) }
            return { task.cancel() }
        }
    }
}

extension SignalInput {
    /// Sends `sequence`'s elements, then how it ended, from the calling task, which keeps
    /// the signal's delivery turn meanwhile (see ``SignalStorage/holdTurnForSource()``):
    /// the input must have no other sender of values.
    @inlinable
    func sendElements<Elements: AsyncSequence>(of sequence: Elements) async where Elements.Element == Value {
        let holdsTurn = storage.holdTurnForSource()
        let end: Signal<Value>.Event
        do {
            for try await element in sequence {
                if holdsTurn { storage.deliverHoldingTurn(.value(element)) } else { storage.send(.value(element)) }
            }
            end = .completed
        } catch {
            end = isCancellation(error) ? .interrupted : .failed(error)
        }
        guard holdsTurn else { return storage.send(end) }
        storage.deliverHoldingTurn(end)
        storage.releaseTurn()
    }
}
