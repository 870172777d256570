import SwiftSyntax

/// `[weak self]` with `guard let self else { return }`: after the rewrite the method's
/// own `self` is used, which stays alive until the awaited call returns. The report says
/// so at the call's line; any other capture list leaves the call alone.
struct WeakSelfRule: CallRule {
    static let summary =
        "`[weak self]` with `guard let self else { return }` becomes the method's `self`, reported as an object "
        + "kept alive across the await; any other capture list is left alone."

    static let keptAlive =
        "object kept alive across the await: `[weak self]` is gone, so `self` lives until the call returns "
        + "(before, a released object skipped the handler's code)"

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        guard let capture = rewrite.handler?.signature?.capture else { return .proceed(rewrite) }
        guard capture.items.count == 1, let item = capture.items.first,
            item.specifier?.specifier.tokenKind == .keyword(.weak), item.name.text == "self", item.initializer == nil
        else {
            return .leave(.captureList, "`\(capture.trimmedDescription)` captures values at the call")
        }
        guard let first = rewrite.body.first, Self.isGuardSelf(first) else {
            return .leave(.captureList, "`[weak self]` without `guard let self else { return }` first")
        }
        rewrite.body.removeFirst()
        rewrite.notes.append(Self.keptAlive)
        return .proceed(rewrite)
    }

    /// `guard let self else { return }` or `guard let self = self else { return }`.
    static func isGuardSelf(_ item: CodeBlockItemSyntax) -> Bool {
        guard let statement = item.item.as(GuardStmtSyntax.self),
            CallRewrite.optionalBinding(statement.conditions, of: "self") == "self",
            statement.body.statements.count == 1
        else { return false }
        return CallRewrite.endsWithReturn(Array(statement.body.statements))
    }

    static let examples: [CallExample] = [
        CallExample(
            "weak self with guard let self: kept alive, and said so",
            before: """
                final class Model: Sendable {
                    let api: FakeAPI
                    let trace: Trace

                    init(api: FakeAPI, trace: Trace) {
                        self.api = api
                        self.trace = trace
                    }

                    func refresh() async {
                        api.load(id: 5) { [weak self] result in
                            guard let self else { return }
                            switch result {
                            case .success(let value):
                                self.trace.log("got \\(value)")
                            case .failure(let error):
                                self.trace.failed(error)
                            }
                        }
                    }
                }

                func run(api: FakeAPI, trace: Trace) async {
                    let model = Model(api: api, trace: trace)
                    trace.keepAlive(model)
                    await model.refresh()
                }
                """,
            after: .rewritten(
                """
                final class Model: Sendable {
                    let api: FakeAPI
                    let trace: Trace

                    init(api: FakeAPI, trace: Trace) {
                        self.api = api
                        self.trace = trace
                    }

                    func refresh() async {
                        do {
                            let value = try await api.load(id: 5)
                            self.trace.log("got \\(value)")
                        } catch {
                            self.trace.failed(error)
                        }
                    }
                }

                func run(api: FakeAPI, trace: Trace) async {
                    let model = Model(api: api, trace: trace)
                    trace.keepAlive(model)
                    await model.refresh()
                }
                """),
            notes: ["object kept alive across the await"]),
        CallExample(
            "weak self used as an optional: left alone",
            before: """
                final class Model: Sendable {
                    let trace = Trace()

                    func refresh(api: FakeAPI) async {
                        api.save("a") { [weak self] error in
                            self?.trace.log("saved \\(error == nil)")
                        }
                    }
                }
                """,
            after: .leftAlone(.captureList, "without `guard let self")),
    ]
}
