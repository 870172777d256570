import FutureBridgeInternals

/// The slots and the queue of a ``FutureLimiter``: which unit of work starts when, and
/// which thread starts it.
///
/// Pure: no lock, no thread, no call into user code. `FutureLimiter` runs each
/// transition under its lock and starts the units a transition hands out after
/// unlocking. Generic over the unit so that its tests can queue plain values.
///
/// A unit that takes a slot does not start on the thread that gave it the slot: it joins
/// the *ready* units, and one thread at a time, the *starter*, starts the ready units one
/// after another, in the order they took their slots (which is submission order: a unit
/// takes a free slot only when none is queued). The thread whose transition made a unit
/// ready becomes the starter if no other thread is one, and stays it until no unit is
/// ready. So units start in submission order whichever threads submit them and free
/// their slots, and no thread ever waits for another.
///
/// ```text
/// submitted(unit) ──running < maxConcurrent──▶ running += 1, unit ready
/// submitted(unit) ──all slots taken──────────▶ queued at the back
/// slotFreed()     ──a unit queued────────────▶ the front unit ready, in the freed slot
/// slotFreed()     ──queue empty──────────────▶ running -= 1
///   each returns true when a unit is ready and no thread is the starter: the caller
///   becomes the starter
/// nextToStart()   ──a unit ready─────────────▶ the oldest ready unit, to start now
/// nextToStart()   ──none ready───────────────▶ nil: the caller is no longer the starter
/// ```
struct LimiterStateMachine<Unit> {
    /// How many units may run at once.
    let maxConcurrent: Int
    /// Units holding a slot: ready, started and not yet ended.
    private(set) var running = 0
    /// Units waiting for a slot, oldest first.
    private var queue = FIFOQueue<Unit>()
    /// Units holding a slot that the starter has not started yet, oldest first.
    private var ready = FIFOQueue<Unit>()
    /// Whether a thread is the starter: it calls ``nextToStart()`` until that returns `nil`.
    private(set) var hasStarter = false

    init(maxConcurrent: Int) {
        self.maxConcurrent = maxConcurrent
    }

    /// A unit was submitted: it takes a free slot and is ready, or waits at the back of
    /// the queue. Returns `true` if the caller becomes the starter.
    mutating func submitted(_ unit: Unit) -> Bool {
        guard running < maxConcurrent else {
            queue.append(unit)
            return false
        }
        running += 1
        ready.append(unit)
        return becomeStarter()
    }

    /// A slot was freed (a unit ended, or a ready unit had been cancelled while queued
    /// and did not start): the oldest queued unit takes it and is ready, or, when none
    /// waits, the slot is given back. Returns `true` if the caller becomes the starter.
    mutating func slotFreed() -> Bool {
        guard let unit = queue.popFirst() else {
            running -= 1
            return false
        }
        ready.append(unit)
        return becomeStarter()
    }

    /// The starter asks for the next unit to start: the oldest ready unit, or `nil` when
    /// none is ready, and the caller is no longer the starter.
    mutating func nextToStart() -> Unit? {
        guard let unit = ready.popFirst() else {
            hasStarter = false
            return nil
        }
        return unit
    }

    /// Makes the caller the starter if a unit is ready and no thread is the starter.
    private mutating func becomeStarter() -> Bool {
        guard !hasStarter else { return false }
        hasStarter = true
        return true
    }

    /// Units that have not started: waiting for a slot, or ready.
    var queuedCount: Int { queue.count + ready.count }
}

extension LimiterStateMachine: Sendable where Unit: Sendable {}
