import FutureBridge
import FutureBridgeAtomics
import FutureBridgeInternals

/// The drainer's copy of a signal's observers, walked for every value without a lock and
/// without reference counting, and the observers' version it was taken at.
///
/// ## Invariant
///
/// - Only the signal's drainer (see ``DeliveryTurn``) calls ``deliver(_:)``,
///   ``deliverCallingSoleObserverDirectly(_:)``, ``isStale`` and
///   ``replace(with:version:)`` and ``clear(_:version:)``, and never two of them at once: the drainer is one thread
///   at a time, and successive drainers are ordered by the acquire-release operations of
///   the turn.
/// - `observers` keeps the observers alive; `unretained` points at the same objects and
///   is what ``deliver(_:)`` reads, so handing an event to an observer costs no retain and
///   release; `sole` is the same unretained reference when there is exactly one observer,
///   `nil` otherwise. All three are replaced together, only between deliveries: a delivery
///   is never re-entered (a handler's own send finds the turn taken and is queued, or nests
///   into *another* signal's list), so nothing is freed while ``deliver(_:)`` walks the
///   buffer. ``clear(_:version:)`` changes `observers` and `unretained` in place, also
///   only between deliveries, and at each position both together: a detached observer's
///   place then holds `placeholder` (kept alive by `observers` and by `placeholder`), so
///   `unretained` never points at a released object.
/// - `publishedVersion` is the one word written by others: the storage stores the state
///   machine's observers version there with release ordering, under the signal's lock,
///   after every change of the observers; the drainer reads it with acquire ordering. A
///   stale copy is harmless: an attach that races a send may miss it either way, and a
///   detached observer ignores what it is handed.
// @unchecked Sendable: see the invariant above; `publishedVersion` is only reached
// atomically, the rest only by the drainer.
@usableFromInline
final class DeliveryList<Value: Sendable>: @unchecked Sendable {
    /// The first stored property, only ever reached atomically through
    /// ``publishedVersionAddress``.
    @usableFromInline
    var publishedVersion = 0
    /// The version this copy was taken at; -1 for none.
    @usableFromInline @exclusivity(unchecked)
    var version = -1
    @usableFromInline @exclusivity(unchecked)
    var observers: [SignalObserver<Value>] = []
    @usableFromInline @exclusivity(unchecked)
    var unretained = UnsafeMutableBufferPointer<Unmanaged<SignalObserver<Value>>>(start: nil, count: 0)
    /// The observer, when there is exactly one.
    @usableFromInline @exclusivity(unchecked)
    var sole: Unmanaged<SignalObserver<Value>>?
    /// What fills the place of a detached observer (``clear(_:version:)``): an observer
    /// detached from the start, which ignores what it is handed; made on the first clear.
    @usableFromInline @exclusivity(unchecked)
    var placeholder: SignalObserver<Value>?

    @inlinable
    init() {}

    deinit {
        unretained.deallocate()
    }

    @inlinable @inline(__always)
    var publishedVersionAddress: UnsafeMutablePointer<Int> { firstStoredProperty(of: self) }

    /// Publishes the observers' new version; called under the signal's lock.
    @inlinable @inline(__always)
    func publish(version newVersion: Int) {
        fb_int_store_release(publishedVersionAddress, newVersion)
    }

    /// Whether the observers changed since this copy was taken (drainer only).
    @inlinable @inline(__always)
    var isStale: Bool {
        version != fb_int_load_acquire(publishedVersionAddress)
    }

    /// Replaces the copy (drainer only; rare: after an attach, a detach or the end).
    @usableFromInline
    func replace(with newObservers: [SignalObserver<Value>], version newVersion: Int) {
        let buffer = UnsafeMutableBufferPointer<Unmanaged<SignalObserver<Value>>>.allocate(
            capacity: newObservers.count)
        _ = buffer.initialize(from: newObservers.lazy.map { Unmanaged.passUnretained($0) })
        unretained.deallocate()
        unretained = buffer
        sole = newObservers.count == 1 ? Unmanaged.passUnretained(newObservers[0]) : nil
        observers = newObservers
        version = newVersion
    }

    /// Clears the places of observers detached since the copy was taken (drainer only;
    /// after a detach): each is filled with ``placeholder``, so that the walk in
    /// ``deliver(_:)`` stays as it is, and the detached observer is released here. O(1)
    /// per position, where ``replace(with:version:)`` copies every observer.
    @usableFromInline
    func clear(_ positions: [Int], version newVersion: Int) {
        if !positions.isEmpty {
            let placeholder = self.placeholder ?? makePlaceholder()
            for position in positions {
                precondition(position < unretained.count, "Signal: a detached observer's place is outside the copy")
                unretained[position] = Unmanaged.passUnretained(placeholder)
                observers[position] = placeholder
            }
            sole = nil
        }
        version = newVersion
    }

    private func makePlaceholder() -> SignalObserver<Value> {
        let placeholder = SignalObserver<Value>(context: .inline) { _ in }
        placeholder.detach()
        self.placeholder = placeholder
        return placeholder
    }

    /// Hands `event` to every observer, in attachment order (drainer only).
    ///
    /// Without the buffer's iterator: a buffer with observers always has an address
    /// (``replace(with:version:)`` allocates it), so the walk checks the count only
    /// (B9 -4 instructions per element, B6 -9, B10 -4). Calling the first observer before
    /// the loop saved B9 4 more but cost B6 6 and B10 12.
    @inlinable @inline(__always)
    func deliver(_ event: Signal<Value>.Event) {
        let count = unretained.count
        guard count > 0 else { return }
        let observers = unretained.baseAddress.unsafelyUnwrapped
        var index = 0
        repeat {
            observers[index]._withUnsafeGuaranteedRef { $0.receive(event) }
            index &+= 1
        } while index < count
    }

    /// ``deliver(_:)`` that calls a sole observer without the loop (drainer only): for a
    /// source's task, whose loop holds little else (B9 -10 instructions per element). In
    /// the senders' path the extra check cost more than the loop saved (B10 +8).
    @inlinable @inline(__always)
    func deliverCallingSoleObserverDirectly(_ event: Signal<Value>.Event) {
        guard let sole else { return deliver(event) }
        sole._withUnsafeGuaranteedRef { $0.receive(event) }
    }
}
