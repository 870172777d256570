import SwiftSyntax

/// A stream form of a request object's hook (`onHTTPResponse(on:perform:) -> Self`, a
/// progress handler) ends when the request ends: a finish event of the same object, a method
/// of its type (or a superclass) whose one handler is called once when the request has
/// finished (`response(queue:completionHandler:)`, `onFinish(_:)`, `whenFinished(_:)`), is
/// registered beside the hook. When only subclasses declare one (Alamofire's base `Request`
/// and `DataRequest.response(queue:completionHandler:)`), the form registers the one of the
/// subclass the request is an instance of. Without one, the loop ends only when the library
/// releases the handler or its consumer stops, and the form says so.
struct FinishEventRule: Rule {
    static let summary =
        "A request object's stream form ends when the request finishes, through a finish handler its type declares."

    /// The finish handler found: its name, parameters and whether it returns something.
    struct FinishEvent {
        var name: String
        var parameters: [Parameter]
        var returnsValue: Bool
        /// How many parameters its handler takes.
        var handlerArity: Int
        /// The subclass that declares it, when the hook's own type does not.
        var subclass: String?
        /// For a handler called with every event, the last one: its case, and where the
        /// handler's value (named `value`) holds it (`value.event`); nil for a handler called
        /// once, when the request has finished.
        var terminal: (case: String, subject: String)?

        /// The pattern of the last event: `case .complete = value.event`.
        var condition: String? { terminal.map { "case .\($0.case) = \($0.subject)" } }

        /// What happens when the request finishes, for the documentation.
        var happening: String {
            "`\(selector)`" + (terminal.map { " reports `.\($0.case)`" } ?? " is called")
        }

        var selector: String { name + "(" + parameters.map { ($0.label ?? "_") + ":" }.joined() + ")" }
    }

    enum Verdict {
        /// The function does not return its own object: not a request object's hook.
        case notARequest
        case finishes(FinishEvent)
        /// Declared by subclasses only: one for each, by subclass name.
        case finishesInSubclasses([FinishEvent])
        /// A request object's hook whose type declares no finish handler.
        case undetermined

        /// Whether the form registers a finish handler.
        var hasFinishEvent: Bool {
            switch self {
            case .finishes, .finishesInSubclasses: true
            case .notARequest, .undetermined: false
            }
        }
    }

    /// Verbs that do what they say: a method named so is not registered to watch.
    static let actions: Set<String> = ["finish", "end", "complete", "close", "cancel", "stop", "terminate", "abort"]

    static let finishWords: Set<String> = ["finish", "finished", "finishes", "done", "end", "ended", "completion"]

    func decide(_ site: FunctionSite, in context: RuleContext) -> Verdict {
        guard let owner = site.context.ownerName, let returned = site.returnType,
            text(returned) == "Self" || TypeText.simpleName(returned) == SourceIndex.lastComponent(owner)
        else { return .notARequest }
        let index = context.index
        let types = [owner] + index.allConformances(of: owner).filter { index.typeInfo($0)?.kind == .class }
        if let own = Self.best(types.flatMap { events(declaredBy: $0, site: site, in: context) }) {
            return .finishes(own)
        }
        // Subclasses of the sources, visible to the generated file, each with its own event.
        let lowest = context.options.publicOnly ? Access.public : .internal
        let simple = SourceIndex.lastComponent(owner)
        // The deepest first: a cast to a subclass's subclass is tried before the cast to its parent.
        // Not a subclass that only some builds declare (`#if canImport(Darwin)`), nor one outside
        // the public API (`@_spi`) for files compiled outside the module, nor a generic one.
        let subclasses = index.types.keys.sorted().filter { name in
            guard let info = index.typeInfo(name), info.kind == .class, name != owner, info.access >= lowest,
                info.conditions.isEmpty, !(context.options.publicOnly && info.spi != nil),
                info.genericParameterList.isEmpty  // `as? GenericRequest` cannot infer its parameter
            else {
                return false
            }
            return index.allConformances(of: name).contains(simple)
        }.sorted { index.allConformances(of: $0).count > index.allConformances(of: $1).count }
        let inSubclasses = subclasses.compactMap { subclass in
            Self.best(events(declaredBy: subclass, site: site, in: context)).map { event in
                var event = event
                event.subclass = SourceIndex.lastComponent(subclass)
                return event
            }
        }
        return inSubclasses.isEmpty ? .undetermined : .finishesInSubclasses(inSubclasses)
    }

