import SwiftSyntax

/// The last hop of a callback pyramid, `DispatchQueue.main.async { completion(…) }`: the
/// async version drops it, and the shim delivers on the main queue, where the handler ran
/// before. The hop may hold nothing but the handler's call (other code there ran on the
/// main queue), and every call of the handler must have made it, or none.
struct CompletionHopRule: DocumentedFunctionRule {
    static let summary =
        "`DispatchQueue.main.async { completion(…) }` is dropped from the async version, and the shim delivers on "
        + "`.main`; a hop with other code in it, or a handler called from a hop on some paths only, leaves the "
        + "function alone."

    /// The hop's only statement (its handler call), or nil when `item` is not such a hop.
    static func peel(_ item: CodeBlockItemSyntax) -> CodeBlockItemSyntax? {
        guard let call = CompletionPathRule.statementCall(item),
            CounterpartCallRule.isMainQueue(
                call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.trimmedDescription ?? ""),
            call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "async",
            call.arguments.isEmpty, let closure = call.trailingClosure, closure.signature == nil,
            closure.statements.count == 1, let only = closure.statements.first
        else { return nil }
        return only
    }

    /// Whether the hops agree: every call of the handler in one, or none.
    static func check(_ function: FunctionRewrite) -> FunctionLeave? {
        guard Set(function.hops).count > 1 else { return nil }
        return FunctionLeave(
            reason: .completionEscapes, line: function.line,
            detail: "the handler is called on the main queue on some paths only: the shim cannot deliver on both")
    }

    static let examples: [CallExample] = [
        CallExample(
            "the last hop to the main queue: dropped, and the shim delivers on the main queue",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    loadTitle(api: api, id: 1) { result in
                        trace.delivered("title \\(result)")
                    }
                }

                func loadTitle(api: FakeAPI, id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                    api.load(id: id) { result in
                        switch result {
                        case .success(let text):
                            DispatchQueue.main.async {
                                completion(.success(text.uppercased()))
                            }
                        case .failure(let error):
                            DispatchQueue.main.async {
                                completion(.failure(error))
                            }
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) {
                    loadTitle(api: api, id: 1) { result in
                        trace.delivered("title \\(result)")
                    }
                }

                func loadTitle(api: FakeAPI, id: Int) async throws -> String {
                    let text = try await api.load(id: id)
                    return text.uppercased()
                }

                /// Completion-handler form of `loadTitle(api:id:)`, for callers not migrated yet.
                @available(*, renamed: "loadTitle(api:id:)")
                func loadTitle(api: FakeAPI, id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                    Future<String> { try await loadTitle(api: api, id: id) }.deliver(on: .main, to: completion)
                }
                """)),
        CallExample(
            "an async caller: its code still runs on the main queue, as the handler did",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    loadTitle(api: api, id: 2) { result in
                        switch result {
                        case .success(let title):
                            trace.log("title \\(title)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                    }
                }

                func loadTitle(api: FakeAPI, id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                    api.load(id: id) { result in
                        DispatchQueue.main.async {
                            completion(result)
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let title = try await loadTitle(api: api, id: 2)
                        await MainActor.run {
                            trace.log("title \\(title)")
                        }
                    } catch {
                        await MainActor.run {
                            trace.failed(error)
                        }
                    }
                }

                func loadTitle(api: FakeAPI, id: Int) async throws -> String {
                    return try await api.load(id: id)
                }

                /// Completion-handler form of `loadTitle(api:id:)`, for callers not migrated yet.
                @available(*, renamed: "loadTitle(api:id:)")
                func loadTitle(api: FakeAPI, id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                    Future<String> { try await loadTitle(api: api, id: id) }.deliver(on: .main, to: completion)
                }
                """)),
        CallExample(
            "the handler called from the main queue on one path only: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    check(api: api) { error in
                        trace.delivered("checked \\(error == nil)")
                    }
                }

                func check(api: FakeAPI, completion: @escaping @Sendable ((any Error)?) -> Void) {
                    api.save("a") { error in
                        if let error {
                            completion(error)
                            return
                        }
                        DispatchQueue.main.async {
                            completion(nil)
                        }
                    }
                }
                """,
            after: .leftAlone(.completionEscapes, "on some paths only")),
    ]
}
