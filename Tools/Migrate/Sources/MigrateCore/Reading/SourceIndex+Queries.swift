import SwiftSyntax

/// What the index knows of types, aliases, functions and hooks.
extension SourceIndex {
    // MARK: - Queries

    /// An error type: spelled as one (`Error`, `any Error`, `NSError`), or a type that
    /// conforms to `Error` (directly, or through a protocol or superclass the index knows).
    func isError(_ type: TypeSyntax) -> Bool {
        if TypeText.isError(type) { return true }
        guard TypeText.optionalWrapped(type) == nil, let name = TypeText.simpleName(type),
            let info = typeInfo(name), info.kind != .protocol
        else { return false }
        return allConformances(of: info.name).contains { ["Error", "LocalizedError", "CustomNSError"].contains($0) }
    }

    /// `E?` where `E` is an error type.
    func isOptionalError(_ type: TypeSyntax) -> Bool {
        TypeText.optionalWrapped(type).map(isError) ?? false
    }

    func typeInfo(_ name: String) -> TypeInfo? {
        types[name] ?? typesBySimpleName[Self.lastComponent(name)]
    }

    /// What a type alias of the sources stands for: `Completion` (plain) or
    /// `Handler<Int>` (generic, its arguments substituted).
    func alias(_ identifier: IdentifierTypeSyntax) -> TypeSyntax? {
        guard let clause = identifier.genericArgumentClause else { return aliases[identifier.name.text] }
        guard let alias = genericAliasDeclarations[identifier.name.text] else { return nil }
        let arguments = clause.arguments.map { text($0.with(\.trailingComma, nil)) }
        return TypeText.substituted(alias.type, Dictionary(zip(alias.parameters, arguments)) { first, _ in first })
    }

    /// Whether `Result` names a type of these sources rather than Swift's in code inside
    /// `owner`: a file-scope `Result`, or one nested in `owner` or in a type enclosing it.
    /// A `Result` nested elsewhere (`PathMonitor.Result`) changes nothing outside its type.
    func shadowsResult(in owner: String?) -> Bool {
        if topLevelTypes.contains("Result") { return true }
        guard var scope = owner else { return false }
        while true {
            if types[scope + ".Result"] != nil { return true }
            guard let dot = scope.lastIndex(of: ".") else { return false }
            scope = String(scope[..<dot])
        }
    }

    /// Every function named `name` under `owner`, whatever its labels.
    func entries(owner: String, name: String) -> [FunctionEntry] {
        functionsByName[owner + "|" + name] ?? []
    }

    /// Whether `owner` declares a property named `name`.
    func hasProperty(owner: String, name: String) -> Bool {
        propertyNames[owner + "|" + name] ?? false
    }

    /// `owner` and every type it conforms to or inherits from, as far as the sources tell.
    func selfAndSupertypes(_ owner: String?) -> [String] {
        guard let owner, !owner.isEmpty else { return [""] }
        return [owner] + allConformances(of: owner)
    }

    /// A type spelled with a type alias of the sources, expanded (a generic alias with
    /// its arguments substituted).
    func expand(_ type: TypeSyntax) -> TypeSyntax {
        var current = TypeText.unparenthesized(type)
        for _ in 0..<8 {
            guard let identifier = current.as(IdentifierTypeSyntax.self) else { break }
            guard let aliased = alias(identifier) else { break }
            current = TypeText.unparenthesized(aliased)
        }
        return current
    }

    /// How a handler's value reports a failure of its own.
    enum CarriedError {
        /// The value has `result: Result<Success, Failure>` (Alamofire's `DataResponse`).
        case resultMember(success: TypeSyntax, failure: TypeSyntax)
        /// The value has `error: Error?`, set when the operation failed.
        case errorMember
    }

    /// Whether values of `type` (a type of the sources) carry the operation's error.
    func carriedError(in type: TypeSyntax) -> CarriedError? {
        // Only the module's own response types: another module's `error` property (a
        // `URLSessionTask`'s) is not the operation's failure.
        guard let (name, arguments) = TypeText.nominal(expand(type)), let info = typeInfo(name), !info.isFromInterface,
            info.kind == .struct || info.kind == .class || info.kind == .enum
        else { return nil }
        var map: [String: String] = [:]
        for (parameter, argument) in zip(info.genericParameterList, arguments) { map[parameter] = text(argument) }
        if let result = info.properties["result"], let (success, failure) = TypeText.resultArguments(result),
            !shadowsResult(in: info.name)
        {
            return .resultMember(
                success: TypeText.substituted(success, map), failure: TypeText.substituted(failure, map))
        }
        if let error = info.properties["error"], TypeText.isOptionalError(error) { return .errorMember }
        return nil
    }

    /// Case names that say no value comes after them.
    static let terminalCases: Set<String> = [
        "complete", "completed", "completion", "finish", "finished", "end", "ended", "done", "closed",
    ]

    /// Case names of an outcome that ends otherwise: an enum with one of these is a result, not
    /// a stream of events whose last case says the operation is over.
    static let failureCases: Set<String> = ["failed", "failure", "error", "cancelled", "canceled", "aborted"]

