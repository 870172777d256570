extension Signal {
    /// One event of a signal.
    public enum Event: Sendable {
        /// A value.
        case value(Value)
        /// The signal ended normally.
        case completed
        /// The signal ended with an error.
        case failed(any Error)
        /// The signal was stopped before it could end by itself: its last observer
        /// detached, its input was released, or its source was cancelled.
        case interrupted

        /// Whether this event ends the signal.
        public var isTerminal: Bool {
            if case .value = self { false } else { true }
        }

        /// The value of a ``value(_:)`` event.
        public var value: Value? {
            if case .value(let value) = self { value } else { nil }
        }
    }
}
