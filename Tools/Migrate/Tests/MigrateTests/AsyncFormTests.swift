import Dispatch
import Fixtures
import Foundation
import FutureBridge
import Testing

/// The generated async forms (Fixtures/LegacyShapes+Async.swift), called.
@Suite("Async forms at run time", .timeLimit(.minutes(1)))
struct AsyncFormTests {
    let store = LegacyStore(behavior: .succeed)
    let failing = LegacyStore(behavior: .fail)

    @Test func resultShape() async throws {
        #expect(try await store.fetchUser(id: 7) == User(id: 7, name: "user7"))
        await #expect(throws: FixtureError("no user")) { try await failing.fetchUser(id: 7) }
    }

    @Test func optionalValueAndError() async throws {
        #expect(try await store.loadName(for: 3) == "name3")
        await #expect(throws: FixtureError("no name")) { try await failing.loadName(for: 3) }
    }

    @Test func errorFirst() async throws {
        #expect(try await store.readValue(key: "k") == Data("k".utf8))
        await #expect(throws: FixtureError("no value")) { try await failing.readValue(key: "k") }
    }

    @Test func errorOnly() async throws {
        try await store.save("text")
        await #expect(throws: FixtureError("not saved")) { try await failing.save("text") }
    }

    @Test func valueOnlyAndNothing() async throws {
        #expect(try await store.count() == 42)
        try await store.ping()
    }

    @Test func successAndFailureClosures() async throws {
        #expect(try await store.login(user: "ann") == "token-ann")
        await #expect(throws: FixtureError("denied")) { try await failing.login(user: "ann") }
    }

    @Test func pairOfOptionals() async throws {
        let (word, length) = try await store.lookup(word: "swift")
        #expect(word == "SWIFT" && length == 5)
        await #expect(throws: FixtureError("unknown")) { try await failing.lookup(word: "swift") }
    }

    @Test func valueAndError() async throws {
        #expect(try await store.validate("x") == true)
        await #expect(throws: FixtureError("invalid")) { try await failing.validate("x") }
    }

    @Test func genericWithAddedSendableRequirement() async throws {
        let data = try JSONEncoder().encode(User(id: 1, name: "a"))
        #expect(try await store.decode(User.self, from: data) == User(id: 1, name: "a"))
    }

    @Test func staticAvailabilityThrowsOptionalAndAlias() async throws {
        _ = try await LegacyStore.open(named: "main")
        await #expect(throws: FixtureError("no name")) { try await LegacyStore.open(named: "") }
        #expect(try await store.archive() == 1)
        try await store.export(to: "/tmp/x")
        // The original throws before it starts: so does the async form.
        await #expect(throws: FixtureError("empty path")) { try await store.export(to: "") }
        #expect(try await store.total() == 7)
    }

    @Test func ownersOfEveryKind() async throws {
        #expect(try await Catalog.Shelf().countBooks() == 12)
        #expect(try await Box("gift").open() == "gift")
        // The requirement's async form, from the protocol's extension.
        #expect(try await InMemoryCounter().fetchCount() == 5)
        #expect(try await (InMemoryCounter() as any RemoteCounter).fetchCount() == 5)
        #expect(try await Counter().increment(by: 2) == 2)
        #expect(try await legacyGreeting(for: "Ann") == "Hello, Ann!")
    }

    @Test @MainActor func mainActorOwner() async throws {
        let model = ViewModel()
        #expect(try await model.reload() == 1)
        #expect(model.refreshes == 1)
    }

    @Test func scopedForms() async throws {
        // The connection stays in the callback; what the body returns comes out.
        #expect(try await store.connect { connection in try connection.query("abc") } == 3)
        await #expect(throws: FixtureError("no connection")) {
            try await failing.connect { connection in try connection.query("abc") }
        }
        // `withConnection(_:)` and `perform(_:)` take a `(Connection)` and a `()` closure: a
        // scoped form would capture these calls, which still reach the originals from async code.
        store.withConnection { _ in }
        store.perform {}
    }

    @Test func handlesThatAreNotCancelHandles() async throws {
        try await store.enqueue()
        #expect(try await store.refresh() == 3)
        try await store.sync()
    }
}

/// Task cancellation reaches the handle the original returned.
@Suite("Cancellation", .timeLimit(.minutes(1)))
struct CancellationTests {
    let store = LegacyStore(behavior: .holdUntilCancelled)

    @Test("An Operation is cancelled, and the task throws CancellationError")
    func operation() async throws {
        let task = Task { try await store.download(id: 1) }
        for await name in store.started where name == "download" { break }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        var cancelled = store.cancelled.makeAsyncIterator()
        #expect(await cancelled.next() == "download")
    }

    @Test("A Sendable type with cancel(), declared in the sources, is cancelled")
    func ticket() async throws {
        let task = Task { try await store.stream(feed: "news") }
        for await name in store.started where name == "stream" { break }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        var cancelled = store.cancelled.makeAsyncIterator()
        #expect(await cancelled.next() == "stream")
    }

    @Test("A cancel handle that is not Sendable is cancelled, in the caller's isolation")
    func notSendableTicket() async throws {
        let task = Task { try await store.sync() }
        for await name in store.started where name == "sync" { break }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        var cancelled = store.cancelled.makeAsyncIterator()
        #expect(await cancelled.next() == "sync")
    }

    @Test("A DispatchWorkItem is cancelled (it never runs)")
    func workItem() async throws {
        let task = Task { try await store.schedule(job: "backup") }
        for await name in store.started where name == "schedule" { break }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(store.workItems.last?.isCancelled == true)
    }

    @Test("A task cancelled before the call still cancels the handle")
    func alreadyCancelled() async throws {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.download(id: 2)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        var cancelled = store.cancelled.makeAsyncIterator()
        #expect(await cancelled.next() == "download")
    }
}

/// Misuse by the callback API: reported, never a hang or a crash.
@Suite("Misbehaving handlers", .serialized, .timeLimit(.minutes(1)))
struct MisuseTests {
    @Test("A handler released without being called fails with AbandonedPromiseError naming the generated line")
    func dropped() async throws {
        let recorder = DiagnosticsRecorder()
        defer { recorder.stop() }
        let store = LegacyStore(behavior: .drop)
        do {
            _ = try await store.fetchUser(id: 1)
            Issue.record("expected AbandonedPromiseError")
        } catch let error as AbandonedPromiseError {
            #expect(error.fileID == "Fixtures/LegacyShapes+Async.swift")
            #expect(error.line > 0)
        }
        // Every shape, the same way.
        await #expect(throws: AbandonedPromiseError.self) { try await store.count() }
        await #expect(throws: AbandonedPromiseError.self) { try await store.ping() }
        await #expect(throws: AbandonedPromiseError.self) { try await store.login(user: "ann") }
        await #expect(throws: AbandonedPromiseError.self) { try await store.lookup(word: "x") }
        let report = await recorder.first(.promiseAbandoned, fromFileEndingIn: "LegacyShapes+Async.swift")
        #expect(report != nil)
    }

    @Test("A handler called twice: the first call wins, the second is ignored and reported")
    func calledTwice() async throws {
        let recorder = DiagnosticsRecorder()
        defer { recorder.stop() }
        let store = LegacyStore(behavior: .callTwice)
        #expect(try await store.fetchUser(id: 5) == User(id: 5, name: "user5"))
        let report = await recorder.first(.completedTwice, fromFileEndingIn: "LegacyShapes+Async.swift")
        #expect(report?.fileID == "Fixtures/LegacyShapes+Async.swift")
    }
}
