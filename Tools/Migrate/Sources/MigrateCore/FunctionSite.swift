import SwiftSyntax

/// A function declaration with what the generators need to know about where it is.
struct FunctionSite {
    var decl: FunctionDeclSyntax
    var context: DeclContext
    var file: String
    var line: Int
    var parameters: [Parameter]
    let index: SourceIndex

    var name: String { decl.name.text }
    var labels: [String?] { parameters.map(\.label) }
    var selectorText: String { selector(name, labels) }
    var displayName: String { (context.ownerName.map { $0 + "." } ?? "") + selectorText }

    var isStatic: Bool {
        decl.modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }
    var isAsync: Bool { decl.signature.effectSpecifiers?.asyncSpecifier != nil }
    var isThrowing: Bool { decl.signature.effectSpecifiers?.throwsClause != nil }
    var isMutating: Bool { decl.modifiers.contains { $0.name.tokenKind == .keyword(.mutating) } }
    var isNonisolated: Bool { decl.modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) } }
    var isOptionalRequirement: Bool { decl.modifiers.contains { $0.name.tokenKind == .keyword(.optional) } }
    var hasDiscardableResult: Bool {
        decl.attributes.contains { element in
            guard case .attribute(let attribute) = element else { return false }
            return text(attribute.attributeName) == "discardableResult"
        }
    }
    var returnType: TypeSyntax? {
        guard let type = decl.signature.returnClause?.type, !TypeText.isVoid(type) else { return nil }
        return type
    }

    /// The innermost owner's type as the index knows it (for an extension, the extended type).
    var ownerInfo: SourceIndex.TypeInfo? { context.ownerName.flatMap(index.typeInfo) }

    /// Whether the function is a member of a protocol (a requirement, or a member of
    /// an extension of the protocol).
    var isProtocolMember: Bool {
        guard let owner = context.owner else { return false }
        return owner.kind == .protocol || ownerInfo?.kind == .protocol
    }

    /// `@available(*, noasync)`: not to be called from async code.
    var isNoasync: Bool {
        decl.attributes.contains { element in
            guard let available = SourceIndex.availability(element) else { return false }
            return available.contains("noasync")
        }
    }

    var isUnavailable: Bool {
        decl.attributes.contains { element in
            guard let available = SourceIndex.availability(element) else { return false }
            return available.hasPrefix("@available(*") && available.contains("unavailable")
        }
    }

    // MARK: Access

    /// The access of a generated member: the function's, capped by its owners'.
    var access: Access {
        var declared = Access(modifiers: decl.modifiers)
        if declared == nil, let owner = context.owner {
            if owner.kind == .extension {
                declared = Access(modifiers: owner.modifiers).map { $0 == .private ? .fileprivate : $0 }
            } else if owner.kind == .protocol {
                declared = Access(modifiers: owner.modifiers) ?? .internal
            }
        }
        var result = declared ?? .internal
        for owner in context.owners {
            if let modifier = Access(modifiers: owner.modifiers) {
                result = min(result, modifier == .private ? .fileprivate : modifier)
            } else if owner.kind != .extension {
                result = min(result, .internal)
            }
            if owner.kind == .extension, let info = index.typeInfo(owner.qualifiedName) {
                result = min(result, info.access)
            }
        }
        return result
    }

    // MARK: Attributes

    /// The function's `@available` attributes, its global actor, and `@_spi`.
    var carriedAttributes: [String] {
        var result: [String] = []
        for element in decl.attributes {
            guard case .attribute(let attribute) = element else { continue }
            let name = text(attribute.attributeName)
            if name == "available" || name == "_spi" {
                result.append(text(attribute))
            }
        }
        if let actor = index.globalActorAttribute(decl.attributes) { result.append(actor) }
        return result
    }

    /// The availability the extension of the owner needs: the owners' `@available`.
    var ownerAvailability: [String] {
        var result: [String] = []
        for owner in context.owners {
            result += owner.attributes.compactMap(SourceIndex.availability)
            if owner.kind == .extension, let info = index.typeInfo(owner.qualifiedName) {
                result += info.availability
            }
        }
        var seen: Set<String> = []
        return result.filter { seen.insert($0).inserted && !$0.contains("unavailable") }
    }

    /// The extension a generated member goes in, or nil at file scope.
    var extensionHeader: String? {
        guard let owner = context.owner else { return nil }
        var header = "extension " + owner.qualifiedName
        if owner.kind == .extension, let whereClause = owner.whereClause {
            header += " " + text(whereClause)
        }
        return header
    }

    // MARK: Isolation

    /// Whether this is an instance method of an actor.
    var isActorInstanceMethod: Bool {
        guard !isStatic, let owner = context.owner else { return false }
        return owner.kind == .actor || index.typeInfo(owner.qualifiedName)?.kind == .actor
    }

    /// Whether the function runs on an actor: a global actor of its own or of its owners
    /// (declaration or extension), or an actor's instance method; `nonisolated` says not.
    var isIsolated: Bool {
        if isNonisolated { return false }
        if index.globalActorAttribute(decl.attributes) != nil || isActorInstanceMethod { return true }
        for owner in context.owners {
            if index.globalActorAttribute(owner.attributes) != nil { return true }
            if let info = index.typeInfo(owner.qualifiedName), info.globalActor != nil { return true }
        }
        return false
    }

    // MARK: Calls

    /// The function as the generated body calls it: qualified with `self.` (`Self.`) when
    /// a parameter has the function's name and would shadow it.
    var callee: String {
        guard parameters.contains(where: { $0.name == name }), context.owner != nil else { return name }
        return (isStatic ? "Self." : "self.") + name
    }

    /// The call's start: `try self.fetch` for a throwing function.
    var tryCallee: String { (isThrowing ? "try " : "") + callee }

    /// The column a generated member starts at in its file: inside its extension, and
    /// inside the `#if` blocks around the extension and around the member.
    var memberIndent: Int {
        (context.owner == nil ? 0 : 4) + (context.ownerConditions.isEmpty ? 0 : 4)
            + (context.memberConditions.isEmpty ? 0 : 4)
    }

    /// The async form the function names itself: `@available(*, renamed: "f(x:)")` with a
    /// selector that drops the handler, or `@completionHandlerAsync("f(x:)")`.
    var namedAsyncForm: String? {
        for element in decl.attributes {
            guard case .attribute(let attribute) = element else { continue }
            let name = text(attribute.attributeName)
            guard name == "available" || name == "completionHandlerAsync" else { continue }
            let spelled = text(attribute)
            guard let open = spelled.firstIndex(of: "\""), let close = spelled.lastIndex(of: "\""), open < close,
                name == "completionHandlerAsync" || spelled.contains("renamed:")
            else { continue }
            let target = String(spelled[spelled.index(after: open)..<close])
            // A rename to another completion-handler function is not an async form.
            let handlerLabels = parameters.suffix(1).compactMap { $0.label }
            if name == "available", handlerLabels.contains(where: { target.contains($0 + ":") }) { continue }
            return target
        }
        return nil
    }

    // MARK: Generics

    /// The generic parameters in scope, with their constraints: the function's, the
    /// owner's, and a protocol's associated types (and `Self`).
    var genericsInScope: [String: [String]] {
        var result: [String: [String]] = [:]
        if let info = ownerInfo {
            result.merge(info.genericParameters) { $0 + $1 }
            if info.kind == .protocol {
                result.merge(info.associatedTypes) { $0 + $1 }
                result["Self"] = info.inherited
            }
        }
        if let owner = context.owner, let whereClause = owner.whereClause {
            for (name, constraint) in SourceIndex.requirements(whereClause) {
                result[name, default: []].append(constraint)
            }
        }
        if let clause = decl.genericParameterClause {
            for parameter in clause.parameters {
                result[parameter.name.text, default: []] += parameter.inheritedType.map { [text($0)] } ?? []
            }
        }
        if let whereClause = decl.genericWhereClause {
            for (name, constraint) in SourceIndex.requirements(whereClause) {
                result[name, default: []].append(constraint)
            }
        }
        return result
    }

    /// `T: Sendable` for each generic parameter among `types` that is not known to be
    /// `Sendable`: FutureBridge's futures carry only `Sendable` values.
    func sendableRequirements(for types: [TypeSyntax]) -> [String] {
        let generics = genericsInScope
        var result: [String] = []
        for type in types {
            // `Reducer.Value` needs `Reducer.Value: Sendable`, not `Reducer: Sendable`.
            let members = TypeText.genericMembers(type, generics: Set(generics.keys))
            let roots = Set(members.compactMap { $0.split(separator: ".").first.map(String.init) })
            for name in TypeText.mentionedNames(type)
            where generics[name] != nil && !roots.contains(name) && !result.contains("\(name): Sendable") {
                let constraints = generics[name] ?? []
                let isSendable = constraints.contains { constraint in
                    constraint.split(separator: "&").contains { part in
                        let simple = SourceIndex.lastComponent(part.trimmingCharacters())
                        if SourceIndex.sendableProtocols.contains(simple) { return true }
                        if let info = index.typeInfo(simple) { return index.isSendable(info) }
                        return false
                    }
                }
                if !isSendable { result.append("\(name): Sendable") }
            }
            for member in members where !result.contains("\(member): Sendable") {
                result.append("\(member): Sendable")
            }
        }
        return result
    }

    /// A name that no parameter or generic parameter uses.
    func freshName(_ preferred: String, avoiding extra: Set<String> = []) -> String {
        let taken = Set(parameters.map(\.name)).union(genericsInScope.keys).union(extra)
        if !taken.contains(preferred) { return preferred }
        var counter = 2
        while taken.contains("\(preferred)\(counter)") { counter += 1 }
        return "\(preferred)\(counter)"
    }

    // MARK: Documentation

    /// The function's documentation with the lines about some parameters removed (and
    /// `- Returns:` / `- Throws:` sections, if asked).
    func documentation(removingParameters removed: Set<String>, removingReturns: Bool, removingThrows: Bool = false)
        -> [String]
    {
        let removed = Set(removed.map { $0.lowercased() })
        var lines = documentationLines(decl)
        var result: [String] = []
        var index = 0
        var parametersHeader: Int?
        var parametersKept = 0
        func skipContinuation(from start: Int, indent: Int) -> Int {
            var next = start
            while next < lines.count {
                let line = lines[next]
                let trimmed = line.trimmingCharacters()
                // A callout's text runs on until a blank line, the next callout, or a line
                // indented less than it: SDKs often continue at the callout's own indent.
                if trimmed.isEmpty || line.leadingSpaces < indent || trimmed.hasPrefix("- ") { break }
                next += 1
            }
            return next
        }
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters()
            let lower = trimmed.lowercased()
            let indent = line.leadingSpaces
            if lower.hasPrefix("- parameters:") {
                if let header = parametersHeader, parametersKept == 0 { result.remove(at: header) }
                parametersHeader = result.count
                parametersKept = 0
                result.append(line)
                index += 1
                continue
            }
            if let name = Self.parameterDocName(lower, singular: true), removed.contains(name) {
                index = skipContinuation(from: index + 1, indent: indent)
                continue
            }
            if parametersHeader != nil, indent > 0, let name = Self.parameterDocName(lower, singular: false) {
                if removed.contains(name) {
                    index = skipContinuation(from: index + 1, indent: indent)
                    continue
                }
                parametersKept += 1
            }
            if (removingReturns && lower.hasPrefix("- returns:")) || (removingThrows && lower.hasPrefix("- throws:")) {
                index = skipContinuation(from: index + 1, indent: indent)
                continue
            }
            if indent == 0, trimmed.hasPrefix("- "), !lower.hasPrefix("- parameters:") {
                if let header = parametersHeader, parametersKept == 0 { result.remove(at: header) }
                parametersHeader = nil
            }
            result.append(line)
            index += 1
        }
        if let header = parametersHeader, parametersKept == 0 { result.remove(at: header) }
        lines = []
        for line in result
        where !(line.trimmingCharacters().isEmpty && (lines.last?.trimmingCharacters().isEmpty ?? true)) {
            lines.append(line)
        }
        while lines.last?.trimmingCharacters().isEmpty == true { lines.removeLast() }
        return lines
    }

    /// `name` in `- parameter name: ...` (singular) or `- name: ...` (in a list).
    private static func parameterDocName(_ lower: String, singular: Bool) -> String? {
        var rest = Substring(lower)
        guard rest.hasPrefix("- ") else { return nil }
        rest = rest.dropFirst(2)
        if singular {
            guard rest.hasPrefix("parameter ") else { return nil }
            rest = rest.dropFirst("parameter ".count)
        }
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let name = rest[..<colon].trimmingCharacters()
        guard !name.isEmpty, !name.contains(" ") else { return nil }
        return name
    }
}

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