    /// The finish handlers `type` itself declares.
    private func events(declaredBy type: String, site: FunctionSite, in context: RuleContext) -> [FinishEvent] {
        let lowest = context.options.publicOnly ? Access.public : .internal
        var found: [FinishEvent] = []
        for entry in context.index.entries(owner: type)
        where entry.name != site.name && !entry.isStatic && !entry.isAsync && entry.access >= lowest
            && entry.isolation.globalActor == nil
        {
            guard let last = entry.parameters.last, entry.parameters.dropLast().allSatisfy(\.hasDefault),
                let closure = ClosureType(last.type, aliases: context.index.alias), closure.returnsVoid
            else { continue }
            let names = ClosureName.words(entry.name)
            // `finish(completion:)`, `end(_:)`: an action that ends the request, not an event;
            // `setFinishHandler(_:)`, or one documented as setting or replacing its closure: a
            // single slot, which registering would take from the handler a user set.
            guard let first = names.first, !Self.actions.contains(first), first != "set",
                !entry.summary.hasPrefix("sets "), !entry.summary.contains("replac")
            else { continue }
            var event = FinishEvent(
                name: entry.name, parameters: entry.parameters, returnsValue: entry.returnsValue,
                handlerArity: closure.parameters.count)
            let summary = entry.summary
            if names.contains(where: Self.finishWords.contains)
                || ["has finished", "is finished", "finishes", "has completed", "completes"].contains(
                    where: summary.contains)
            {
                found.append(event)
            } else if closure.parameters.count == 1, let value = closure.parameters.first,
                let terminal = context.index.terminalCase(of: value, in: type, value: "value", lowest: lowest)
            {
                // A handler called with every event, the last of which says the request is over
                // (Alamofire's `DataStreamRequest.responseStream(on:stream:)` and its `.complete`).
                event.terminal = terminal
                found.append(event)
            }
        }
        return found
    }

    /// The simplest: a handler called once before one called with every event, then the
    /// fewest parameters, then the shortest name.
    private static func best(_ events: [FinishEvent]) -> FinishEvent? {
        events.min {
            ($0.condition != nil ? 1 : 0, $0.parameters.count, $0.name.count, $0.name)
                < ($1.condition != nil ? 1 : 0, $1.parameters.count, $1.name.count, $1.name)
        }
    }

    /// The base class of the examples whose subclasses declare the finish events.
    private static let requestBase = """
        import Dispatch
        open class Request: @unchecked Sendable {
            public func cancel() {}
            /// Calls `handler` with each redirect.
            public func onRedirect(on queue: DispatchQueue = .main, perform handler: @escaping @Sendable (String) -> Void) -> Self { self }
        }
        """

