import Dispatch
import FutureBridgeInternals
import Testing

@testable import FutureBridge

/// The numbering of promise creation sites: the pure table, and the process-wide table
/// with its per-thread cache, from several threads.
@Suite struct PromiseOriginsTests {
    static func origin(_ fileID: StaticString, _ line: UInt32) -> PromiseOrigin {
        PromiseOrigin(fileID: CompactStaticString(fileID), line: line)
    }

    @Test func eachSiteGetsOneNumberForGood() {
        var table = PromiseOriginTable(capacity: 10)
        let first = table.number(of: Self.origin("A/One.swift", 1))
        let sameFileOtherLine = table.number(of: Self.origin("A/One.swift", 2))
        let otherFile = table.number(of: Self.origin("A/Two.swift", 1))
        #expect([first, sameFileOtherLine, otherFile] == [1, 2, 3])
        #expect(table.number(of: Self.origin("A/One.swift", 1)) == first)
        #expect(table.origin(numbered: sameFileOtherLine) == Self.origin("A/One.swift", 2))
        #expect("\(table.origin(numbered: otherFile)?.fileID ?? CompactStaticString(""))" == "A/Two.swift")
    }

    @Test func aFullTableGivesZeroAndForgetsNothingItHas() {
        var table = PromiseOriginTable(capacity: 2)
        #expect(table.number(of: Self.origin("F.swift", 1)) == 1)
        #expect(table.number(of: Self.origin("F.swift", 2)) == 2)
        #expect(table.number(of: Self.origin("F.swift", 3)) == 0)
        #expect(table.number(of: Self.origin("F.swift", 3)) == 0)
        #expect(table.number(of: Self.origin("F.swift", 1)) == 1)
        #expect(table.origins.count == 2)
        #expect(table.origin(numbered: 0) == nil)
        #expect(table.origin(numbered: 3) == nil)
    }

    @Test func numberZeroIsReportedAsUnrecorded() {
        let location = PromiseOrigins.location(numbered: 0)
        #expect(location.fileID == PromiseOrigins.unrecorded.fileID)
        #expect(location.line == 0)
    }

    /// Each form a `StaticString` can take (an empty text, a text, and a single scalar with
    /// no text in memory, whose bits are the scalar's value) goes into the table and reads
    /// back as given, on a live promise.
    @Test func everyFormOfFileIDReadsBackThroughTheTable() {
        let empty = Promise<Int>(fileID: "", line: 5)
        let scalar = Promise<Int>(fileID: StaticString(unicodeScalarLiteral: "é"), line: 5)
        let text = Promise<Int>(fileID: "é", line: 5)
        #expect(empty.origin.fileID == "")
        #expect(scalar.origin.fileID == "é")
        #expect(text.origin.fileID == "é")
        for promise in [empty, scalar, text] { promise.succeed(0) }
    }

    /// Four threads create promises at 200 sites (more than the 32 slots of each thread's
    /// cache, so slots are replaced all the time) in different orders; every promise names
    /// its own site.
    @Test func promisesCreatedOnManyThreadsNameTheirOwnSites() {
        let files: [StaticString] = ["Race/A.swift", "Race/B.swift"]
        let rounds = 20_000
        let mismatches = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var wrong = 0
            for round in 0..<rounds {
                let site = (round &* (thread * 2 + 1)) % 200
                let file = files[site % 2]
                let promise = Promise<Int>(fileID: file, line: UInt(site))
                let origin = promise.origin
                if origin.fileID != "\(file)" || origin.line != site { wrong += 1 }
                promise.succeed(site)
            }
            mismatches.withLock { $0 += wrong }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }
}