    /// How a value of `type` (a type of the sources, looked up first among the types nested in
    /// `scope`) says that the operation is over: an enum case named so (`.complete(…)`), of
    /// the value itself or of one of its instance properties that `lowest` code can read
    /// (Alamofire's `Stream.event`). The result is a pattern's right-hand side for a value named
    /// `value`: `if case .complete = value.event`.
    func terminalCase(of type: TypeSyntax, in scope: String?, value: String, lowest: Access) -> (
        case: String, subject: String
    )? {
        // A type nested in `scopes` first, innermost first, by the name written: a type alias of
        // the same name elsewhere (Alamofire's `DataStreamTask.Stream`) does not hide it.
        func info(_ type: TypeSyntax, in scopes: [String]) -> TypeInfo? {
            let written = TypeText.nominal(type)?.0
            let expanded = TypeText.nominal(expand(type))?.0
            for name in [written, expanded].compactMap({ $0 }) {
                for scope in scopes { if let nested = types[scope + "." + name] { return nested } }
            }
            return expanded.flatMap(typeInfo)
        }
        func terminal(_ info: TypeInfo) -> String? {
            guard info.kind == .enum, !info.isFromInterface,
                !info.cases.contains(where: Self.failureCases.contains)
            else { return nil }
            return info.cases.first(where: Self.terminalCases.contains)
        }
        guard let found = info(type, in: scope.map { [$0] } ?? []) else { return nil }
        if let name = terminal(found) { return (name, value) }
        guard found.kind == .struct || found.kind == .class else { return nil }
        let scopes = [found.name] + (scope.map { [$0] } ?? [])
        for (property, declared) in (readableProperties[found.name] ?? [:]).sorted(by: { $0.key < $1.key })
        where declared.access >= lowest {
            if let inner = info(declared.type, in: scopes), let name = terminal(inner) {
                return (name, value + "." + property)
            }
        }
        return nil
    }

    // MARK: - Hooks

    /// Protocols the library calls rather than its users: a completion handler in one
    /// of their requirements is for the conforming type to call.
    static let hookSuffixes = [
        "Delegate", "DataSource", "Adapter", "Retrier", "Interceptor", "Handler", "Strategy", "Policy", "Hook",
        "Monitor", "Observer",
    ]

    /// The hook protocol (by the names above) that declares `name(labels)` for `owner`, if any.
    func hookRequirement(owner: String?, name: String, labels: [String?]) -> String? {
        for candidate in selfAndSupertypes(owner) where !candidate.isEmpty {
            let simple = Self.lastComponent(candidate)
            guard typeInfo(simple)?.kind == .protocol, Self.hookSuffixes.contains(where: simple.hasSuffix),
                !entries(owner: typeInfo(simple)!.name, name: name, labels: labels).isEmpty
            else { continue }
            return simple
        }
        return nil
    }

    /// The global-actor attribute among `attributes` (`@MainActor`), if any.
    func globalActorAttribute(_ attributes: AttributeListSyntax) -> String? {
        for element in attributes {
            guard case .attribute(let attribute) = element else { continue }
            let name = text(attribute.attributeName)
            if name == "MainActor" || name.hasSuffix("Actor") || isDeclaredGlobalActor(name) {
                return text(attribute)
            }
        }
        return nil
    }

    func isDeclaredGlobalActor(_ name: String) -> Bool {
        typeInfo(name)?.isGlobalActor ?? false
    }

    /// Every protocol a type conforms to, directly or through other protocols and
    /// superclasses declared in the sources.
    func allConformances(of name: String) -> [String] {
        var seen: [String] = compilerConformances(of: Self.lastComponent(name)) ?? []
        var queue = typeInfo(name)?.inherited ?? []
        while let next = queue.first {
            queue.removeFirst()
            let simple = Self.lastComponent(next)
            guard !seen.contains(simple) else { continue }
            seen.append(simple)
            queue += typeInfo(simple)?.inherited ?? []
        }
        return seen
    }

    /// Whether `entry` returns an `AsyncSequence`: a type named for one, or a type of the
    /// sources that conforms to it (GRDB's `values(in:) -> AsyncValueObservation<Value>`).
    func returnsAsyncSequence(_ entry: FunctionEntry) -> Bool {
        guard !entry.returnsStream else { return true }
        guard let spelled = entry.returnType else { return false }
        return allConformances(of: Self.lastComponent(spelled)).contains("AsyncSequence")
    }

    /// Whether `entry`, declared by `owner`, offers its operation to `await`: it is async,
    /// returns an `AsyncSequence`, or returns another type of the sources with an async member
    /// (a task whose `value` is awaited; not a future's own combinators, `map` returning
    /// the future's type).
    func offersAsync(_ entry: FunctionEntry, owner: String) -> Bool {
        guard !entry.isAsync, !returnsAsyncSequence(entry) else { return true }
        guard let returned = entry.returnType.map(Self.lastComponent) else { return false }
        return awaitableTypes.contains(returned) && returned != Self.lastComponent(owner)
    }

    /// Every function declared under `owner`.
    func entries(owner: String) -> [FunctionEntry] {
        functionsByOwner[owner] ?? []
    }

    /// The types of the sources that conform to `proto` (directly or not).
    func conformingTypes(to proto: String) -> [String] {
        if let compiled = compilerConformingTypes(to: proto) { return compiled.sorted() }
        let simple = Self.lastComponent(proto)
        return types.keys.sorted().filter { $0 != proto && allConformances(of: $0).contains(simple) }
    }

    /// The functions declared under `owner` with this name and these labels.
    func entries(owner: String, name: String, labels: [String?]) -> [FunctionEntry] {
        functions[FunctionKey(owner: owner, name: name, labels: labels)] ?? []
    }

}
