import SwiftSyntax

/// A handler that receives a value and no error (`(T) -> Void`, `() -> Void`): its code
/// runs after the await, and the errors the async form adds (`AbandonedPromiseError` for a
/// handler released uncalled, `CancellationError`) end the wait without running it, as
/// nothing ran before when the handler was never called.
struct ValueHandlerRule: CallRule {
    static let summary =
        "A `(T) -> Void` or `() -> Void` handler's code runs after `let value = try await …`; the errors only the "
        + "async form can throw end the wait in an empty `catch`, where nothing ran before."

    static let swallowed =
        "the handler receives no error: a handler released uncalled or a cancelled wait now ends in an empty "
        + "`catch` (before, nothing ran either)"

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        guard rewrite.branches == nil, let entry = rewrite.entry, let names = rewrite.parameterNames else {
            return .proceed(rewrite)
        }
        switch entry.shape {
        case .value(let type) where type.trimmedDescription == "Bool" && entry.kind != .generated:
            // `save(completion: (Bool) -> Void)` beside the API's own `save() async throws`: `false`
            // may now be a thrown error (and `let ok = try await save()` would not compile).
            return .leave(
                .handlerPattern,
                "a `(Bool)` handler whose counterpart is the API's own async function: whether it returns the `Bool` "
                    + "or throws where `false` was passed is not known")
        case .value where names.count <= 1:
            let name = names.first.flatMap { $0 == "_" ? nil : $0 }
            rewrite.branches = HandlerBranches(valueName: name, success: rewrite.body, errorName: nil, failure: [])
        case .none where names.isEmpty:
            rewrite.branches = HandlerBranches(valueName: nil, success: rewrite.body, errorName: nil, failure: [])
        default:
            return .proceed(rewrite)
        }
        if CallRewrite.uses("error", in: rewrite.body) {
            // `catch` would not bind it, but the success code sits in `do`: an outer `error` is still seen.
            return .proceed(rewrite)
        }
        rewrite.notes.append(Self.swallowed)
        return .proceed(rewrite)
    }

    static let examples: [CallExample] = [
        CallExample(
            "a `(Bool)` handler beside the API's own `async throws` function: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    let cache = FakeCache()
                    cache.store("a") { ok in
                        if ok {
                            trace.log("stored")
                        } else {
                            trace.log("not stored")
                        }
                    }
                }
                """,
            after: .leftAlone(.handlerPattern, "whether it returns the `Bool` or throws")),
        CallExample(
            "a value and no error",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.measure("abc") { length in
                        trace.log("length \\(length)")
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let length = try await api.measure("abc")
                        trace.log("length \\(length)")
                    } catch {}
                }
                """),
            notes: ["receives no error"]),
        CallExample(
            "nothing at all",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.ping {
                        trace.log("pong")
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        try await api.ping()
                        trace.log("pong")
                    } catch {}
                }
                """)),
    ]
}
