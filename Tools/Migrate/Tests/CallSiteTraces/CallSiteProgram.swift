/// A call-site rule's example as two programs: as written before the rewrite, and as the
/// tool rewrote it. Both run against the same ``FakeAPI`` and log to the same kind of
/// ``Trace``.
public struct CallSiteProgram: Sendable, CustomStringConvertible {
    public var name: String
    public var before: @Sendable (FakeAPI, Trace) async -> Void
    public var after: @Sendable (FakeAPI, Trace) async -> Void
    /// A caller of a shim, in synchronous code: its handler is called once, from the shim's
    /// task, after the program returns; the harness waits for it (``Trace/deliveries(_:)``).
    public var waitsForShim: Bool

    public init(
        name: String, before: @escaping @Sendable (FakeAPI, Trace) async -> Void,
        after: @escaping @Sendable (FakeAPI, Trace) async -> Void, waitsForShim: Bool = false
    ) {
        self.name = name
        self.before = before
        self.after = after
        self.waitsForShim = waitsForShim
    }

    public var description: String { name }
}
