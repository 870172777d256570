import SwiftSyntax

/// A function declaration with what the generators need to know about where it is.
struct FunctionSite {
    var decl: FunctionDeclSyntax
    var context: DeclContext
    var file: String
    var line: Int
    var parameters: [Parameter]
    let index: SourceIndex

    /// The function `decl` at `file:line`, its `parameters` with the types the compiler
    /// resolved when the index has a build's answers.
    init(
        decl: FunctionDeclSyntax, context: DeclContext, file: String, line: Int, parameters: [Parameter],
        index: SourceIndex
    ) {
        self.decl = decl
        self.context = context
        self.file = file
        self.line = line
        self.parameters = index.resolved(parameters, file: file, line: line, decl: decl, context: context)
        self.index = index
    }

    var name: String { decl.name.text }
    var labels: [String?] { parameters.map(\.label) }
    /// Another function of the owner has this one's name and labels and a handler of
    /// another type: a call passing `promise.resolve` could reach either.
    var hasOverloadWithSameLabels: Bool {
        let spelled = { (text: String) in text.filter { !$0.isWhitespace } }
        guard let handler = parameters.last.map({ spelled($0.type.trimmedDescription) }) else { return false }
        return index.entries(owner: context.ownerName ?? "", name: name).contains {
            $0.labels == labels && $0.parameterTypes.last.map { spelled($0) != handler } ?? false
        }
    }
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

    /// Marked `override`: the method overrides one of a superclass.
    var isOverride: Bool {
        decl.modifiers.contains { $0.name.tokenKind == .keyword(.override) }
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
            if name == "_spi" {
                result.append(text(attribute))
            } else if name == "available" {
                result.append(Self.withoutRename(attribute))
            }
        }
        if let actor = index.globalActorAttribute(decl.attributes) { result.append(actor) }
        return result
    }

    /// `@available(*, deprecated, renamed: "load(completion:)")` without its `renamed:`: the
    /// original's rename points at what replaces the callback function, which is not what
    /// replaces its form (the form may be that replacement). `message:` stays.
    static func withoutRename(_ attribute: AttributeSyntax) -> String {
        guard case .availability(let arguments) = attribute.arguments,
            arguments.contains(where: { text($0.argument).hasPrefix("renamed") })
        else { return text(attribute) }
        let kept = arguments.map { text($0.argument) }.filter { !$0.hasPrefix("renamed") }
        return "@available(" + kept.joined(separator: ", ") + ")"
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
    var isIsolated: Bool { !isNonisolated && (globalActor != nil || isActorInstanceMethod) }

    /// The global actor the function runs on (`@MainActor`): its own or its owners'
    /// (declaration or extension), or the module's default isolation
    /// (`--default-isolation MainActor`); nil for none, or when it is `nonisolated`.
    var globalActor: String? {
        if isNonisolated { return nil }
        if let actor = index.globalActorAttribute(decl.attributes) { return actor }
        for owner in context.owners {
            if let actor = index.globalActorAttribute(owner.attributes) { return actor }
            if let actor = index.typeInfo(owner.qualifiedName)?.globalActor { return actor }
        }
        return index.defaultActor(at: decl)
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

    /// The completion-handler function `@available(*, deprecated, renamed:)` names instead
    /// (Cache's `existsObject(forKey:completion:)`, renamed `objectExists(forKey:completion:)`).
    var renamedCallbackFunction: (name: String, labels: [String?])? {
        for element in decl.attributes {
            guard case .attribute(let attribute) = element, text(attribute.attributeName) == "available" else {
                continue
            }
            let spelled = text(attribute)
            guard spelled.contains("renamed:"), let open = spelled.firstIndex(of: "\""),
                let close = spelled.lastIndex(of: "\""), open < close
            else { continue }
            let target = spelled[spelled.index(after: open)..<close]
            guard let paren = target.firstIndex(of: "("), target.hasSuffix(":)") else { continue }
            let labels = target[target.index(after: paren)..<target.index(before: target.endIndex)]
                .split(separator: ":", omittingEmptySubsequences: false).dropLast()
                .map { $0 == "_" ? nil : String($0) }
            guard let handler = parameters.last?.label, labels.last == handler else { continue }
            return (String(target[..<paren]), labels)
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
        let taken = Set(parameters.map(\.name) + [name]).union(genericsInScope.keys).union(extra)
        if !taken.contains(preferred) { return preferred }
        var counter = 2
        while taken.contains("\(preferred)\(counter)") { counter += 1 }
        return "\(preferred)\(counter)"
    }
}
