/// The failure of ``Signal/first()`` or ``Signal/last()`` for a signal that completed
/// without sending a value.
public struct EmptySignalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Creates the error.
    public init() {}

    /// Says what happened.
    public var description: String { "the signal completed without sending a value" }
}
