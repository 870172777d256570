// Moving a small plain value into and out of `StoredOutcome.InlineBytes` as raw bytes.
//
// Invariant: used only where `StoredOutcome<Value>.isInline` holds, so `Value` is plain
// (no references: copying its bytes copies it, nothing to retain or release), at most 16
// bytes and aligned to at most 8, and the 16-byte, 8-aligned `InlineBytes` holds it
// whole. The pointers never leave the closures below and every access stays inside
// `bytes`. That is why these use the `_withUnprotected...` forms of `withUnsafeBytes`:
// the same calls without a stack protector, whose canary check the plain forms put into
// every completion of a future (measured: B1 744 -> 740, B3 802 -> 796 instructions).
extension StoredOutcome.InlineBytes {
    /// The bytes of `value`, which must be an inline value (see the invariant above).
    @inlinable @inline(__always)
    init(storing value: Value) {
        self.init()
        _withUnprotectedUnsafeMutableBytes(of: &self) { $0.storeBytes(of: value, as: Value.self) }
    }

    /// The value stored by ``init(storing:)``.
    @inlinable @inline(__always)
    func load() -> Value {
        _withUnprotectedUnsafeBytes(of: self) { $0.load(as: Value.self) }
    }
}
