// Streams: `swift run Streams`.
//
// Real sources as signals (a timer, NotificationCenter, a pipe's FileHandle), each in a
// few lines; mapFuture with each strategy; a signal consumed with `for await`; and a
// search box: removeDuplicates, debounce, mapFuture(.latest) and `for await` on the main
// actor.
import Dispatch
import Foundation
import FutureBridge
import Reactive

func step(_ title: String) { print("\n## \(title)") }

// MARK: - Sources
step("A timer, NotificationCenter and a FileHandle, each as a Signal")

let queue = DispatchQueue(label: "streams")
let ticks = Signal<Void> { input in
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.setEventHandler { input.send(()) }
    timer.schedule(deadline: .now(), repeating: .milliseconds(2))
    timer.resume()
    return {
        timer.cancel()
        print("timer: cancelled, the signal has no observer left")
    }
}
let counted = try await ticks.scan(0) { count, _ in count + 1 }.take(first: 3).collect().value
print("timer ticks:", counted)

let center = NotificationCenter()
let saved = Notification.Name("document.saved")
let saves = Signal<String> { input in
    let token = center.addObserver(forName: saved, object: nil, queue: nil) { note in
        input.send(note.userInfo?["name"] as? String ?? "?")
    }
    return { center.removeObserver(token) }
}
let firstTwoSaves = saves.take(first: 2).collect()
for name in ["a.txt", "b.txt", "c.txt"] { center.post(name: saved, object: nil, userInfo: ["name": name]) }
print("NotificationCenter:", try await firstTwoSaves.value)

let pipe = Pipe()
let chunks = Signal<String> { input in
    pipe.fileHandleForReading.readabilityHandler = { handle in
        input.send(String(decoding: handle.availableData, as: UTF8.self))
    }
    return { pipe.fileHandleForReading.readabilityHandler = nil }
}
// On Linux the readability handler is not called at end of file, so take what you need
// (here the first chunk) rather than wait for the signal to complete.
let firstChunk = chunks.first()
pipe.fileHandleForWriting.write(Data("hello from a pipe".utf8))
print("FileHandle.readabilityHandler:", try await firstChunk.value)
try pipe.fileHandleForWriting.close()

// MARK: - mapFuture
step("mapFuture: concat, merge with a limit, latest")

/// A lookup that completes after `delay` milliseconds, and says when it was cancelled.
func lookup(_ word: String, delay: Int) -> Future<String> {
    Future { promise in
        let work = DispatchWorkItem { promise.succeed(word.uppercased()) }
        promise.onCancellationRequest { _ in print("  cancel request: lookup of \"\(word)\"") }
        promise.cancelOnRequest(work)  // cancels the work item and the future
        queue.asyncAfter(deadline: .now() + .milliseconds(delay), execute: work)
    }
}

for strategy in [MapFutureStrategy.concat, .merge(maxConcurrent: 2), .latest] {
    let (words, input) = Signal<String>.pipe()
    let delays = ["three": 40, "to": 5, "one": 15]  // milliseconds, far enough apart to keep the order
    let results = words.mapFuture(strategy) { word in lookup(word, delay: delays[word] ?? 0) }.collect()
    for word in ["three", "to", "one"] { input.send(word) }
    input.sendCompleted()
    print("\(strategy):", try await results.value)
}

// MARK: - for await
step("A signal consumed with for await; cancelling the consuming task detaches")

let stopped = Promise<Void>()
let (numbers, numberInput) = Signal<Int>.pipe(onStop: {
    print("source: the consumer went away, stop producing")
    stopped.succeed()
})
let values = numbers.values(buffering: .unbounded)
let thirdSeen = Promise<Void>()
let consumer = Task {
    for try await n in values {
        print("for await:", n)
        if n == 3 { thirdSeen.succeed() }
    }
}
for n in 1...3 { numberInput.send(n) }
try await thirdSeen.future.value
consumer.cancel()
try await stopped.future.value
// MARK: - A search box
step("A search box: removeDuplicates, debounce, mapFuture(.latest), for await on the main actor")

/// A text field's callback API, as UI frameworks have them: one handler for every edit.
@MainActor final class SearchField {
    var onChange: ((String) -> Void)?
    func type(_ text: String) { onChange?(text) }
}

/// An async search that takes 100 ms, and says when its task was cancelled.
func search(_ query: String) async throws -> [String] {
    do {
        try await Task.sleep(nanoseconds: 100_000_000)
    } catch {
        print("  search for \"\(query)\": cancelled (superseded)")
        throw error
    }
    return ["swift", "swiftui", "swim"].filter { $0.hasPrefix(query) }
}

let field = SearchField()
// The field is main-actor state: the source starts and stops on the main actor.
let typed = Signal<String>(on: .main) { input in
    field.onChange = { input.send($0) }
    return { field.onChange = nil }
}
let searchResults =
    typed
    .removeDuplicates()
    .debounce(for: .milliseconds(20), timekeeper: .dispatch)
    .mapFuture(.latest) { query in Future { try await search(query) } }
    .values(buffering: .unbounded)

/// What the screen shows: updated on the main actor, by `for await`.
@MainActor final class SearchScreen {
    private(set) var shown: [String] = []
    func show(_ results: [String]) {
        shown = results
        print("  on the main actor:", results)
    }
}
let screen = SearchScreen()
let shownSwift = Promise<Void>()
let display = Task { @MainActor in
    for try await results in searchResults {
        screen.show(results)
        if results == ["swift", "swiftui"] { shownSwift.succeed() }
    }
}
for text in ["s", "sw", "swi"] { field.type(text) }  // one search, once typing pauses
try await Task.sleep(nanoseconds: 50_000_000)  // the pause: "swi" is searched...
for text in ["swif", "swift", "swift"] { field.type(text) }  // ...and superseded before it answers
try await shownSwift.future.value
display.cancel()
print("shown:", screen.shown)

print("\nDone.")
