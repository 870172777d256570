import Dispatch
import Foundation
import FutureBridgeInternals

/// Where a closure given to FutureBridge runs.
///
/// Every API that runs your code takes an `on:` parameter of this type. The default
/// everywhere is ``inline``: the closure runs on the thread that completes the future
/// (or, if it is already completed, on the thread that registers the closure), unless
/// the future was seen through ``Future/hop(to:)``. The
/// default is never the main queue, which only runs when something drives it (a UI
/// run loop, `dispatchMain()`), and most Linux programs and servers have no such thing.
///
/// <!-- fragment: app -->
/// ```swift
/// let database = DispatchQueue(label: "database")
/// let image = fetch(url).map(on: .queue(database)) { response in try decode(response.body) }
/// image.onSuccess(on: .main) { image in view.show(image) }       // a @MainActor closure
/// image.onSuccess(on: .custom(eventLoop.execute)) { _ in }       // anything with execute
/// ```
///
/// ## Inline callbacks do not nest
/// A closure run ``inline`` that completes another promise does not run that promise's
/// inline callbacks from inside itself: they run on the same thread right after it
/// returns. Long chains therefore never grow the stack.
public struct ExecutionContext: Sendable {
    /// The signature of a function that runs a job (for example `EventLoop.execute`).
    public typealias Execute = @Sendable (@escaping @Sendable () -> Void) -> Void

    @usableFromInline
    enum Kind: Sendable {
        case inline
        case mainImmediate
        case queue(DispatchQueue)
        case operationQueue(OperationQueue)
        case custom(CustomExecutor)
    }

    /// A ``custom(_:)`` context's function, boxed in one word, so that a context takes one
    /// word and a ``Future`` (its storage and its default context) two. Creating a
    /// `.custom` context allocates this box once; keep a context you use often.
    @usableFromInline
    final class CustomExecutor: Sendable {
        /// The function given to ``ExecutionContext/custom(_:)``, called once per job.
        @usableFromInline
        let execute: Execute

        init(_ execute: @escaping Execute) {
            self.execute = execute
        }
    }

    @usableFromInline
    let kind: Kind

    @inlinable
    init(kind: Kind) {
        self.kind = kind
    }

    /// Runs closures on the thread that completes the future, or right away on the
    /// registering thread when the future is already completed. The fastest choice; the
    /// closure must be short and must not block.
    ///
    /// On a future seen through ``Future/hop(to:)``, and the futures derived from it,
    /// `.inline` (the default everywhere) stands for that view's executor instead.
    // Computed and inlinable, not a stored `static let`: every handler's default argument
    // would otherwise go through the lazy global's once-check and copy its value (B1).
    @inlinable
    public static var inline: ExecutionContext { ExecutionContext(kind: .inline) }

    /// Runs closures asynchronously on `DispatchQueue.main`. Only use it in programs
    /// that drive the main queue (apps, or `dispatchMain()`).
    public static var main: ExecutionContext { ExecutionContext(kind: .queue(.main)) }

    /// Runs closures at once when the completion already runs on the main queue (on
    /// Darwin: the main thread), otherwise asynchronously on `DispatchQueue.main`
    /// (ReactiveSwift's `UIScheduler`, RxSwift's `MainScheduler`).
    ///
    /// It gives up one ordering guarantee of ``main``: a closure run at once overtakes
    /// jobs already queued on the main queue (including other FutureBridge closures
    /// queued with ``main``), so two handlers registered with `.main` and `.mainImmediate`
    /// may run in either order. Handlers registered with `.mainImmediate` on one future
    /// still run in the order they were registered. Like ``main``, it needs a program
    /// that drives the main queue whenever the completion comes from another thread.
    public static var mainImmediate: ExecutionContext { ExecutionContext(kind: .mainImmediate) }

    /// Runs closures asynchronously on `queue`.
    ///
    /// - Parameter queue: A serial or concurrent dispatch queue.
    public static func queue(_ queue: DispatchQueue) -> ExecutionContext {
        ExecutionContext(kind: .queue(queue))
    }

    /// Runs closures asynchronously on the global concurrent queue of `qos`.
    ///
    /// - Parameter qos: The quality of service of the global queue.
    public static func global(qos: DispatchQoS.QoSClass = .default) -> ExecutionContext {
        ExecutionContext(kind: .queue(.global(qos: qos)))
    }

    /// Runs closures as operations added to `queue`.
    ///
    /// - Parameter queue: The operation queue, which also bounds their concurrency.
    public static func operationQueue(_ queue: OperationQueue) -> ExecutionContext {
        ExecutionContext(kind: .operationQueue(queue))
    }

    /// Runs closures through `execute`: wraps anything that has an execute function,
    /// such as a SwiftNIO event loop (`.custom(loop.execute)`) or a test's manual
    /// executor.
    ///
    /// - Important: An executor that drops jobs (one released, shut down or never
    ///   drained, such as a manual executor nobody runs) silently drops the handlers and
    ///   transforms given to it: a future derived on it never completes, and a task
    ///   awaiting that future waits forever, unless it is cancelled. Nothing reports it.
    ///   Cancel those awaiters, or complete the work on an executor that runs.
    ///
    /// - Parameter execute: Called once per job; it must run the job exactly once.
    public static func custom(_ execute: @escaping Execute) -> ExecutionContext {
        ExecutionContext(kind: .custom(CustomExecutor(execute)))
    }

    /// Runs `job` in this context.
    ///
    /// - Parameter job: The work to run.
    @inlinable
    public func execute(_ job: @escaping @Sendable () -> Void) {
        switch kind {
        case .inline: job()
        case .mainImmediate: MainQueue.runNowOrQueue(job)
        case .queue(let queue): queue.async(execute: job)
        case .operationQueue(let queue): queue.addOperation(job)
        case .custom(let custom): custom.execute(job)
        }
    }

    /// Whether this is ``inline``.
    @inlinable
    public var isInline: Bool {
        if case .inline = kind { true } else { false }
    }

    /// Runs `body(argument)` in this context: a direct call for ``inline`` (no job
    /// closure is allocated), a job otherwise.
    @inlinable @inline(__always)
    func run<Argument: Sendable>(_ body: @escaping @Sendable (Argument) -> Void, with argument: Argument) {
        if case .inline = kind {
            body(argument)
        } else {
            execute { body(argument) }
        }
    }

    /// `callback` wrapped so that it runs in this context (unchanged for ``inline``).
    @inlinable @inline(__always)
    func wrapping<Argument: Sendable>(
        _ callback: @escaping @Sendable (Argument) -> Void
    ) -> @Sendable (Argument) -> Void {
        if case .inline = kind { return callback }
        return { argument in self.execute { callback(argument) } }
    }
}
