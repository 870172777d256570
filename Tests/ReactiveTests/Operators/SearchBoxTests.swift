import Dispatch
import FutureBridge
import FutureBridgeInternals
import FutureBridgeTesting
import Reactive
import Testing

/// A search-as-you-type field, end to end, under a manual clock: text from a callback
/// source, `removeDuplicates`, `debounce`, `mapFuture(.latest)` calling an async search,
/// and the results consumed with `for await` on the main actor. No sleeping: time moves
/// when the test says so, and the search answers when the test says so.
@Suite("A search box", .timeLimit(.minutes(1)))
@MainActor
struct SearchBoxTests {
    /// A text field's callback API, as UI frameworks have them: one handler for every edit.
    final class TextField {
        var onChange: ((String) -> Void)?

        func type(_ text: String) { onChange?(text) }
    }

    /// A search service the test answers: each request waits for `respond(to:with:)`, and
    /// a request whose caller went away is reported in `cancelled`.
    final class SearchService: Sendable {
        let requests: AsyncStream<String>
        let cancelled: AsyncStream<String>
        private let requestsContinuation: AsyncStream<String>.Continuation
        private let cancelledContinuation: AsyncStream<String>.Continuation
        private let pending = Locked<[String: Promise<[String]>]>([:])

        init() {
            (requests, requestsContinuation) = AsyncStream.makeStream()
            (cancelled, cancelledContinuation) = AsyncStream.makeStream()
        }

        /// The search: suspends until the test responds; a cancelled task stops waiting
        /// and its request gets a cancel request.
        func search(_ query: String) async throws -> [String] {
            let promise = Promise<[String]>()
            let cancelled = cancelledContinuation
            promise.onCancellationRequest { promise in
                cancelled.yield(query)
                promise.cancel()
            }
            pending.withLock { $0[query] = promise }
            requestsContinuation.yield(query)
            return try await promise.future.value
        }

        func respond(to query: String, with results: [String]) {
            pending.withLock { $0.removeValue(forKey: query) }?.succeed(results)
        }
    }

    /// The search box: one search per pause in typing, the newest only.
    static func results(of text: Signal<String>, clock: ManualClock, service: SearchService) -> Signal<[String]> {
        text
            .removeDuplicates()
            .debounce(for: .milliseconds(300), timekeeper: clock.timekeeper)
            .mapFuture(.latest) { query in Future { try await service.search(query) } }
    }

    @Test("Typing, pausing, superseding: one search per pause, the superseded one cancelled, results in order")
    func searchAsYouType() async throws {
        let clock = ManualClock()
        let field = TextField()
        let service = SearchService()
        let text = Signal<String> { input in
            field.onChange = { input.send($0) }
            return { field.onChange = nil }
        }
        var iterator = Self.results(of: text, clock: clock, service: service).values(buffering: .unbounded)
            .makeAsyncIterator()
        var requests = service.requests.makeAsyncIterator()
        var cancelled = service.cancelled.makeAsyncIterator()

        // Three keystrokes in quick succession, then a pause: one search, for the last text.
        for text in ["s", "sw", "swi"] { field.type(text) }
        clock.advance(byInterval: .milliseconds(299))
        field.type("swi")  // the same text again: removeDuplicates drops it, the timer runs on
        clock.advance(byInterval: .milliseconds(1))
        #expect(await requests.next() == "swi")

        // More typing supersedes that search: its task is cancelled, and the request with it.
        for text in ["swif", "swift", "swift"] { field.type(text) }
        clock.advance(byInterval: .milliseconds(300))
        #expect(await requests.next() == "swift")
        #expect(await cancelled.next() == "swi")

        service.respond(to: "swi", with: ["too late"])  // nobody waits for it any more
        service.respond(to: "swift", with: ["swift", "swiftui"])
        #expect(try await iterator.next() == ["swift", "swiftui"])
        #expect(clock.sleeperCount == 0)
    }

    @Test("The field going away ends the results: the held text is searched first, then the loop ends")
    func fieldGoesAway() async throws {
        let clock = ManualClock()
        let service = SearchService()
        let (text, input) = Signal<String>.pipe()
        var iterator = Self.results(of: text, clock: clock, service: service).values(buffering: .unbounded)
            .makeAsyncIterator()
        var requests = service.requests.makeAsyncIterator()

        input.send("swift")
        input.sendCompleted()  // debounce sends the held text, then completes
        #expect(await requests.next() == "swift")
        service.respond(to: "swift", with: ["swift"])
        #expect(try await iterator.next() == ["swift"])
        #expect(try await iterator.next() == nil)
        #expect(clock.sleeperCount == 0)
    }
}
