/// A `StaticString` kept in 10 bytes instead of 17, for the `#fileID` of a promise's
/// creation site (``PromiseOrigin``).
///
/// A static string's text lives in the program's constant data for the whole run, so
/// its address and length are enough to read it back.
@usableFromInline
struct CompactStaticString: Hashable, Sendable, CustomStringConvertible {
    /// The address of the UTF-8 text; for a string made from a single Unicode scalar
    /// (which has no text in memory), the scalar's value.
    @usableFromInline
    let bits: UInt
    /// The length of the text in bytes (longer texts are cut at 65,534 bytes), or
    /// ``scalarMarker``.
    @usableFromInline
    let count: UInt16

    @usableFromInline
    static var scalarMarker: UInt16 { .max }

    @inlinable
    init(_ string: StaticString) {
        if string.hasPointerRepresentation {
            bits = UInt(bitPattern: string.utf8Start)
            count = UInt16(min(string.utf8CodeUnitCount, Int(Self.scalarMarker) - 1))
        } else {
            bits = UInt(string.unicodeScalar.value)
            count = Self.scalarMarker
        }
    }

    /// The string, as `"\(staticString)"` would print it.
    @usableFromInline
    var description: String {
        if count == Self.scalarMarker {
            return Unicode.Scalar(UInt32(truncatingIfNeeded: bits)).map { String($0) } ?? ""
        }
        guard let start = UnsafeRawPointer(bitPattern: bits) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: start, count: Int(count)), as: UTF8.self)
    }
}
