import Dispatch

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
    private struct Entry {
        /// The shared future: pending until the fetch completes it.
        let storage: FutureStorage<Value>
        /// When the value arrived (the timekeeper's nanoseconds); `nil` while in flight.
        var completedAt: UInt64?
    }

    private let entries = Locked([Key: Entry]())
    /// How long a value stays, in nanoseconds; `nil` for ever.
    private let lifetime: UInt64?
    private let now: @Sendable () -> UInt64

    /// Creates an empty cache whose values never expire.
    public init() {
        self.lifetime = nil
        self.now = { 0 }
    }

    /// Creates an empty cache whose values expire `lifetime` after they arrived, measured
    /// on `clock`.
    ///
    /// - Parameters:
    ///   - lifetime: How long a value stays cached after it arrived; forever when `nil`.
    ///   - clock: The clock that measures the lifetime; `ContinuousClock()` by default.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
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
        self.lifetime = lifetime
        self.now = timekeeper.now
    }

    /// The future of `key`'s value: the cached value, the fetch in flight, or a new fetch.
    ///
    /// `fetch` runs at most once per key at a time, on the calling thread, under no lock,
    /// and only when no live entry exists; a throw fails every request waiting for that
    /// fetch and evicts the entry.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - fetch: Starts fetching the value for `key`.
    /// - Returns: A future of the value, with an interest of its own in the shared fetch.
    public func findOrFetch(
        _ key: Key,
        fetch: (Key) throws -> Future<Value>
    ) -> Future<Value> {
        let now = lifetime == nil ? nil : self.now()
        let view = FutureStorage<Value>.pending()
        let deliver: OutcomeCallback<Value> = { view.complete($0) }
        // Joining checks the shared fetch under its lock, inside the entries' lock (the
        // only place two locks nest; a future's lock is never held while calling out).
        let (shared, found, replaced) = entries.withLock { entries -> (FutureStorage<Value>, Found, Entry?) in
            if let entry = entries[key], isLive(entry, now: now) {
                switch entry.storage.withLock({ $0.consumerJoined(.outcome(deliver)) }) {
                case .joined: return (entry.storage, .joined, nil)
                case .runNow(let outcome): return (entry.storage, .cached(outcome), nil)
                case .refused: break  // told to stop, or failed: never handed out again
                }
            }
            let placeholder = FutureStorage<Value>.pending()
            placeholder.whenCompleteHoldingInterest(deliver)  // not shared yet: cannot run now
            let replaced = entries.updateValue(Entry(storage: placeholder, completedAt: nil), forKey: key)
            return (placeholder, .new, replaced)
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
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }

    /// Removes every entry.
    public func removeAll() {
        let removed = entries.withLock { entries in
            defer { entries.removeAll() }
            return entries
        }
        withExtendedLifetime(removed) {}  // released outside the lock
    }

    /// How many keys have an entry (cached or in flight), expired ones included until a
    /// request finds them.
    public var count: Int {
        entries.withLock { $0.count }
    }

    private func isLive(_ entry: Entry, now: UInt64?) -> Bool {
        guard let lifetime, let now, let completedAt = entry.completedAt else { return true }
        return now &- completedAt < lifetime
    }

    /// A success is kept (stamped for expiry); a failure or a cancellation evicts the
    /// entry, unless it was replaced meanwhile.
    private func settle(_ key: Key, _ shared: FutureStorage<Value>, with outcome: Outcome<Value>) {
        let now = self.now()
        let evicted = entries.withLock { entries -> Entry? in
            guard let entry = entries[key], entry.storage.box === shared.box else { return nil }
            if case .success = outcome {
                entries[key]?.completedAt = now
                return nil
            }
            return entries.removeValue(forKey: key)
        }
        withExtendedLifetime(evicted) {}  // released outside the lock
    }
}
