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

extension LockedObject {
    /// The address of a field of the object's ``LockWord`` at `offset` bytes from its
    /// start (the lock word itself is at 0).
    @inlinable @inline(__always)
    func lockWordField<Field>(at offset: Int, as _: Field.Type = Field.self) -> UnsafeMutablePointer<Field> {
        (UnsafeMutableRawPointer(firstStoredProperty(of: self, as: LockWord.self)) + offset)
            .assumingMemoryBound(to: Field.self)
    }
}
