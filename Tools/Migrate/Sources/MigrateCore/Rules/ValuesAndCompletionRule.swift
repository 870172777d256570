/// A handler of values beside a terminal completion that carries no value of its own
/// (`stream(query:onResult:completion:)`, `upload(_:progress:completion:)` with an `(Error?)`
/// completion): the pair is one stream. Each value is yielded; a `.failure` value or a
/// non-nil terminal error finishes it by throwing; the completion finishes it; its
/// termination stops the operation.
struct ValuesAndCompletionRule: Rule {
    static let summary =
        "A value handler beside a completion that delivers no value is one stream, finished by the completion."

    /// The values' handler and the completion that ends them, with the reason.
    struct Pair: Equatable {
        var values: Int
        var completion: Int
        var reason: String
    }

    func decide(_ site: FunctionSite, in context: RuleContext) -> Pair? {
        let parameters = site.parameters
        let last = parameters.count - 1
        guard last >= 1, !MultiShotRule.isNamed(site, in: context.options.oneShot),
            let completion = context.handlerType(parameters[last]),
            let values = context.handlerType(parameters[last - 1]),
            completion.isEscaping, values.isEscaping,
            let end = HandlerShape(completion, isError: context.index.isError), end.endsWithoutValue,
            let shape = HandlerShape(values, isError: context.index.isError)?.carryingError(context.index),
            shape.streamElement != nil
        else { return nil }
        let valueNames = [parameters[last - 1].label, parameters[last - 1].name].compactMap { $0 }
        guard ClosureName.namesValues(valueNames) else { return nil }
        let valueName = parameters[last - 1].label ?? parameters[last - 1].name
        let completionName = parameters[last].label ?? parameters[last].name
        return Pair(
            values: last - 1, completion: last,
            reason: "`\(valueName)` delivers values until `\(completionName)` ends them")
    }

    /// The optional handlers of values beside a completion that delivers the value
    /// (`progress: ProgressBlock? = .none` before `completion: (Result<Response, E>) -> Void`):
    /// the one-shot form of the completion passes `nil`, so that nothing is called back after
    /// the wait has ended.
    static func optionalValueHandlers(_ site: FunctionSite, in context: RuleContext) -> [Int] {
        let last = site.parameters.count - 1
        return site.parameters.indices.filter { offset in
            let parameter = site.parameters[offset]
            return offset < last && TypeText.optionalWrapped(parameter.type) != nil
                && context.handlerType(parameter) != nil
                && ClosureName.namesValues([parameter.label, parameter.name].compactMap { $0 })
        }
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "a value handler and a terminal `(Error?)` completion: one stream, finished by the completion",
            before: """
                public final class RequestHandle: Sendable { public func cancel() {} }
                public struct Chunk: Sendable {}
                public final class Client: Sendable {
                    public func stream(
                        query: String, onResult: @escaping @Sendable (Result<Chunk, any Error>) -> Void,
                        completion: (@Sendable ((any Error)?) -> Void)? = nil
                    ) -> RequestHandle { RequestHandle() }
                }
                """,
            function: "Client.stream(query:onResult:completion:)",
            after: .generated([
                "public func stream(query: String) -> AsyncThrowingStream<Chunk, any Error> {",
                "let handle = stream(query: query) { result in",
                "end.continuation.yield(with: result.mapError { $0 })",
                "} completion: { error in",
                // The completion ends the operation: the stream's end then cancels nothing.
                "end.operationEnded(throwing: error)",
                "let end = StreamEnd(continuation, abandoned: AbandonedPromiseError(fileID: #fileID, line: #line))",
                "end.onStop { handle.cancel() }",
            ])),
        RuleExample(
            "progress values and a `() -> Void` completion: a stream of the progress that ends with the operation",
            before: """
                public final class Upload: Sendable { public func cancel() {} }
                public final class Client: Sendable {
                    public func upload(
                        _ data: [UInt8], progress: @escaping @Sendable (Double) -> Void,
                        done: @escaping @Sendable () -> Void
                    ) -> Upload { Upload() }
                }
                """,
            function: "Client.upload(_:progress:done:)",
            after: .generated([
                "public func upload(_ data: [UInt8]) -> AsyncThrowingStream<Double, any Error> {",
                "} done: {",
                "end.operationEnded()",
            ])),
        RuleExample(
            "a success handler and a completion are a one-shot pair, not a stream",
            before: """
                public final class Client: Sendable {
                    public func save(
                        success: @escaping @Sendable (Int) -> Void, completion: @escaping @Sendable () -> Void
                    ) {}
                }
                """,
            function: "Client.save(success:completion:)",
            after: .generated(["async throws"], absent: ["AsyncThrowingStream"])),
        RuleExample(
            "an optional progress handler beside a completion that delivers the value: the one-shot form passes nil",
            before: """
                public protocol Cancellable { func cancel() }
                public typealias ProgressBlock = (_ progress: Double) -> Void
                public final class Provider: Sendable {
                    @discardableResult
                    public func request(
                        _ target: String, progress: ProgressBlock? = .none,
                        completion: @escaping @Sendable (Result<Int, any Error>) -> Void
                    ) -> any Cancellable { fatalError() }
                }
                """,
            function: "Provider.request(_:progress:completion:)",
            after: .generated(
                ["func request(_ target: String) async throws -> Int {", "request(target, progress: nil, completion:"],
                absent: ["AsyncThrowingStream", "progress: ProgressBlock"])),
    ]
}
