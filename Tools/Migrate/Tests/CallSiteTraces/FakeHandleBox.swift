import Foundation

/// A holder for a call's handle, as hand-written bridges keep one for
/// `withTaskCancellationHandler`'s `onCancel` (a lock makes it `Sendable`).
public final class FakeHandleBox: @unchecked Sendable {
    // @unchecked: `stored` is only read and written while `lock` is held.
    private let lock = NSLock()
    private var stored: FakeTask?

    public init() {}

    /// The handle; storing one tells the run's API (``FakeAPI/stored()``).
    public var task: FakeTask? {
        get { lock.withLock { stored } }
        set {
            lock.withLock { stored = newValue }
            FakeTesting.api?.handleStored()
        }
    }
}
