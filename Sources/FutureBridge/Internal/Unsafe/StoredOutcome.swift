/// An outcome as a completed future keeps it, laid out independently of `Value`.
///
/// Why: a future's box is released by its `deinit`, which is generic code (never
/// specialized). Destroying a field whose layout depends on `Value` (`Outcome<Value>`)
/// there costs a lookup of that type's generic metadata, a hash-table search that was a
/// quarter of creating, completing and releasing a future. With this layout the box's
/// fields are destroyed directly.
///
/// A small plain value (no references, at most 16 bytes, aligned to at most 8: `Int`,
/// `Double`, `Bool`, `Void`, small structs and enums of those) is kept inline as raw
/// bytes; any other value is kept in a ``ValueBox`` (one allocation), whose own `deinit`
/// destroys it with `Value`'s metadata, which every generic instance carries.
@usableFromInline
enum StoredOutcome<Value: Sendable> {
    case inlineSuccess(InlineBytes)
    case boxedSuccess(ValueBox<Value>)
    case failure(any Error)
    case cancelled

    /// 16 raw bytes, 8-aligned; filled and read in
    /// `Internal/Unsafe/StoredOutcome+InlineBytes.swift`.
    @usableFromInline
    struct InlineBytes {
        @usableFromInline var low: UInt64 = 0
        @usableFromInline var high: UInt64 = 0

        @inlinable init() {}
    }

    /// Whether `Value` is kept inline. A pure function of `Value`'s layout, so that
    /// specialized and unspecialized code always agree (it is a constant in the first).
    @inlinable
    static var isInline: Bool {
        _isPOD(Value.self) && MemoryLayout<Value>.size <= MemoryLayout<InlineBytes>.size
            && MemoryLayout<Value>.alignment <= MemoryLayout<InlineBytes>.alignment
    }

    @inlinable
    init(_ outcome: Outcome<Value>) {
        switch outcome {
        case .success(let value):
            if Self.isInline {
                self = .inlineSuccess(InlineBytes(storing: value))
            } else {
                self = .boxedSuccess(ValueBox(value))
            }
        case .failure(let error): self = .failure(error)
        case .cancelled: self = .cancelled
        }
    }

    @inlinable
    var outcome: Outcome<Value> {
        switch self {
        case .inlineSuccess(let bytes): .success(bytes.load())
        case .boxedSuccess(let box): .success(box.value)
        case .failure(let error): .failure(error)
        case .cancelled: .cancelled
        }
    }
}

/// A success value that is not kept inline by ``StoredOutcome``.
@usableFromInline
final class ValueBox<Value: Sendable>: Sendable {
    @usableFromInline
    let value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}
