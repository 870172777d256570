/// How many values ``Signal/values(buffering:)`` keeps for a consumer that is slower
/// than the signal.
public enum SignalBufferingPolicy: Sendable, Equatable {
    /// Keeps every value (memory grows while the consumer lags).
    case unbounded
    /// Keeps the newest `count` values, dropping older ones.
    case newest(Int)
    /// Keeps the oldest `count` values, dropping newer ones until there is room.
    case oldest(Int)
}
