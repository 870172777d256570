import FutureBridge
import FutureBridgeInternals

/// Operators that combine several signals into one.
extension Signal {
    /// The values of all `signals`, as they come. Completes once all have completed;
    /// the first failure or interruption ends it (and detaches from the others).
    ///
    /// - Parameter signals: The signals to merge.
    /// - Returns: A signal of every value.
    public static func merge(_ signals: [Signal]) -> Signal {
        guard !signals.isEmpty else {
            return Signal { input in
                input.sendCompleted()
                return {}
            }
        }
        return Signal { input in
            let remaining = Locked(signals.count)
            let observations = signals.map { signal in
                signal.observe { event in
                    switch event {
                    case .value:
                        input.send(event)
                    case .completed:
                        input.send(lockedBy: remaining) { remaining in
                            remaining -= 1
                            return remaining == 0 ? [.completed] : []
                        }
                    case .failed, .interrupted:
                        input.send(event)
                    }
                }
            }
            return { for observation in observations { observation.detach() } }
        }
    }

    /// The values of this signal and `others`, as they come; see ``merge(_:)``.
    public func merge(with others: Signal...) -> Signal {
        Signal.merge([self] + others)
    }

    /// Pairs of the latest values of `first` and `second`, sent whenever either sends a
    /// value, once both have sent one. Completes once both have completed; the first
    /// failure or interruption ends it.
    ///
    /// - Parameters:
    ///   - first: The first signal.
    ///   - second: The second signal.
    /// - Returns: A signal of pairs of latest values.
    public static func combineLatest<Second: Sendable>(
        _ first: Signal, _ second: Signal<Second>
    ) -> Signal<(Value, Second)> {
        Signal<(Value, Second)> { input in
            let latest = Locked(LatestPair<Value, Second>())
            @Sendable func update(_ change: (inout LatestPair<Value, Second>) -> Void) {
                input.send(lockedBy: latest) { latest in
                    change(&latest)
                    guard let first = latest.first, let second = latest.second else { return [] }
                    return [.value((first, second))]
                }
            }
            @Sendable func end<Ended>(_ event: Signal<Ended>.Event) {
                guard case .completed = event else { return input.send(event.retyped()) }
                input.send(lockedBy: latest) { latest in
                    latest.completed += 1
                    return latest.completed == 2 ? [.completed] : []
                }
            }
            let observations = [
                first.observe { event in
                    if case .value(let value) = event { update { $0.first = value } } else { end(event) }
                },
                second.observe { event in
                    if case .value(let value) = event { update { $0.second = value } } else { end(event) }
                },
            ]
            return { for observation in observations { observation.detach() } }
        }
    }
}

/// The latest values of the two signals of ``Signal/combineLatest(_:_:)``.
struct LatestPair<First: Sendable, Second: Sendable>: Sendable {
    var first: First?
    var second: Second?
    var completed = 0
}
