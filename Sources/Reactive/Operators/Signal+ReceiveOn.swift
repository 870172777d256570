import FutureBridge

/// Moving delivery to another executor.
extension Signal {
    /// The same events, delivered to observers on `context`, one at a time and in order
    /// even on a concurrent queue.
    ///
    /// - Parameter context: Where the events are delivered from now on.
    /// - Returns: A signal whose inline observers run on `context`.
    public func receive(on context: ExecutionContext) -> Signal {
        lift(observingOn: context) { input in { event in input.send(event) } }
    }
}
