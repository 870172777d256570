import Synchronization

/// A flag that exactly one caller can claim.
@usableFromInline
package final class OnceFlag: Sendable {
    @usableFromInline
    let claimed = Atomic<Bool>(false)

    @inlinable
    package init() {}

    /// `true` for the first caller only.
    @inlinable @inline(__always)
    package func claim() -> Bool {
        !claimed.exchange(true, ordering: .acquiringAndReleasing)
    }

    @inlinable
    package var isClaimed: Bool {
        claimed.load(ordering: .acquiring)
    }
}
