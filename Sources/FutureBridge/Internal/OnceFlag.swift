import Synchronization

/// A flag that exactly one caller can claim.
final class OnceFlag: Sendable {
    private let claimed = Atomic<Bool>(false)

    init() {}

    /// `true` for the first caller only.
    @inline(__always)
    func claim() -> Bool {
        !claimed.exchange(true, ordering: .acquiringAndReleasing)
    }

    var isClaimed: Bool {
        claimed.load(ordering: .acquiring)
    }
}
