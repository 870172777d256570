// Invariants: the flag word is the object's first stored property, reached only
// atomically through its address; it goes from 0 to 1 once and never back, and the
// exchange that moves it is the only one that returns `true`.

import FutureBridgeAtomics

/// A flag that exactly one caller can claim.
@usableFromInline
package final class OnceFlag: Sendable {
    /// 0 until claimed, then 1. The first stored property, only ever reached through
    /// ``address`` (atomically), so that its address is stable; see `FutureBridgeAtomics`.
    @usableFromInline
    nonisolated(unsafe) var word: UInt32 = 0

    @inlinable
    package init() {}

    @inlinable @inline(__always)
    var address: UnsafeMutablePointer<UInt32> { firstStoredProperty(of: self) }

    /// `true` for the first caller only.
    @inlinable @inline(__always)
    package func claim() -> Bool {
        fb_u32_exchange_acq_rel(address, 1) == 0
    }

    @inlinable
    package var isClaimed: Bool {
        fb_u32_load_acquire(address) != 0
    }
}
