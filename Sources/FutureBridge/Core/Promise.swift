import Dispatch
import FutureBridgeAtomics
import FutureBridgeInternals

/// The write side of a ``Future``: the producer completes it, exactly once.
///
/// Create a promise, hand its ``future`` to consumers, and complete it when the work
/// is done. The first completion wins; every later attempt returns `false` and changes
/// nothing. Completing runs the future's ``ExecutionContext/inline`` callbacks on the
/// completing thread (after the lock is released, and never nested inside another
/// inline callback) and dispatches the others to their executors.
///
/// <!-- fragment: legacy -->
/// ```swift
/// struct UnknownError: Error {}
///
/// func loadUser(id: Int) -> Future<User> {
///     let promise = Promise<User>()
///     legacy.fetchUser(id: id) { user, error in
///         if let user { promise.succeed(user) } else { promise.fail(error ?? UnknownError()) }
///     }
///     return promise.future
/// }
/// ```
///
/// ## Cancellation
/// Consumers do not cancel a promise; they *request* cancellation of its future. The
/// request arrives at ``onCancellationRequest(isolation:_:)``, where the producer decides: stop
/// the work and complete as cancelled (now or later), or keep going. Without a handler the
/// producer keeps going.
///
/// ## Abandonment
/// If the last reference to a pending promise goes away (for example, a callback API
/// released its completion handler without calling it), the future fails with
/// ``AbandonedPromiseError``, naming the `#fileID:#line` where the promise was created,
/// and ``Diagnostics`` reports it. Awaiting tasks resume; nothing hangs or leaks.
///
/// A promise released after a cancel request reached it, when nothing waits for its
/// future any more (every awaiting task and token withdrew, and no handler, derived
/// future or blocked `wait` remains), is not misuse: going away is how its producer
/// honoured the request. The future completes as cancelled and nothing is reported.
public final class Promise<Value: Sendable>: Sendable {
    /// The promise's only field, so that the object is 24 bytes (a 32-byte allocation): M1
    /// in the Benchmarks package counts every byte a pending future keeps. The creation
    /// site and the flags live in ``promiseWord``.
    @usableFromInline
    let storage: FutureStorage<Value>

    /// Creates a pending promise.
    ///
    /// - Parameters:
    ///   - fileID: Where the promise is created; named in ``AbandonedPromiseError``.
    ///   - line: The line where the promise is created.
    @inlinable
    public init(fileID: StaticString = #fileID, line: UInt = #line) {
        self.storage = .pending()
        fb_u32_store_relaxed(promiseWord, PromiseOrigins.number(fileID: fileID, line: line) << Self.originShift)
    }

    /// The promise's word, in its future's storage next to the lock word (in what would be
    /// padding): bit 0 is set once this promise completed (or bound) its future, so that
    /// `deinit` can skip the lock; bit 1 by the first call of a completion-handler adapter
    /// (``resolve(_:)`` and the like), so that a second call is reported as misuse; the bits
    /// from ``originShift`` up number the creation site (``PromiseOrigins``), set before the
    /// promise is shared. Reached only atomically; relaxed is enough for bit 0, because
    /// `deinit` runs after every other reference is gone.
    ///
    /// In the storage, not in the promise: an atomic on the promise's own memory takes its
    /// address, which keeps the optimizer from removing a promise that never escapes.
    @inlinable @inline(__always)
    var promiseWord: UnsafeMutablePointer<UInt32> { Self.promiseWord(of: storage) }

    /// ``promiseWord`` of the promise of `storage`: for the code that has the storage and
    /// not the promise (``FutureStorage/abandonPromise()``, run from `deinit`).
    @inlinable @inline(__always)
    static func promiseWord(of storage: FutureStorage<Value>) -> UnsafeMutablePointer<UInt32> {
        storage.box.holderBitsAddress
    }

    @inlinable @inline(__always)
    static var settledBit: UInt32 { 1 }
    @inlinable @inline(__always)
    static var adapterCalledBit: UInt32 { 2 }
    @inlinable @inline(__always)
    static var originShift: UInt32 { 2 }

    /// Where the promise was created, as reports name it.
    var origin: (fileID: String, line: Int) { Self.origin(of: storage) }

    /// Where the promise of `storage` was created, as reports name it.
    static func origin(of storage: FutureStorage<Value>) -> (fileID: String, line: Int) {
        PromiseOrigins.location(numbered: fb_u32_load_relaxed(promiseWord(of: storage)) >> originShift)
    }

    /// Inlinable so that the optimizer sees that it lets nothing escape: a promise that
    /// never escapes its function (created, completed and observed there) is then not
    /// allocated at all, and its release is this check (B1 in the Benchmarks package).
    /// `self` must not escape here either, which is why ``FutureStorage/abandonPromise()``
    /// takes the storage: a deinit that passes `self` on makes the optimizer keep the
    /// object (on the stack) and mark it as deallocating first, a runtime call.
    @inlinable
    deinit {
        if fb_u32_load_relaxed(promiseWord) & Self.settledBit == 0 { storage.abandonPromise() }
    }

