/// The entries of a ``FutureCache``: which shared fetch a key has, whether it is still
/// live, and what a settled fetch does to its entry.
///
/// Pure: no lock, no thread, no call into a future. `FutureCache` runs each transition
/// under its lock, and releases what a transition hands back (a replaced or evicted
/// entry) after unlocking. Generic over the shared fetch (compared by identity) so that
/// its tests can use plain objects; time is the caller's nanoseconds.
///
/// ```text
/// liveFetch(key, now) ── in flight, or arrived less than `lifetime` ago ─▶ the fetch
///                     └─ none, or expired ─────────────────────────────▶ nil
/// inserted(key, fetch)                     ─▶ the entry it replaced (to release)
/// settled(key, fetch, succeeded: true)     ─▶ entry stamped with `now`: stays
/// settled(key, fetch, succeeded: false)    ─▶ entry evicted (to release)
/// settled for a fetch the key no longer has ─▶ nothing
/// ```
struct CacheStateMachine<Key: Hashable, Fetch: AnyObject> {
    struct Entry {
        /// The shared fetch.
        let fetch: Fetch
        /// When its value arrived (the caller's nanoseconds); `nil` while in flight.
        var arrivedAt: UInt64?
    }

    /// How long a value stays, in nanoseconds; `nil` for ever.
    let lifetime: UInt64?
    private(set) var entries: [Key: Entry] = [:]

    init(lifetime: UInt64?) {
        self.lifetime = lifetime
    }

    /// The fetch `key` has, if it is in flight or its value has not expired at `now`
    /// (`nil` when the cache has no lifetime).
    func liveFetch(for key: Key, now: UInt64?) -> Fetch? {
        guard let entry = entries[key] else { return nil }
        guard let lifetime, let now, let arrivedAt = entry.arrivedAt else { return entry.fetch }
        return now &- arrivedAt < lifetime ? entry.fetch : nil
    }

    /// A new fetch for `key`, in flight. Returns the entry it replaced, to release after
    /// unlocking.
    mutating func inserted(_ fetch: Fetch, for key: Key) -> Entry? {
        entries.updateValue(Entry(fetch: fetch, arrivedAt: nil), forKey: key)
    }

    /// `fetch` completed at `now`: a success stays (stamped for expiry), a failure or a
    /// cancellation evicts the entry. A fetch that `key` no longer has (removed or
    /// replaced meanwhile) changes nothing. Returns the evicted entry, to release after
    /// unlocking.
    mutating func settled(_ fetch: Fetch, for key: Key, succeeded: Bool, now: UInt64) -> Entry? {
        guard let entry = entries[key], entry.fetch === fetch else { return nil }
        if succeeded {
            entries[key]?.arrivedAt = now
            return nil
        }
        return entries.removeValue(forKey: key)
    }

    /// Forgets `key`. Returns its entry, to release after unlocking.
    mutating func removed(_ key: Key) -> Entry? {
        entries.removeValue(forKey: key)
    }

    /// Forgets every key. Returns the entries, to release after unlocking.
    mutating func removedAll() -> [Key: Entry] {
        defer { entries.removeAll() }
        return entries
    }
}

extension CacheStateMachine: Sendable where Key: Sendable, Fetch: Sendable {}
extension CacheStateMachine.Entry: Sendable where Key: Sendable, Fetch: Sendable {}
