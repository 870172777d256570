/// How ``Signal/mapFuture(_:onFailure:_:)`` runs the futures it makes.
public enum MapFutureStrategy: Sendable, Equatable {
    /// One future at a time: a value's future starts once the previous one has
    /// completed, so results come in the order of the values.
    case concat
    /// Futures run at once, at most `maxConcurrent` at a time (the others wait in order);
    /// results come as the futures complete.
    case merge(maxConcurrent: Int = .max)
    /// Only the latest value's future matters: a new value sends a cancel request to the
    /// future in flight and drops its result. The request counts like any consumer's
    /// (see ``Signal/mapFuture(_:onFailure:_:)``): when the new value's future is the one in
    /// flight (a memoized search, a `FutureCache` entry), it is not cancelled.
    case latest
}

/// What a failed inner future of ``Signal/mapFuture(_:onFailure:_:)`` does.
public enum InnerFailurePolicy: Sendable, Equatable {
    /// The signal fails with the error; the other futures in flight get cancel requests.
    case failSignal
    /// The failure is skipped; the signal goes on.
    case skip
}
