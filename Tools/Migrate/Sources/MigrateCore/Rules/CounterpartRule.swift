/// The API's own async form of an operation: no second form beside it.
struct CounterpartRule: Rule {
    static let summary = "An operation the API already offers as an async function or a stream gets no second form."

    /// The async function (or the stream) the API already offers for this operation:
    /// the one it names with `@available(*, renamed:)` or `@completionHandlerAsync`, or an
    /// async function or stream-returning one with the same base name that a call with
    /// the form's labels reaches, in the owner or a type it conforms to or inherits from.
    ///
    /// Also: one under another name whose body calls the function (`urlRequests()` built on
    /// `onURLRequestCreation(on:perform:)`); one reached by the form's labels without its
    /// defaulted parameters (`health(options:)` beside a form `health(options:flag:)`); and,
    /// for a protocol's requirement, one that a conforming type of the sources declares.
    func decide(_ candidate: FormCandidate, in context: RuleContext) -> (SkipReason, String)? {
        let (site, labels, index) = (candidate.site, candidate.labels, context.index)
        if let named = site.namedAsyncForm { return (.hasAsyncSibling, "names its async form `\(named)`") }
        let form = SourceIndex.FunctionEntry(
            labels: labels,
            defaulted: candidate.defaulted.count == labels.count ? candidate.defaulted : labels.map { _ in false },
            isAsync: true, isStatic: site.isStatic, parameterTypes: [], hasHandler: false, returnsStream: false,
            returnsValue: false)
        // With `--public-only` the forms are for other modules: a counterpart they cannot call
        // (an internal async function) is none, and a form in another module does not clash with it.
        let visible = { (entry: SourceIndex.FunctionEntry) in
            !context.options.publicOnly || entry.visibleAccess >= .public
        }
        var owners = index.selfAndSupertypes(site.context.ownerName)
        if site.isProtocolMember, let owner = site.context.ownerName { owners += index.conformingTypes(to: owner) }
        // A deprecated function renamed to another callback function: that one's counterpart
        // serves it too.
        if let renamed = site.renamedCallbackFunction {
            for owner in owners {
                for entry in index.entries(owner: owner, name: renamed.name)
                where visible(entry) && index.offersAsync(entry, owner: owner)
                    && Self.accepts(entry, labels: Array(renamed.labels.dropLast()))
                {
                    let prefix = owner.isEmpty ? "" : owner + "."
                    return (
                        .hasAsyncSibling,
                        "`\(prefix)\(selector(renamed.name, entry.labels))\(entry.isAsync ? " async" : "")`, "
                            + "the async form of `\(selector(renamed.name, renamed.labels))`, to which it is renamed"
                    )
                }
            }
        }
        for owner in owners {
            let prefix = owner.isEmpty ? "" : owner + "."
            for entry in index.entries(owner: owner, name: site.name)
            where visible(entry) && (index.offersAsync(entry, owner: owner) || Self.publisher(entry) != nil)
                && (Self.accepts(entry, labels: labels) || Self.sameLabels(entry, labels: labels)
                    || Self.accepts(form, labels: entry.labels))
            {
                let named = prefix + selector(site.name, entry.labels)
                // A Combine publisher is not async, but a second function with its name and
                // labels would make existing calls (`let p = client.f(x)`) ambiguous.
                if !entry.isAsync, let publisher = Self.publisher(entry) {
                    return (
                        .hasPublisherSibling,
                        "`\(named) -> \(publisher)`: a second `\(named)` would make its calls ambiguous"
                    )
                }
                return (.hasAsyncSibling, "`\(named)\(entry.isAsync ? " async" : "")`")
            }
            // (A private or underscored helper is no API: Alamofire's `downloadTask(…)` behind its
            // `serializing…` functions, NIO's `_map`.)
            for entry in index.entries(owner: owner)
            where visible(entry) && index.offersAsync(entry, owner: owner) && entry.name != site.name
                && entry.isStatic == site.isStatic
                && entry.access > .fileprivate && !entry.name.hasPrefix("_")
            {
                let named = "`\(prefix)\(selector(entry.name, entry.labels))\(entry.isAsync ? " async" : "")`"
                if entry.calls.contains(site.name) { return (.hasAsyncSibling, named + " calls it") }
                if let through = Self.sameCall(entry, as: site, owners: owners, in: index) {
                    return (.hasAsyncSibling, named + " makes the same call through `\(through)`")
                }
            }
        }
        return nil
    }

