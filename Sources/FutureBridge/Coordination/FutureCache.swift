import Dispatch
import FutureBridgeInternals

/// A keyed cache of futures that shares in-flight work (FutureKit's `findOrFetch`).
///
/// Concurrent requests for one key share one fetch. A successful value stays cached
/// (until it expires, if the cache has a lifetime); a failure or a cancellation evicts
/// the entry, so the next request fetches again. Thread-safe.
///
/// Each requester gets a future of its own that holds an interest in the shared fetch:
/// one requester's cancel request does not cancel the fetch the others wait for. The
/// fetch gets a cancel request only once every requester has withdrawn. A fetch that got
/// its cancel request, or that failed, is never handed to a new requester, even before
/// it has finished: the new request starts a new fetch. So a requester that did not
/// cancel never ends cancelled because others did.
///
/// <!-- fragment: app -->
/// ```swift
/// let avatars = FutureCache<Int, Image>(expiresAfter: .seconds(300))          // macOS 13, iOS 16
/// let thumbnails = FutureCache<Int, Image>(expiresAfter: .seconds(300), timekeeper: .dispatch)
/// let image = avatars.findOrFetch(7) { id in api.avatar(id: id) }
/// ```
public final class FutureCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The entries: each key's shared fetch (a future's box), reached only under this lock.
    private let entries: Locked<CacheStateMachine<Key, FutureBox<Value>>>
    /// Whether values expire: only then is the time read on each request.
    private let expires: Bool
    private let now: @Sendable () -> UInt64

    /// Creates an empty cache whose values never expire.
    public init() {
        self.entries = Locked(CacheStateMachine(lifetime: nil))
        self.expires = false
        self.now = { 0 }
    }

    /// Creates an empty cache whose values expire `lifetime` after they arrived, measured
    /// on `clock`.
    ///
    /// - Parameters:
    ///   - lifetime: How long a value stays cached after it arrived; forever when `nil`.
    ///   - clock: The clock that measures the lifetime; `ContinuousClock()` by default.
    @available(ClockAPI, *)
    public convenience init<C: Clock<Duration>>(expiresAfter lifetime: Duration?, clock: C = ContinuousClock()) {
        self.init(lifetime: lifetime?.nanoseconds, timekeeper: .clock(clock))
    }

    /// Creates an empty cache whose values expire `lifetime` after they arrived, measured
    /// by `timekeeper`; the form for every deployment target.
    ///
    /// - Parameters:
    ///   - lifetime: How long a value stays cached after it arrived; forever when `nil`.
    ///   - timekeeper: What measures the lifetime; ``Timekeeper/dispatch`` for
    ///     `DispatchTime` uptime.
    public convenience init(expiresAfter lifetime: DispatchTimeInterval?, timekeeper: Timekeeper) {
        self.init(lifetime: lifetime?.nanoseconds, timekeeper: timekeeper)
    }

    private init(lifetime: UInt64?, timekeeper: Timekeeper) {
        self.entries = Locked(CacheStateMachine(lifetime: lifetime))
        self.expires = lifetime != nil
        self.now = timekeeper.now
    }

    /// The future of `key`'s value: the cached value, the fetch in flight, or a new fetch.
    ///
    /// `fetch` runs on the calling thread, under no lock, and only when `key` has no entry
    /// to share: none, a value that expired, or a fetch that got its cancel request or
    /// failed. Such a fetch may still be running: the new one replaces it in the cache
    /// without waiting for it (as after ``remove(_:)``), so two fetches for one key can
    /// be in flight at once, the earlier one serving only the requesters it already had.
    /// Requests that find a fetch in flight with no cancel request join it instead of
    /// fetching. A throw fails every request waiting for that fetch and evicts the entry.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - fetch: Starts fetching the value for `key`.
    /// - Returns: A future of the value, with an interest of its own in the shared fetch.
    public func findOrFetch(
        _ key: Key,
        fetch: (Key) throws -> Future<Value>
    ) -> Future<Value> {
        let now = expires ? self.now() : nil
        let view = FutureStorage<Value>.pending()
        let deliver: OutcomeCallback<Value> = { view.complete($0) }
        // Joining checks the shared fetch under its lock, inside the entries' lock (the
        // only place two locks nest; a future's lock is never held while calling out).
        let (shared, found, replaced) = entries.withLock {
            entries -> (FutureStorage<Value>, Found, CacheStateMachine<Key, FutureBox<Value>>.Entry?) in
            if let live = entries.liveFetch(for: key, now: now) {
                let storage = FutureStorage(box: live)
                switch storage.withLock({ $0.consumerJoined(.outcome(deliver)) }) {
                case .joined: return (storage, .joined, nil)
                case .runNow(let outcome): return (storage, .cached(outcome), nil)
                case .refused: break  // told to stop, or failed: never handed out again
                }
            }
            let placeholder = FutureStorage<Value>.pending()
            placeholder.whenCompleteHoldingInterest(deliver)  // not shared yet: cannot run now
            return (placeholder, .new, entries.inserted(placeholder.box, for: key))
        }
        withExtendedLifetime(replaced) {}  // released outside the lock
        switch found {
        case .cached(let outcome):
            view.complete(outcome)
        case .joined, .new:
            view.addCancelHandler {
                shared.withdrawInterest(cancelling: true)
                view.complete(.cancelled)
            }
        }
        if case .new = found {
            shared.whenComplete { [weak self] outcome in self?.settle(key, shared, with: outcome) }
            do {
                shared.complete(using: try fetch(key).storage)
            } catch {
                shared.complete(.failure(error))
            }
        }
        return Future(storage: view)
    }

    /// What a request found: a value, a fetch in flight it joined, or nothing usable (it
    /// starts a new fetch).
    private enum Found {
        case cached(Outcome<Value>)
        case joined
        case new
    }

    /// Removes `key`'s entry; a fetch in flight goes on for those already waiting.
    public func remove(_ key: Key) {
        let removed = entries.withLock { $0.removed(key) }
        withExtendedLifetime(removed) {}  // released outside the lock
    }

    /// Removes every entry.
    public func removeAll() {
        let removed = entries.withLock { $0.removedAll() }
        withExtendedLifetime(removed) {}  // released outside the lock
    }

    /// How many keys have an entry (cached or in flight), expired ones included until a
    /// request finds them.
    public var count: Int {
        entries.withLock { $0.entries.count }
    }

    /// A success is kept (stamped for expiry); a failure or a cancellation evicts the
    /// entry, unless it was replaced meanwhile.
    private func settle(_ key: Key, _ shared: FutureStorage<Value>, with outcome: Outcome<Value>) {
        let now = self.now()
        let succeeded = if case .success = outcome { true } else { false }
        let evicted = entries.withLock { $0.settled(shared.box, for: key, succeeded: succeeded, now: now) }
        withExtendedLifetime(evicted) {}  // released outside the lock
    }
}