    /// The read side, to hand to consumers. Every call returns a view of the same future.
    @inlinable
    public var future: Future<Value> { Future(storage: storage) }

    /// Completes the future with `outcome` (for a `Result`, pass `Outcome(result)`); a
    /// failure whose error is a cancellation (``isCancellation(_:)``) completes it as
    /// cancelled.
    ///
    /// Inline callbacks run on this thread before this returns, unless this thread is
    /// already running callbacks, in which case they run right after.
    ///
    /// - Parameter outcome: How the work ended.
    /// - Returns: `true` if this call completed the future, `false` if it was already
    ///   completed (or follows another future) and nothing changed.
    @discardableResult
    @inlinable
    public func complete(with outcome: Outcome<Value>) -> Bool {
        // Marked first: when this call loses, the future is completed or follows another
        // future, and the mark is as true. The promise is then last used before the
        // completion, which lets a promise that never escapes be released without the
        // runtime.
        fb_u32_fetch_or_relaxed(promiseWord, Self.settledBit)
        return storage.complete(outcome)
    }

    /// Completes the future with `value`.
    ///
    /// - Returns: `true` if this call completed the future.
    @discardableResult
    @inlinable
    public func succeed(_ value: Value) -> Bool {
        fb_u32_fetch_or_relaxed(promiseWord, Self.settledBit)  // first, as in `complete(with:)`
        return storage.succeed(value)
    }

    /// Fails the future with `error` (or cancels it, if `error` is a cancellation).
    ///
    /// - Returns: `true` if this call completed the future.
    @discardableResult
    @inlinable
    public func fail(_ error: any Error) -> Bool {
        complete(with: .failure(error))
    }

    /// Completes the future as cancelled. Failure handlers do not run; cancel handlers
    /// do; awaiting tasks get `CancellationError`.
    ///
    /// - Returns: `true` if this call completed the future.
    @discardableResult
    @inlinable
    public func cancel() -> Bool {
        complete(with: .cancelled)
    }

    /// Makes the future follow `other` (FutureKit's `completeUsing`): it completes with
    /// `other`'s outcome, and cancel requests on it travel on to `other`.
    ///
    /// From then on only `other` completes the future: later calls of ``succeed(_:)``,
    /// ``fail(_:)`` and the like return `false`.
    ///
    /// - Parameter other: The future whose outcome to take, or anything that presents
    ///   itself as one (``FutureConvertible``; its `future` is read once).
    /// - Returns: `false` if the future was already completed or already follows
    ///   another future.
    @discardableResult
    public func complete(using other: some FutureConvertible<Value>) -> Bool {
        guard storage.complete(using: other.future.storage) else { return false }
        fb_u32_fetch_or_relaxed(promiseWord, Self.settledBit)
        return true
    }

    /// Registers what to do when a consumer requests cancellation.
    ///
    /// The handler runs at most once, never under a lock, in the isolation of the code
    /// that registers it: registered from non-isolated code, on the thread that made the
    /// request (a `cancel()` call, a cancelled `Task`); registered from the main actor
    /// (or another actor), on that actor: at once if the request is made there, else in
    /// a task on it. If a request already arrived, it runs now. If the future completes
    /// first, it never runs and is released. Handlers that run on the requesting thread
    /// (or at once on the main actor) run in the order they were registered; a handler
    /// that hops to an actor runs in a task of its own, in no guaranteed order.
    ///
    /// The handler receives this promise: use the parameter rather than capturing the
    /// promise, so the handler does not keep the promise alive by itself (a promise
    /// that nothing else references must still be detected as abandoned).
    ///
    /// ```swift
    /// let promise = Promise<Data>()
    /// let url = URL(string: "https://example.com")!
    /// let task = URLSession.shared.dataTask(with: url) { data, _, error in promise.resolve(data, error) }
    /// promise.onCancellationRequest { _ in task.cancel() }   // the callback then reports cancellation
    /// task.resume()
    /// ```
    ///
    /// - Parameters:
    ///   - isolation: Where the handler runs; the caller's isolation by default.
    ///   - handler: Decides what to do: stop the work and complete the promise as
    ///     cancelled (now or later), or ignore the request and keep going.
    @inlinable
    public func onCancellationRequest(
        isolation: isolated (any Actor)? = #isolation,
        _ handler: sending @escaping (Promise<Value>) -> Void
    ) {
        runOnCancelRequest(IsolatedCall(isolation: isolation, handler))
    }

    /// Runs `call` with this promise when a request arrives (without keeping the promise
    /// alive: an abandoned promise must still be detected).
    ///
    /// Inlinable, as the two functions that call it, so that registering is specialized
    /// for `Value` in the caller (B11 in the Benchmarks package).
    @inlinable
    func runOnCancelRequest(_ call: IsolatedCall<Promise<Value>>) {
        storage.addCancelHandler { [weak self] in
            guard let self else { return }
            call.run(self)
        }
    }

