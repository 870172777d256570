/// A signal drainer's copy of the observers, walked for every value without a lock and
/// without reference counting.
///
/// `observers` keeps the observers alive; `unretained` points at the same objects and is
/// what delivery reads, so handing an event to an observer costs no retain and release
/// (they were most of the cost of an event). Both are replaced together, only by the
/// drainer, and only between deliveries: delivery is never re-entered (a handler's own
/// send is queued), so nothing is freed while `deliver` walks the buffer.
// @unchecked Sendable: only the drainer of one signal touches it, and successive
// drainers are ordered by the acquire/release operations of the signal's `SerialDrain`.
@usableFromInline
final class DeliveryList<Value: Sendable>: @unchecked Sendable {
    /// The signal's `observersVersion` this copy was taken at; -1 for none.
    @usableFromInline @exclusivity(unchecked)
    var version = -1
    @usableFromInline @exclusivity(unchecked)
    var observers: [SignalObserver<Value>] = []
    @usableFromInline @exclusivity(unchecked)
    var unretained = UnsafeMutableBufferPointer<Unmanaged<SignalObserver<Value>>>(start: nil, count: 0)

    @inlinable
    init() {}

    deinit {
        unretained.deallocate()
    }

    /// Replaces the copy (rare: after an attach, a detach or the end).
    @usableFromInline
    func replace(with newObservers: [SignalObserver<Value>], version newVersion: Int) {
        let buffer = UnsafeMutableBufferPointer<Unmanaged<SignalObserver<Value>>>.allocate(
            capacity: newObservers.count)
        _ = buffer.initialize(from: newObservers.lazy.map { Unmanaged.passUnretained($0) })
        unretained.deallocate()
        unretained = buffer
        observers = newObservers
        version = newVersion
    }

    /// Hands `event` to every observer, in attachment order.
    @inlinable
    func deliver(_ event: Signal<Value>.Event) {
        for observer in unretained {
            observer._withUnsafeGuaranteedRef { $0.receive(event) }
        }
    }
}
