// Invariant: the caller's `Word` is the type of the object's first stored property (in its
// root class), and that property is never accessed as a Swift property while the address
// is in use: the library keeps atomic words and lock words there.

/// The address of `object`'s first stored property, which must be of type `Word` and
/// declared first (in a base class, if any): the start of the object's stored properties,
/// stable for the object's lifetime. The library keeps its atomic words there and reaches
/// them only through this address, never as Swift properties, so no access ever goes
/// through a temporary copy.
@inlinable @inline(__always)
package func firstStoredProperty<Word>(of object: AnyObject, as _: Word.Type = Word.self) -> UnsafeMutablePointer<Word>
{
    _getUnsafePointerToStoredProperties(object).assumingMemoryBound(to: Word.self)
}
