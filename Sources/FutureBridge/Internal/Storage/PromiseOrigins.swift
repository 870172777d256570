import FutureBridgeAtomics
import FutureBridgeInternals

/// Where a promise was created: the `#fileID` and `#line` that ``AbandonedPromiseError``
/// and the second-call report of a completion handler name.
@usableFromInline
struct PromiseOrigin: Hashable, Sendable {
    @usableFromInline
    let fileID: CompactStaticString
    @usableFromInline
    let line: UInt32

    @inlinable
    init(fileID: CompactStaticString, line: UInt32) {
        self.fileID = fileID
        self.line = line
    }

    /// The cache key of the C side: the text's address (or scalar), and the line with the
    /// text's length.
    @inlinable
    var lineAndCount: UInt64 { UInt64(line) | UInt64(fileID.count) << 32 }
}

/// Numbers for creation sites, so that a pending future keeps its promise's origin in the
/// 30 bits next to its lock word instead of 14 bytes in the promise (M1 in the Benchmarks
/// package counts every byte a pending future keeps).
///
/// A pure value: the process-wide table is ``PromiseOrigins/table``. Number `n` is entry
/// `n - 1`; 0 means "not recorded". The table holds at most `capacity` sites, so that a
/// program that passes ever new `line:` values at run time cannot grow it without end;
/// sites beyond that get 0.
struct PromiseOriginTable {
    let capacity: Int
    private(set) var origins: [PromiseOrigin] = []
    private var numbers: [PromiseOrigin: UInt32] = [:]

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The number of `origin`, given one now if it has none and there is room; 0 if the
    /// table is full.
    mutating func number(of origin: PromiseOrigin) -> UInt32 {
        if let number = numbers[origin] { return number }
        guard origins.count < capacity else { return 0 }
        origins.append(origin)
        let number = UInt32(origins.count)
        numbers[origin] = number
        return number
    }

    /// The origin with `number`; `nil` for 0 or a number the table never gave.
    func origin(numbered number: UInt32) -> PromiseOrigin? {
        guard number > 0, Int(number) <= origins.count else { return nil }
        return origins[Int(number) - 1]
    }
}

/// The process-wide ``PromiseOriginTable``, and a per-thread cache in front of it (C,
/// `FutureBridgeThreadLocal.h`): creating a promise at a site this thread used recently
/// costs a hash and two compares, no lock.
@usableFromInline
enum PromiseOrigins {
    /// A million sites: far more than any program has call sites that create promises.
    static let capacity = 1 << 20

    /// What an origin that was not recorded (the table was full) is reported as.
    static let unrecorded = (fileID: "(unrecorded: more than 1,048,576 promise creation sites)", line: 0)

    static let table = Locked(PromiseOriginTable(capacity: capacity))

    /// The number of the site `fileID`:`line` (0 if the table is full); at most
    /// ``capacity``, well within the 30 bits the promise keeps it in.
    @inlinable @inline(__always)
    static func number(fileID: StaticString, line: UInt) -> UInt32 {
        let origin = PromiseOrigin(fileID: CompactStaticString(fileID), line: UInt32(truncatingIfNeeded: line))
        let cached = fb_origin_cache_lookup(origin.fileID.bits, origin.lineAndCount)
        return cached != 0 ? cached : register(origin)
    }

    /// Looks `origin` up in the table (adding it if new), and caches the number for this
    /// thread.
    @usableFromInline @inline(never)
    static func register(_ origin: PromiseOrigin) -> UInt32 {
        let number = table.withLock { $0.number(of: origin) }
        if number != 0 { fb_origin_cache_store(origin.fileID.bits, origin.lineAndCount, number) }
        return number
    }

    /// The file and line of the site numbered `number`, as the reports name them.
    static func location(numbered number: UInt32) -> (fileID: String, line: Int) {
        guard let origin = table.withLock({ $0.origin(numbered: number) }) else { return unrecorded }
        return ("\(origin.fileID)", Int(origin.line))
    }
}
