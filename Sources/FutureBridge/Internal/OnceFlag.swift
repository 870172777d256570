import Synchronization

/// A flag that exactly one caller can claim.
@usableFromInline
final class OnceFlag: Sendable {
    @usableFromInline
    let claimed = Atomic<Bool>(false)

    @inlinable
    init() {}

    /// `true` for the first caller only.
    @inlinable @inline(__always)
    func claim() -> Bool {
        !claimed.exchange(true, ordering: .acquiringAndReleasing)
    }

    @inlinable
    var isClaimed: Bool {
        claimed.load(ordering: .acquiring)
    }
}
