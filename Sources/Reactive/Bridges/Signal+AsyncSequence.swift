import FutureBridge

extension Signal {
    /// The signal's values as an `AsyncSequence`, for `for try await` loops.
    ///
    /// The sequence attaches to the signal when it is created; values sent while the
    /// consumer is busy are buffered as `policy` says. Completion ends the loop; a
    /// failure throws the error; an interruption throws `CancellationError`. Cancelling
    /// the consuming task detaches from the signal, which stops its source if that was
    /// the last observer. A sequence that is made and never iterated stays attached
    /// until the signal ends: make it where you iterate it.
    ///
    /// ```swift
    /// func follow(_ readings: Signal<Double>) async throws {
    ///     for try await reading in readings.values(buffering: .newest(1)) { print(reading) }
    /// }
    /// ```
    ///
    /// - Parameter policy: What to keep while the consumer lags; unbounded by default.
    /// - Returns: A stream of the values.
    public func values(buffering policy: SignalBufferingPolicy = .unbounded) -> AsyncThrowingStream<Value, any Error> {
        let streamPolicy: AsyncThrowingStream<Value, any Error>.Continuation.BufferingPolicy =
            switch policy {
            case .unbounded: .unbounded
            case .newest(let count): .bufferingNewest(count)
            case .oldest(let count): .bufferingOldest(count)
            }
        return AsyncThrowingStream(bufferingPolicy: streamPolicy) { continuation in
            let observation = observe { event in
                switch event {
                case .value(let value): continuation.yield(value)
                case .completed: continuation.finish()
                case .failed(let error): continuation.finish(throwing: error)
                case .interrupted: continuation.finish(throwing: CancellationError())
                }
            }
            continuation.onTermination = { _ in observation.detach() }
        }
    }

    /// A signal of `sequence`'s elements, iterated by a `Task` that starts when the
    /// signal's first observer attaches and is cancelled when the signal ends (its last
    /// observer detached).
    ///
    /// The end of the sequence completes the signal; an error fails it, a cancellation
    /// error interrupts it.
    ///
    /// - Parameters:
    ///   - sequence: The elements.
    ///   - priority: The priority of the iterating task; inherited when `nil`.
    public convenience init<Elements: AsyncSequence & Sendable>(
        _ sequence: Elements, priority: TaskPriority? = nil
    ) where Elements.Element == Value {
        self.init { input in
            let task = Task(priority: priority) {
                do {
                    for try await element in sequence { input.send(element) }
                    input.sendCompleted()
                } catch {
                    if isCancellation(error) { input.sendInterrupted() } else { input.sendFailed(error) }
                }
            }
            return { task.cancel() }
        }
    }
}