    /// Connects cancel requests to the underlying operation's own cancellation, in one
    /// line: on a request, calls `cancel` and completes the future as cancelled.
    ///
    /// Pass the operation's cancel function: a `URLSessionTask`, a `DispatchWorkItem`, a
    /// `Task`, a `DispatchSource`, anything with a `cancel()`, or a main-actor method such
    /// as a view model's own `cancel`. A completion the operation reports afterwards
    /// (typically its own cancellation error) finds the future completed and is ignored
    /// without a report.
    ///
    /// ```swift
    /// let promise = Promise<(Data?, URLResponse?)>()
    /// let url = URL(string: "https://example.com")!
    /// let task = URLSession.shared.dataTask(with: url, completionHandler: promise.resolve)
    /// promise.cancelOnRequest(task.cancel)
    /// task.resume()
    /// ```
    ///
    /// `cancel` runs at most once, never under a lock, in the caller's isolation (see
    /// ``onCancellationRequest(isolation:_:)``): from non-isolated code on the thread that made
    /// the request, from the main actor on the main actor. It does not run if the future
    /// completes first, and it does not keep the promise alive.
    ///
    /// - Parameters:
    ///   - isolation: Where `cancel` runs; the caller's isolation by default.
    ///   - cancel: Stops the underlying work.
    @inlinable
    public func cancelOnRequest(
        isolation: isolated (any Actor)? = #isolation,
        _ cancel: sending @escaping () -> Void
    ) {
        runOnCancelRequest(
            IsolatedCall(isolation: isolation) { promise in
                cancel()
                promise.cancel()
            })
    }

    /// Connects cancel requests to a `DispatchWorkItem`: on a request, cancels the item
    /// (if it has not started, it never runs) and completes the future as cancelled, on
    /// the thread that made the request. Otherwise as
    /// ``cancelOnRequest(isolation:_:)``.
    ///
    /// - Parameter workItem: The work item that will complete the promise.
    public func cancelOnRequest(_ workItem: DispatchWorkItem) {
        // `DispatchWorkItem.cancel()` may be called from any thread (it is
        // `dispatch_block_cancel`); only the Linux overlay lacks the `Sendable` mark.
        nonisolated(unsafe) let workItem = workItem
        storage.addCancelHandler { [weak self] in
            workItem.cancel()
            self?.cancel()
        }
    }

    /// Connects cancel requests to a dispatch source (a timer, a signal or file
    /// source): on a request, cancels the source (its event handler runs no more) and
    /// completes the future as cancelled, on the thread that made the request. Otherwise
    /// as ``cancelOnRequest(isolation:_:)``.
    ///
    /// - Parameter source: The source whose event handler will complete the promise.
    public func cancelOnRequest(_ source: any DispatchSourceProtocol) {
        // `dispatch_source_cancel` may be called from any thread; only the Linux overlay
        // lacks the `Sendable` mark.
        nonisolated(unsafe) let source = source
        storage.addCancelHandler { [weak self] in
            // Bound first: cancelling the source releases its event handler (which may
            // hold the last reference to this promise) on another thread.
            let promise = self
            source.cancel()
            promise?.cancel()
        }
    }

    /// Whether a consumer requested cancellation, for producers that poll (for example
    /// between the steps of a long loop).
    public var isCancellationRequested: Bool {
        storage.isCancellationRequested
    }

    /// Whether the future is completed (by this promise or otherwise).
    public var isCompleted: Bool {
        storage.outcome != nil
    }
}

extension Promise where Value == Void {
    /// Completes a `Promise<Void>` successfully.
    ///
    /// - Returns: `true` if this call completed the future.
    @discardableResult
    @inlinable
    public func succeed() -> Bool {
        succeed(())
    }
}

// Here rather than with the rest of FutureStorage: it is the promise's `deinit`, run with
// the storage only (see that `deinit`).
extension FutureStorage {
    /// Fails this future, whose promise was released while it was pending. A function
    /// of its own so that the promise's `deinit` does not look up the metadata of
    /// `Outcome<Value>` for every promise (unspecialized, that lookup was a sixth of a
    /// promise's cost), and stays small.
    ///
    /// A promise whose cancel request reached it, released once nothing waits for its
    /// future any more, completes the future as cancelled instead, and is not reported:
    /// going away is how its producer honoured the request.
    @usableFromInline @inline(never)
    func abandonPromise() {
        let origin = Promise.origin(of: self)  // before the lock: the origins have their own
        let error = AbandonedPromiseError(fileID: origin.fileID, line: origin.line)
        switch withLock({ $0.promiseReleased(failingWith: error) }) {
        case .alreadyCompleted:
            return
        case .cancelledQuietly(let callbacks):
            Trampoline.run(callbacks, with: .cancelled)
        case .failed(let callbacks):
            Trampoline.run(callbacks, with: .failure(error))
            Diagnostics.report(
                Diagnostic(
                    kind: .promiseAbandoned,
                    message: "a promise was released while its future was pending; the future failed",
                    fileID: error.fileID, line: error.line))
        }
    }
}
