import FutureBridge

/// Bridges between signals and futures: a future as a signal of one value, and a
/// signal's first value, last value or all values as a future.
extension Signal {
    /// A signal of `future`'s one value, then completed; a failure fails it and a
    /// cancellation interrupts it.
    ///
    /// The future is observed once the signal's first observer attaches; if the signal
    /// ends before the future completes (its last observer detached), the future gets a
    /// cancel request (withdrawing the interest the signal held in it).
    ///
    /// - Parameter future: The future.
    public convenience init(_ future: Future<Value>) {
        self.init { input in
            let interest = future.cancellationToken()
            future.onComplete { outcome in
                switch outcome {
                case .success(let value):
                    input.send(value)
                    input.sendCompleted()
                case .failure(let error): input.sendFailed(error)
                case .cancelled: input.sendInterrupted()
                }
            }
            return { interest.cancel() }
        }
    }

    /// A future of the first value; the signal is then detached.
    ///
    /// Completed without a value, the future fails with ``EmptySignalError``; failed, it
    /// fails with the error; interrupted, it is cancelled. A cancel request on the
    /// future detaches from the signal (which stops its source if it was the last
    /// observer) and cancels the future.
    ///
    /// - Returns: A future of the first value.
    public func first() -> Future<Value> {
        reduceToFuture(()) { _, value in
            .finish(value)
        } finish: { _ in
            nil
        }
    }

    /// A future of the last value, once the signal completes; see ``first()`` for the
    /// other endings and cancellation.
    ///
    /// - Returns: A future of the last value.
    public func last() -> Future<Value> {
        reduceToFuture(Value?.none) { last, value in
            last = value
            return .next
        } finish: {
            $0
        }
    }

    /// A future of every value, in order, once the signal completes (`[]` if there was
    /// none); see ``first()`` for the other endings and cancellation.
    ///
    /// - Returns: A future of all the values.
    public func collect() -> Future<[Value]> {
        reduceToFuture([Value]()) { values, value in
            values.append(value)
            return .next
        } finish: {
            $0
        }
    }

    /// Observes the signal into a future: `onValue` folds each value into `state` and may
    /// finish early; `finish` turns the state into the result at completion (`nil`:
    /// fails with ``EmptySignalError``).
    private func reduceToFuture<State, Result: Sendable>(
        _ initial: State,
        onValue: @escaping @Sendable (inout State, Value) -> Step<Result>,
        finish: @escaping @Sendable (State) -> Result?
    ) -> Future<Result> {
        let promise = Promise<Result>()
        let state = SerialState(initial)
        let observation = observe { event in
            switch event {
            case .value(let value):
                if case .finish(let result) = onValue(&state.value, value) { promise.succeed(result) }
            case .completed:
                if let result = finish(state.value) {
                    promise.succeed(result)
                } else {
                    promise.fail(EmptySignalError())
                }
            case .failed(let error):
                promise.fail(error)
            case .interrupted:
                promise.cancel()
            }
        }
        promise.cancelOnRequest(observation.detach)
        return promise.future.always { observation.detach() }
    }
}

/// What ``Signal`` does after folding a value into a future's result.
private enum Step<Result> {
    case next
    case finish(Result)
}
