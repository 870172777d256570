import Foundation
import FutureBridge
import Reactive
import Testing

// The app's own types, written as a Swift 6 app module writes them: `@MainActor`. The
// same scenarios run in DefaultMainActorAppTests, where these types carry no annotation
// because the module is main-actor by default (Xcode 26's new-app settings).

@MainActor final class ProfileModel {
    var title = ""
    var log: [String] = []
    var cancelled = 0
}

/// A legacy request object whose methods are main-actor-isolated, as in an app.
@MainActor final class LegacyRequest {
    var completion: (@Sendable (Data?, (any Error)?) -> Void)?
    var cancelCount = 0

    func start(completion: @escaping @Sendable (Data?, (any Error)?) -> Void) {
        self.completion = completion
    }

    func cancel() {
        cancelCount += 1
        completion?(nil, CancellationError())
    }
}

extension LegacyRequest: @MainActor FutureConvertible {
    var future: Future<Data> {
        Future { promise in
            self.start(completion: promise.resolve)
            promise.cancelOnRequest(self.cancel)
        }
    }
}

/// A delegate-style callback source owned by the main actor.
@MainActor final class LocationTracker {
    var onUpdate: ((Int) -> Void)?
    var isRunning = false

    func start() { isRunning = true }
    func stop() { isRunning = false }
    func report(_ location: Int) { onUpdate?(location) }
}

/// A class that is not `Sendable`, made by a legacy callback API.
final class Draft {
    var text: String
    init(text: String) { self.text = text }
}

enum LegacyDrafts {
    static func makeDraft(completion: @escaping (Draft) -> Void) {
        completion(Draft(text: "hello"))
    }

    static func makeOptionalDraft(completion: @escaping (Draft?, (any Error)?) -> Void) {
        completion(Draft(text: "optional"), nil)
    }
}

@Suite @MainActor struct MainActorAppTests {}
