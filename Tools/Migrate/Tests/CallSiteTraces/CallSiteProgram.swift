/// A call-site rule's example as two programs: as written before the rewrite, and as the
/// tool rewrote it. Both run against the same ``FakeAPI`` and log to the same kind of
/// ``Trace``.
public struct CallSiteProgram: Sendable, CustomStringConvertible {
    public var name: String
    public var before: @Sendable (FakeAPI, Trace) async -> Void
    public var after: @Sendable (FakeAPI, Trace) async -> Void

    public init(
        name: String, before: @escaping @Sendable (FakeAPI, Trace) async -> Void,
        after: @escaping @Sendable (FakeAPI, Trace) async -> Void
    ) {
        self.name = name
        self.before = before
        self.after = after
    }

    public var description: String { name }
}