    static let examples: [RuleExample] = [
        RuleExample(
            "a request's hook ends with the request: its `response` handler, called once it has finished, finishes the stream",
            before: """
                import Dispatch
                open class Request: @unchecked Sendable {
                    public func cancel() {}
                    /// Calls `handler` with each redirect.
                    public func onRedirect(on queue: DispatchQueue = .main, perform handler: @escaping @Sendable (String) -> Void) -> Self { self }
                    /// Adds a handler to be called once the request has finished.
                    public func response(queue: DispatchQueue = .main, completionHandler: @escaping @Sendable (Int) -> Void) -> Self { self }
                }
                """,
            function: "Request.onRedirect(on:perform:)",
            after: .generated([
                #"let queue2 = DispatchQueue(label: "Request.onRedirect")"#,
                "let handle = onRedirect(on: queue2) { value in",
                "_ = handle.response(queue: queue2) { _ in",
                "end.operationEnded()",
                "(`response(queue:completionHandler:)` is called; that end cancels nothing)",
                // The request holds the handler: the stop holds the request weakly.
                "end.onStop { [weak handle] in handle?.cancel() }",
                // Adding a response handler may start the request: the documentation says so.
                "like any response handler, starts a request that waits for its first one.",
            ])),
        RuleExample(
            "a finish handler declared only by subclasses: the form registers the one of the request's class",
            before: """
                \(requestBase)
                public final class DataRequest: Request, @unchecked Sendable {
                    /// Adds a handler to be called once the request has finished.
                    public func response(queue: DispatchQueue = .main, completionHandler: @escaping @Sendable (Int) -> Void) -> Self { self }
                }
                public final class DownloadRequest: Request, @unchecked Sendable {
                    /// Adds a handler to be called once the download has finished.
                    public func responseURL(queue: DispatchQueue = .main, completionHandler: @escaping @Sendable (String) -> Void) -> Self { self }
                }
                """,
            function: "Request.onRedirect(on:perform:)",
            after: .generated([
                "if let request = handle as? DataRequest {",
                "_ = request.response(queue: queue2) { _ in",
                "} else if let request = handle as? DownloadRequest {",
                "_ = request.responseURL(queue: queue2) { _ in",
                "a request of another class ends only when the library",
            ])),
        RuleExample(
            "a subclass whose stream handler is called with every event: its last one (`.complete`) finishes the stream",
            before: """
                \(requestBase)
                public final class DataStreamRequest: Request, @unchecked Sendable {
                    public typealias Handler<Success: Sendable> = @Sendable (Stream<Success>) throws -> Void
                    public struct Stream<Success: Sendable>: Sendable {
                        public let event: Event<Success>
                    }
                    public enum Event<Success: Sendable>: Sendable {
                        case stream(Success)
                        case complete(Int)
                    }
                    /// Adds a handler called with the data as it arrives.
                    public func responseStream(on queue: DispatchQueue = .main, stream: @escaping Handler<String>) -> Self { self }
                }
                // Another type's alias of the same name does not hide `DataStreamRequest.Stream`.
                public enum DataStreamTask {
                    public typealias Stream<Success: Sendable> = AsyncStream<Success>
                }
                """,
            function: "Request.onRedirect(on:perform:)",
            after: .generated([
                "if let request = handle as? DataStreamRequest {",
                "_ = request.responseStream(on: queue2) { value in",
                "if case .complete = value.event {",
                "end.operationEnded()",
                "(`DataStreamRequest.responseStream(on:stream:)` reports `.complete` for a",
            ])),
        RuleExample(
            "a subclass that only some builds declare (`#if`) or outside the public API (`@_spi`): no cast names it",
            before: """
                \(requestBase)
                public final class DataRequest: Request, @unchecked Sendable {
                    /// Adds a handler to be called once the request has finished.
                    public func response(queue: DispatchQueue = .main, completionHandler: @escaping @Sendable (Int) -> Void) -> Self { self }
                }
                #if canImport(Darwin)
                public final class SocketRequest: Request, @unchecked Sendable {
                    /// Adds a handler to be called once the socket has finished.
                    public func response(queue: DispatchQueue = .main, completionHandler: @escaping @Sendable (Int) -> Void) -> Self { self }
                }
                #endif
                @_spi(Preview) public final class PreviewRequest: Request, @unchecked Sendable {
                    /// Adds a handler to be called once the preview has finished.
                    public func response(queue: DispatchQueue = .main, completionHandler: @escaping @Sendable (Int) -> Void) -> Self { self }
                }
                """,
            function: "Request.onRedirect(on:perform:)",
            after: .generated(
                ["if let request = handle as? DataRequest {"], absent: ["as? SocketRequest", "as? PreviewRequest"]),
            options: MigrationOptions(publicOnly: true)),
        RuleExample(
            "events a form could not read or wait for: no cast, and the form says when its loop ends",
            before: """
                \(requestBase)
                public final class UpdateRequest: Request, @unchecked Sendable {
                    public struct Update: Sendable {
                        let state: State  // internal: a file outside the module cannot read it
                        public static let last: State = .finished  // not the value's
                        public var status: State { get throws { .finished } }  // needs `try`
                        public let kind: Kind  // its own `Kind`, not the module's
                        public enum Kind: Sendable { case data, heartbeat }
                    }
                    /// Adds a handler called with every update.
                    public func onUpdate(on queue: DispatchQueue = .main, perform handler: @escaping @Sendable (Update) -> Void) -> Self { self }
                }
                public enum State: Sendable { case running, finished }
                public enum Kind: Sendable { case started, done }
                public final class OutcomeRequest: Request, @unchecked Sendable {
                    public enum Outcome: Sendable { case completed(Int), failed(String) }
                    /// Adds a handler called with the outcome: one that ends otherwise than `.completed`.
                    public func onOutcome(on queue: DispatchQueue = .main, perform handler: @escaping @Sendable (Outcome) -> Void) -> Self { self }
                }
                public final class SlotRequest: Request, @unchecked Sendable {
                    /// Sets the closure called whenever the state changes, replacing any previous one.
                    public func onStateChange(on queue: DispatchQueue = .main, perform handler: @escaping @Sendable (State) -> Void) -> Self { self }
                }
                public final class GenericRequest<Body>: Request, @unchecked Sendable {
                    /// Adds a handler to be called once the request has finished.
                    public func response(queue: DispatchQueue = .main, completionHandler: @escaping @Sendable (Int) -> Void) -> Self { self }
                }
                public final class DebugRequest: Request, @unchecked Sendable {
                    public enum Signal: Sendable {
                        case data
                        #if DEBUG
                            case finished
                        #endif
                    }
                    /// Adds a handler called with every signal.
                    public func onSignal(on queue: DispatchQueue = .main, perform handler: @escaping @Sendable (Signal) -> Void) -> Self { self }
                }
                """,
            function: "Request.onRedirect(on:perform:)",
            after: .generated(
                ["declares no finish event, so the loop ends only when the library releases"],
                absent: [
                    "as? UpdateRequest", "as? OutcomeRequest", "as? SlotRequest", "as? GenericRequest",
                    "as? DebugRequest",
                ]),
            options: MigrationOptions(publicOnly: true)),
        RuleExample(
            "no finish event (`finish(completion:)` is an action, `setFinishHandler(_:)` a setter): the form says when its loop ends",
            before: """
                import Dispatch
                open class Request: @unchecked Sendable {
                    public func cancel() {}
                    /// Finishes the upload; calls `completion` once it has finished.
                    public func finish(completion: @escaping @Sendable () -> Void) -> Self { self }
                    /// Sets the one handler called once the request has finished.
                    public func setFinishHandler(_ handler: @escaping @Sendable () -> Void) -> Self { self }
                    /// Calls `handler` with each redirect.
                    public func onRedirect(on queue: DispatchQueue = .main, perform handler: @escaping @Sendable (String) -> Void) -> Self { self }
                }
                """,
            function: "Request.onRedirect(on:perform:)",
            after: .generated(
                ["declares no finish event, so the loop ends only when the library releases"],
                absent: ["response(", "handle.finish", "handle.setFinishHandler"])),
    ]
}
