/// Names that say what a closure parameter is for.
enum ClosureName {
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in name {
            if character.isUppercase, !current.isEmpty {
                words.append(current)
                current = ""
            }
            if character != "_" { current.append(character) }
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.lowercased() }
    }

    static let eventWords: Set<String> = [
        "progress", "observer", "listener", "event", "events", "stream", "each", "change", "changes", "update",
        "receive", "next", "commit", "rollback", "cancel", "cancellation", "trace", "log", "monitor", "destructor",
        "cleanup",
    ]

    /// `onConnectionDidOpen(_:)`, `observe(_:)`, `addObserver(_:)`, `setHandler(_:)`:
    /// a function that registers a callback for events.
    static func registersEvents(_ functionName: String) -> Bool {
        let words = words(functionName)
        guard let first = words.first else { return false }
        if ["on", "observe", "subscribe", "listen", "watch", "trace", "monitor"].contains(first) { return true }
        if ["add", "set", "register", "install"].contains(first) {
            return words.dropFirst().contains {
                ["observer", "listener", "handler", "callback", "subscriber", "hook"].contains($0)
            }
        }
        return false
    }
    static let completionWords: Set<String> = [
        "completion", "complete", "completed", "completes", "handler", "callback", "reply", "done", "finish",
        "finished", "result", "response", "then", "resolve", "success", "failure", "error", "fail", "failed",
    ]
    static let workWords: Set<String> = [
        "action", "block", "body", "work", "execute", "operation", "updates", "closure", "perform", "job",
        "barrier", "task",
    ]

    /// `onChange`, `progressHandler`, `observer`: a closure called for events, perhaps many times.
    static func isEvent(_ names: [String]) -> Bool {
        names.contains { name in
            let words = words(name)
            if words.contains(where: eventWords.contains) { return true }
            if let first = words.first, ["on", "did", "will", "when"].contains(first), words.count > 1 {
                return !words.dropFirst().contains(where: completionWords.contains)
            }
            return false
        }
    }

    /// `execute(_:)`, `withConnection(_:)`, `schedule(_:)`: a function that runs a
    /// closure as its work (or hands it a resource), rather than reporting a result.
    static func runsWork(_ functionName: String) -> Bool {
        guard let first = words(functionName).first else { return false }
        return ["with", "execute", "perform", "run", "schedule", "submit", "async", "dispatch", "spawn"].contains(first)
    }

    /// Words in a function's name that say its handler reports many values.
    static let updateWords: Set<String> = [
        "progress", "stream", "events", "messages", "updates", "changes", "observation", "subscription",
        "notifications",
    ]

    /// `downloadProgress(queue:closure:)`, `streamMessages(on:handler:)`: a function whose
    /// handler reports progress or a stream of values.
    static func namesUpdates(_ functionName: String) -> Bool {
        words(functionName).contains(where: updateWords.contains)
    }

    /// `NSKeyValueObservation`, `DatabaseObserver`, `Subscription`: a returned value that
    /// keeps a handler registered until it is cancelled.
    static func isRegistration(_ typeName: String) -> Bool {
        ["Observation", "Observer", "Subscription", "Registration", "Listener", "Callback", "Callbacks"].contains {
            typeName.hasSuffix($0)
        }
    }

    /// `completion`, `completionHandler`, `done`, `onFinish`: a handler named for the one
    /// time the operation ends (`handler` and `callback` say nothing either way).
    static func namesCompletion(_ names: [String]) -> Bool {
        names.contains { name in
            words(name).contains {
                ["completion", "complete", "completed", "done", "finish", "finished", "reply"].contains($0)
            }
        }
    }

    /// `Database`, `Connection`, `DatabaseContext`, `Transaction`: a type whose values are
    /// valid only inside the callback that receives them (a scoped form keeps them there).
    static func isResource(_ typeName: String) -> Bool {
        ["database", "connection", "context", "transaction", "statement", "cursor", "session"].contains {
            words(typeName).contains($0)
        }
    }

    static func isCompletion(_ names: [String]) -> Bool {
        names.contains { words($0).contains(where: completionWords.contains) }
    }

    /// `onResult`, `chunkHandler`, `progress`: a handler named for the values it receives
    /// (an `on…`/`each…` name, or one whose words other than `handler`/`callback`/`block`
    /// name no completion), not `completion`, `handler` or `resultHandler`.
    static func namesValues(_ names: [String]) -> Bool {
        names.contains { name in
            let words = words(name)
            if let first = words.first, ["on", "each", "did", "when", "per", "for"].contains(first), words.count > 1 {
                return true
            }
            let specific = words.filter { !["handler", "callback", "block", "closure"].contains($0) }
            return !specific.isEmpty && !specific.contains(where: completionWords.contains)
        }
    }

    /// `execute`, `block`, `updates`: a closure the API runs as its work.
    static func isWork(_ names: [String]) -> Bool {
        names.contains { name in words(name).first.map(workWords.contains) ?? false }
    }

    static func isSuccess(_ names: [String]) -> Bool {
        names.contains { name in
            let words = words(name)
            return words.contains("success") || words.contains("succeed") || words.contains("completion")
                || words.contains("then") || words.contains("done") || words.contains("result")
        }
    }

    static func isFailure(_ names: [String]) -> Bool {
        names.contains { name in
            let words = words(name)
            return words.contains("failure") || words.contains("error") || words.contains("fail")
                || words.contains("catch") || words.contains("failed")
        }
    }
}
