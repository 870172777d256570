import FutureBridgeInternals

/// The slots and the queue of a ``FutureLimiter``: which unit of work starts when.
///
/// Pure: no lock, no thread, no call into user code. `FutureLimiter` runs each
/// transition under its lock and starts the unit a transition returns after unlocking.
/// Generic over the unit so that its tests can queue plain values.
///
/// ```text
/// submitted(unit) ──running < maxConcurrent──▶ running += 1, start unit now (true)
/// submitted(unit) ──all slots taken──────────▶ queued at the back (false)
/// slotFreed()     ──a unit queued────────────▶ the front unit, in the freed slot
/// slotFreed()     ──queue empty──────────────▶ running -= 1 (nil)
/// ```
struct LimiterStateMachine<Unit> {
    /// How many units may run at once.
    let maxConcurrent: Int
    /// Units holding a slot: started and not yet ended.
    private(set) var running = 0
    /// Units waiting for a slot, oldest first.
    private var queue = FIFOQueue<Unit>()

    init(maxConcurrent: Int) {
        self.maxConcurrent = maxConcurrent
    }

    /// A unit was submitted. Returns `true` if it takes a free slot and must start now,
    /// `false` if it waits at the back of the queue.
    mutating func submitted(_ unit: Unit) -> Bool {
        guard running < maxConcurrent else {
            queue.append(unit)
            return false
        }
        running += 1
        return true
    }

    /// A slot was freed (a unit ended, or a unit taken from the queue had been cancelled
    /// and did not start). Returns the oldest queued unit, which takes the slot and must
    /// start now, or `nil` when none waits and the slot is given back.
    mutating func slotFreed() -> Unit? {
        guard let unit = queue.popFirst() else {
            running -= 1
            return nil
        }
        return unit
    }

    /// Units waiting for a slot.
    var queuedCount: Int { queue.count }
}

extension LimiterStateMachine: Sendable where Unit: Sendable {}