    /// The Combine publisher `entry` returns (`AnyPublisher`, `some Publisher`, a type named
    /// `…Publisher`), by its base name, or nil.
    static func publisher(_ entry: SourceIndex.FunctionEntry) -> String? {
        guard let spelled = entry.returnType else { return nil }
        let base = String(spelled.prefix { $0 != "<" }).trimmingCharacters(in: .whitespaces)
        return base.hasSuffix("Publisher") ? base : nil
    }

    /// `serializingData()` beside `responseData(queue:…:completionHandler:)`: the function
    /// calls `response(…)` with what it builds (`DataResponseSerializer(…)`), and `entry`
    /// passes the same to `serializingResponse(using:)`, which offers `response(…)` to await.
    /// Returns the name of the function `entry` goes through.
    static func sameCall(
        _ entry: SourceIndex.FunctionEntry, as site: FunctionSite, owners: [String], in index: SourceIndex
    ) -> String? {
        let owner = site.context.ownerName ?? ""
        guard
            let calls = index.entries(owner: owner, name: site.name, labels: site.parameters.map(\.label)).first?.calls
        else { return nil }
        for called in calls {
            let built = calls.subtracting([called, site.name])
            guard !built.isEmpty, built.isSubset(of: entry.calls) else { continue }
            for through in entry.calls.subtracting(calls.union([entry.name]))
            where owners.contains(where: { owner in
                index.entries(owner: owner, name: through).contains {
                    index.offersAsync($0, owner: owner) && $0.calls.contains(called)
                }
            }) {
                return through
            }
        }
        return nil
    }

    /// Whether a call with `labels` reaches `entry`: its labels, with some of its
    /// defaulted parameters left out.
    static func accepts(_ entry: SourceIndex.FunctionEntry, labels: [String?]) -> Bool {
        var wanted = labels[...]
        for (label, defaulted) in zip(entry.labels, entry.defaulted) {
            if let next = wanted.first, next == label {
                wanted = wanted.dropFirst()
            } else if !defaulted {
                return false
            }
        }
        return wanted.isEmpty
    }

    /// The same labels in another order: an async form that reorders its parameters.
    static func sameLabels(_ entry: SourceIndex.FunctionEntry, labels: [String?]) -> Bool {
        entry.labels.count == labels.count
            && entry.labels.map { $0 ?? "_" }.sorted() == labels.map { $0 ?? "_" }.sorted()
    }

    /// A public function beside an internal async function of the same name and labels.
    private static let internalCounterpart = """
        public final class Client: Sendable {
            public func speech(query: String, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
        }
        extension Client {
            func speech(query: String) async throws -> Int { 0 }
        }
        """

