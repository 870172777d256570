import Foundation
import FutureBridge
import Reactive
import Testing

// The app's own types, unannotated: this module compiles as Xcode 26 compiles new apps
// (default main-actor isolation, NonisolatedNonsendingByDefault,
// InferIsolatedConformances), so every one of them is main-actor-isolated. The scenarios
// in AppScenarios.swift are the same file as in MainActorAppTests.

final class ProfileModel {
    var title = ""
    var log: [String] = []
    var cancelled = 0
}

/// The documented `FutureConvertible` example, unchanged.
final class LegacyRequest {
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

extension LegacyRequest: FutureConvertible {
    var future: Future<Data> {
        Future { promise in
            self.start(completion: promise.resolve)
            promise.cancelOnRequest(self.cancel)
        }
    }
}

final class LocationTracker {
    var onUpdate: ((Int) -> Void)?
    var isRunning = false

    func start() { isRunning = true }
    func stop() { isRunning = false }
    func report(_ location: Int) { onUpdate?(location) }
}

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

@Suite struct MainActorAppTests {}
