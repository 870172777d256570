import SwiftSyntax

/// The call reaches the function by its receiver's type, not only by its name and labels:
/// a call on an unrelated type with a method of the same name and labels must not become
/// an await of a counterpart that type does not have.
struct ReceiverTypeRule: CallRule {
    static let summary =
        "The receiver's type, where the syntax says it (`self` in a type, `Type.f`, a local, parameter or property "
        + "with a written type or an initializer call), picks the functions the call reaches; when several types "
        + "declare a handler function with the call's name and labels and the type is not known, the call is left "
        + "alone."

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        let name = rewrite.matches.first.map { selector($0.0.name, $0.0.labels) } ?? "?"
        let accepted: (String?) -> Bool
        let receiver: String
        switch ReceiverType.of(rewrite.call) {
        case .type(let type):
            let types = Set(context.index.selfAndSupertypes(type).map(SourceIndex.lastComponent))
            accepted = { $0.map { types.contains(SourceIndex.lastComponent($0)) } ?? false }
            receiver = "`\(type)`"
        case .implicitSelf(let type):
            // A free function, or a method of the enclosing type (or of its supertypes).
            let types = Set(context.index.selfAndSupertypes(type).map(SourceIndex.lastComponent))
            accepted = { $0.map { types.contains(SourceIndex.lastComponent($0)) } ?? true }
            receiver = type.map { "`\($0)`" } ?? "file scope"
        case .unknown:
            let owners = rewrite.declaringOwners.map { $0.map { "`\($0)`" } ?? "a free function" }
            guard owners.count <= 1 else {
                return .leave(
                    .receiverUnknown,
                    "\(owners.joined(separator: ", ")) declare `\(name)`: the receiver's type decides, and the syntax "
                        + "does not say it")
            }
            return .proceed(rewrite)
        }
        rewrite.matches = rewrite.matches.filter { accepted($0.0.owner) }
        guard !rewrite.matches.isEmpty else {
            return .leave(.otherReceiver, "the receiver is a \(receiver), whose `\(name)` has no async counterpart")
        }
        return .proceed(rewrite)
    }

    static let examples: [CallExample] = [
        CallExample(
            "two types declare `load(id:completion:)`: the parameter's type picks `FakeAPI`'s",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.load(id: 1) { result in
                        if case .success(let user) = result {
                            trace.log("loaded \\(user)")
                        } else {
                            trace.log("none")
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let user = try await api.load(id: 1)
                        trace.log("loaded \\(user)")
                    } catch {
                        trace.log("none")
                    }
                }
                """)),
        CallExample(
            "a call on `FakeCache` (its initializer call says so) is not a call of `FakeAPI.load(id:completion:)`",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    let cache = FakeCache()
                    cache.load(id: 1) { result in
                        if case .success(let user) = result {
                            trace.log("cached \\(user)")
                        }
                    }
                }
                """,
            after: .leftAlone(.otherReceiver, "`FakeCache`")),
        CallExample(
            "the receiver's type is not written: two types declare `load(id:completion:)`, the call is left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    let source = api
                    source.load(id: 1) { result in
                        if case .success(let user) = result {
                            trace.log("loaded \\(user)")
                        }
                    }
                }
                """,
            after: .leftAlone(.receiverUnknown, "`FakeAPI`, `FakeCache` declare `load(id:completion:)`")),
    ]
}