    static let examples: [RuleExample] = [
        RuleExample(
            "an override of a method with a form: the superclass's form calls the override (none in an extension)",
            before: """
                open class Request: @unchecked Sendable {
                    @discardableResult
                    open func response(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Self { self }
                }
                public final class DataRequest: Request, @unchecked Sendable {
                    @discardableResult
                    public override func response(
                        completion: @escaping @Sendable (Result<Int, any Error>) -> Void
                    ) -> Self { self }
                }
                """,
            function: "DataRequest.response(completion:)",
            after: .skipped(.coveredByOverridden, "`Request.response(completion:)`"),
            options: MigrationOptions(oneShot: ["response"])),
        RuleExample(
            "with --public-only, an internal async function is no counterpart: the module's users cannot call it",
            before: internalCounterpart,
            function: "Client.speech(query:completion:)",
            after: .generated(["public nonisolated(nonsending) func speech(query: String) async throws -> Int"]),
            options: MigrationOptions(publicOnly: true)),
        RuleExample(
            "a Combine publisher with the form's name and labels: skipped, and the reason says what it is",
            before: """
                public struct ChatResult: Sendable {}
                public protocol CancellableRequest: Sendable { func cancelRequest() }
                public final class Client: Sendable {
                    public func chatsStream(
                        query: String, onResult: @escaping @Sendable (Result<ChatResult, any Error>) -> Void,
                        completion: (@Sendable ((any Error)?) -> Void)?
                    ) -> any CancellableRequest { fatalError() }
                    public func chatsStream(query: String) -> AnyPublisher<Result<ChatResult, any Error>, any Error> {
                        fatalError()
                    }
                }
                """,
            function: "Client.chatsStream(query:onResult:completion:)",
            after: .skipped(
                .hasPublisherSibling,
                "`Client.chatsStream(query:) -> AnyPublisher`: a second `Client.chatsStream(query:)` would make")),
        RuleExample(
            "without --public-only, the same internal async function is the counterpart",
            before: internalCounterpart,
            function: "Client.speech(query:completion:)",
            after: .skipped(.hasAsyncSibling, "`Client.speech(query:) async`")),
        RuleExample(
            "a deprecated function renamed to a callback function that has an async form: that form serves it",
            before: """
                public final class Storage: Sendable {
                    @available(*, deprecated, renamed: "objectExists(forKey:completion:)")
                    public func existsObject(forKey key: String, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {}
                    public func objectExists(forKey key: String, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {}
                    public func objectExists(forKey key: String) async throws -> Bool { true }
                }
                """,
            function: "Storage.existsObject(forKey:completion:)",
            after: .skipped(.hasAsyncSibling, "`Storage.objectExists(forKey:) async`, the async form of")),
        RuleExample(
            "a task-returning function that passes the same serializer to the task form of the function's call is its counterpart",
            before: """
                public struct Failure: Error {}
                public struct DataSerializer: Sendable { public init() {} }
                public struct DataTask<Value: Sendable>: Sendable {
                    public var value: Value { get async throws { fatalError() } }
                }
                public final class DataRequest: @unchecked Sendable {
                    public func cancel() {}
                    public func response(
                        serializer: DataSerializer, completionHandler: @escaping @Sendable (Result<[UInt8], Failure>) -> Void
                    ) -> Self { self }
                    public func responseData(completionHandler: @escaping @Sendable (Result<[UInt8], Failure>) -> Void) -> Self {
                        response(serializer: DataSerializer(), completionHandler: completionHandler)
                    }
                    public func serializingResponse(using serializer: DataSerializer) -> DataTask<[UInt8]> {
                        _ = { response(serializer: serializer) { _ in } }
                        fatalError()
                    }
                    public func serializingData() -> DataTask<[UInt8]> { serializingResponse(using: DataSerializer()) }
                }
                """,
            function: "DataRequest.responseData(completionHandler:)",
            after: .skipped(
                .hasAsyncSibling, "`DataRequest.serializingData()` makes the same call through `serializingResponse`")),
        RuleExample(
            "a function returning a type of the sources that conforms to `AsyncSequence`, whose body calls the function, is its counterpart",
            before: """
                public final class Token: Sendable { public func cancel() {} }
                public struct Values: AsyncSequence, Sendable {
                    public typealias Element = Int
                    public struct AsyncIterator: AsyncIteratorProtocol { public mutating func next() async throws -> Int? { nil } }
                    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
                }
                public struct Observation: Sendable {
                    public func start(
                        onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Int) -> Void
                    ) -> Token { Token() }
                    public func values() -> Values {
                        _ = { start(onError: { _ in }, onChange: { _ in }) }
                        return Values()
                    }
                }
                """,
            function: "Observation.start(onError:onChange:)",
            after: .skipped(.hasAsyncSibling, "`Observation.values()` calls it")),
        RuleExample(
            "a deprecation that renames the function to another callback API: the form does not point back to it",
            before: """
                public final class API: Sendable {
                    @available(*, deprecated, renamed: "load(id:completion:)")
                    public func fetch(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "API.fetch(completion:)",
            after: .generated(["@available(*, deprecated)", "func fetch() async throws -> Int"], absent: ["renamed:"])),
        RuleExample(
            "a stream under another name whose body calls the function is its counterpart",
            before: """
                public final class Request: @unchecked Sendable {
                    public func cancel() {}
                    public func onURLRequestCreation(perform handler: @escaping @Sendable (String) -> Void) -> Self { self }
                    public func urlRequests() -> AsyncStream<String> {
                        AsyncStream { continuation in _ = onURLRequestCreation { continuation.yield($0) } }
                    }
                }
                """,
            function: "Request.onURLRequestCreation(perform:)",
            after: .skipped(.hasAsyncSibling, "`Request.urlRequests()` calls it")),
        RuleExample(
            "a form whose extra parameters have defaults, beside an async function reached without them, is a duplicate",
            before: """
                public enum Server {
                    public static func health(
                        options: [String] = [], allowIntermediateResponses: Bool = true, flag: Bool = false,
                        completion: @escaping @Sendable (Result<Int, any Error>) -> Void
                    ) {}
                    public static func health(options: [String] = []) async throws -> Int { 0 }
                }
                """,
            function: "Server.health(options:allowIntermediateResponses:flag:completion:)",
            after: .skipped(.hasAsyncSibling, "`Server.health(options:) async`")),
        RuleExample(
            "a protocol requirement whose conforming type has the stream already gets no second form",
            before: """
                public protocol Cancellable: Sendable { func cancelRequest() }
                public protocol Client: Sendable {
                    func speech(query: String, onResult: @escaping @Sendable (Result<Int, any Error>) -> Void, completion: (@Sendable ((any Error)?) -> Void)?) -> Cancellable
                }
                public final class OpenClient: Client {
                    public func speech(query: String, onResult: @escaping @Sendable (Result<Int, any Error>) -> Void, completion: (@Sendable ((any Error)?) -> Void)?) -> Cancellable { fatalError() }
                    public func speech(query: String) -> AsyncThrowingStream<Int, any Error> { fatalError() }
                }
                """,
            function: "Client.speech(query:onResult:completion:)",
            after: .skipped(.hasAsyncSibling, "`OpenClient.speech(query:)`")),
        RuleExample(
            "an async form that drops the callback queue already exists",
            before: """
                import Dispatch
                public final class Object: Sendable {
                    public func save(options: Int = 0, callbackQueue: DispatchQueue = .main,
                                     completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {}
                    public func save(options: Int = 0) async throws -> Bool { true }
                }
                """,
            function: "Object.save(options:callbackQueue:completion:)",
            after: .skipped(.hasAsyncSibling, "`Object.save(options:) async`")),
        RuleExample(
            "an async form with the same labels in another order",
            before: """
                public final class Login: Sendable {
                    public func login(user: String, token: String, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {}
                    public func login(token: String, user: String) async throws -> Bool { true }
                }
                """,
            function: "Login.login(user:token:completion:)",
            after: .skipped(.hasAsyncSibling, "login(token:user:) async")),
        RuleExample(
            "@available(*, renamed:) names the async form",
            before: """
                public final class API: Sendable {
                    @available(*, renamed: "fetch()")
                    public func fetch(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "API.fetch(completion:)",
            after: .skipped(.hasAsyncSibling, "names its async form `fetch()`")),
        RuleExample(
            "a stream-returning function with the same base name serves a progress handler",
            before: """
                import Dispatch
                open class Request: @unchecked Sendable {
                    @discardableResult public func cancel() -> Self { self }
                    public func downloadProgress(queue: DispatchQueue = .main, closure: @escaping @Sendable (Double) -> Void) -> Self { self }
                    public func downloadProgress(bufferingPolicy: Int = 0) -> AsyncStream<Double> { fatalError() }
                }
                """,
            function: "Request.downloadProgress(queue:closure:)",
            after: .skipped(.hasAsyncSibling, "downloadProgress(bufferingPolicy:)")),

    ]
}
