import SwiftSyntax

/// Access levels, in order.
enum Access: Int, Comparable {
    case `private`, `fileprivate`, `internal`, `package`, `public`, `open`

    init?(modifiers: DeclModifierListSyntax) {
        for modifier in modifiers where modifier.detail == nil {
            switch modifier.name.tokenKind {
            case .keyword(.private): self = .private
            case .keyword(.fileprivate): self = .fileprivate
            case .keyword(.internal): self = .internal
            case .keyword(.package): self = .package
            case .keyword(.public): self = .public
            case .keyword(.open): self = .open
            default: continue
            }
            return
        }
        return nil
    }

    static func < (lhs: Access, rhs: Access) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The modifier a generated member declares (`open` is not allowed in extensions;
    /// `internal` is the default and left out).
    var keyword: String? {
        switch self {
        case .private: "private"
        case .fileprivate: "fileprivate"
        case .internal: nil
        case .package: "package"
        case .public, .open: "public"
        }
    }
}

/// A type declaration or extension that encloses a function.
struct Owner {
    enum Kind: Equatable { case `class`, `struct`, `enum`, `actor`, `protocol`, `extension` }

    var kind: Kind
    /// For a declaration, its qualified name; for an extension, the extended type's.
    var qualifiedName: String
    var attributes: AttributeListSyntax
    var modifiers: DeclModifierListSyntax
    var genericParameters: GenericParameterClauseSyntax?
    var whereClause: GenericWhereClauseSyntax?
    var inherited: [String]
}

/// A compilation condition (`#if`) around a declaration.
struct Condition: Equatable {
    var text: String
    /// How many owners enclosed the `#if`.
    var depth: Int
}

/// Where a declaration sits: its enclosing types and compilation conditions.
struct DeclContext {
    var owners: [Owner] = []
    var conditions: [Condition] = []

    var owner: Owner? { owners.last }

    /// The qualified name of the innermost owner, or nil at file scope.
    var ownerName: String? { owners.last?.qualifiedName }

    /// The conditions around the innermost owner: they must enclose the extension.
    var ownerConditions: [String] { conditions.filter { $0.depth < owners.count }.map(\.text) }
    /// The conditions inside the innermost owner (or at file scope): they go around the member.
    var memberConditions: [String] { conditions.filter { $0.depth == owners.count }.map(\.text) }
}

/// Walks a file's declarations, with their context, through types, extensions and `#if`.
struct DeclarationWalker {
    var onFunction: (FunctionDeclSyntax, DeclContext) -> Void = { _, _ in }
    var onInitializer: (InitializerDeclSyntax, DeclContext) -> Void = { _, _ in }
    var onOwner: (DeclSyntax, Owner, DeclContext) -> Void = { _, _, _ in }
    var onTypeAlias: (TypeAliasDeclSyntax, DeclContext) -> Void = { _, _ in }
    var onAssociatedType: (AssociatedTypeDeclSyntax, DeclContext) -> Void = { _, _ in }
    var onImport: (ImportDeclSyntax, DeclContext) -> Void = { _, _ in }
    var onVariable: (VariableDeclSyntax, DeclContext) -> Void = { _, _ in }
    var onEnumCase: (EnumCaseDeclSyntax, DeclContext) -> Void = { _, _ in }

    func walk(_ file: SourceFileSyntax) {
        walk(statements: file.statements, DeclContext())
    }

    private func walk(statements: CodeBlockItemListSyntax, _ context: DeclContext) {
        for item in statements {
            if case .decl(let decl) = item.item { visit(decl, context) }
        }
    }

    private func walk(members: MemberBlockItemListSyntax, _ context: DeclContext) {
        for member in members { visit(member.decl, context) }
    }

    /// Enters a class, struct, enum or actor: they describe their owner the same way.
    private func enterType(
        _ decl: DeclSyntax, _ node: some DeclGroupSyntax & NamedDeclSyntax & WithGenericParametersSyntax,
        kind: Owner.Kind, _ context: DeclContext
    ) {
        enter(
            decl,
            Owner(
                kind: kind, qualifiedName: qualified(node.name.text, context), attributes: node.attributes,
                modifiers: node.modifiers, genericParameters: node.genericParameterClause,
                whereClause: node.genericWhereClause, inherited: inherited(node.inheritanceClause)),
            node.memberBlock, context)
    }

    private func visit(_ decl: DeclSyntax, _ context: DeclContext) {
        switch decl.as(DeclSyntaxEnum.self) {
        case .classDecl(let node):
            enterType(decl, node, kind: .class, context)
        case .structDecl(let node):
            enterType(decl, node, kind: .struct, context)
        case .enumDecl(let node):
            enterType(decl, node, kind: .enum, context)
        case .actorDecl(let node):
            enterType(decl, node, kind: .actor, context)
        case .protocolDecl(let node):
            enter(
                decl,
                Owner(
                    kind: .protocol, qualifiedName: qualified(node.name.text, context), attributes: node.attributes,
                    modifiers: node.modifiers, genericParameters: nil,
                    whereClause: node.genericWhereClause, inherited: inherited(node.inheritanceClause)),
                node.memberBlock, context)
        case .extensionDecl(let node):
            enter(
                decl,
                Owner(
                    kind: .extension, qualifiedName: qualified(text(node.extendedType), context),
                    attributes: node.attributes, modifiers: node.modifiers, genericParameters: nil,
                    whereClause: node.genericWhereClause, inherited: inherited(node.inheritanceClause)),
                node.memberBlock, context)
        case .ifConfigDecl(let node):
            var previous: [String] = []
            for clause in node.clauses {
                var parts = previous.map(Self.negated)
                if let condition = clause.condition {
                    let spelled = text(condition)
                    parts.append(Self.parenthesized(spelled))
                    previous.append(spelled)
                }
                var inner = context
                if parts.count == 1, let condition = clause.condition {
                    inner.conditions.append(Condition(text: text(condition), depth: context.owners.count))
                } else if !parts.isEmpty {
                    inner.conditions.append(
                        Condition(text: parts.joined(separator: " && "), depth: context.owners.count))
                }
                switch clause.elements {
                case .statements(let statements): walk(statements: statements, inner)
                case .decls(let members): walk(members: members, inner)
                default: break
                }
            }
        case .functionDecl(let node):
            onFunction(node, context)
        case .initializerDecl(let node):
            onInitializer(node, context)
        case .typeAliasDecl(let node):
            onTypeAlias(node, context)
        case .associatedTypeDecl(let node):
            onAssociatedType(node, context)
        case .importDecl(let node):
            onImport(node, context)
        case .variableDecl(let node):
            onVariable(node, context)
        case .enumCaseDecl(let node):
            onEnumCase(node, context)
        default:
            break
        }
    }

    private func enter(_ decl: DeclSyntax, _ owner: Owner, _ block: MemberBlockSyntax, _ context: DeclContext) {
        onOwner(decl, owner, context)
        var inner = context
        inner.owners.append(owner)
        walk(members: block.members, inner)
    }

    private func qualified(_ name: String, _ context: DeclContext) -> String {
        guard let outer = context.ownerName else { return name }
        return outer + "." + name
    }

    private func inherited(_ clause: InheritanceClauseSyntax?) -> [String] {
        clause?.inheritedTypes.map { text($0.type) } ?? []
    }

    /// A condition as an operand of `&&`.
    static func parenthesized(_ condition: String) -> String {
        isSimple(condition) ? condition : "(\(condition))"
    }

    static func negated(_ condition: String) -> String {
        if isSimple(condition) { return "!" + condition }
        return "!(\(condition))"
    }

    /// `FOO`, `os(Linux)`, `canImport(FoundationNetworking)`, `swift(>=6.0)`.
    private static func isSimple(_ condition: String) -> Bool {
        if condition.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { return true }
        guard let open = condition.firstIndex(of: "("), condition.hasSuffix(")") else { return false }
        let name = condition[..<open]
        let inner = condition[condition.index(after: open)..<condition.index(before: condition.endIndex)]
        return !name.isEmpty && name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
            && !inner.contains("(") && !inner.contains("&") && !inner.contains("|")
    }
}

/// The parameters of a function, as the wrappers forward them.
struct Parameter {
    var syntax: FunctionParameterSyntax
    /// The argument label, or nil for `_`.
    var label: String?
    /// The name inside the function (made up for `_:` parameters).
    var name: String
    var type: TypeSyntax
    /// The type as the compiler resolved it (every alias expanded), when a build's index says.
    var resolvedType: TypeSyntax? = nil

    var isVariadic: Bool { syntax.ellipsis != nil }
    var hasDefault: Bool { syntax.defaultValue != nil }
    var isInout: Bool { specifiers.contains("inout") }
    var isIsolated: Bool { specifiers.contains("isolated") }
    var specifiers: [String] {
        guard let attributed = type.as(AttributedTypeSyntax.self) else { return [] }
        return (attributed.specifiers.map { text($0) } + attributed.lateSpecifiers.map { text($0) })
    }

    /// Whether this is a `Bool` that makes the handler called more than once
    /// (`allowIntermediateResponses: Bool = true`, `continuous:`, `repeats:`): a one-shot
    /// form passes `false`, a stream form `true`, and neither keeps it.
    var isMultiShotFlag: Bool {
        guard TypeText.simpleName(type) == "Bool" else { return false }
        let words = ClosureName.words(label ?? name) + ClosureName.words(name)
        return words.contains {
            ["intermediate", "continuous", "continuously", "repeats", "repeating", "progressive", "partial"].contains(
                $0)
        }
    }

    /// Whether this is a callback-queue parameter (`queue: DispatchQueue = .main`,
    /// `callbackQueue:`, `on:`, `respondingOn:`, of type `DispatchQueue` or `OperationQueue`),
    /// which a generated form drops.
    var isCallbackQueue: Bool { queueType != nil }

    var queueType: String? {
        var base = type
        if let attributed = base.as(AttributedTypeSyntax.self) { base = attributed.baseType }
        guard let simple = TypeText.simpleName(base), simple == "DispatchQueue" || simple == "OperationQueue" else {
            return nil
        }
        let names = [label, name].compactMap { $0 }
        let named = names.contains { word in
            word == "on" || word.hasSuffix("On") || word.lowercased().contains("queue")
        }
        return named ? simple : nil
    }

    /// The argument a generated form passes for the callback queue it dropped: one that
    /// does not hop to the main thread (the awaiting task resumes on its own executor
    /// anyway). A handler called once may run on any thread; a stream's handler runs on a
    /// serial queue of its own (`serialLabel`), so its values keep their order. (A flag that
    /// makes the handler multi-shot gets `false`, or `true` for a stream.)
    func callbackQueueArgument(serialLabel: String?) -> String {
        if isMultiShotFlag { return serialLabel == nil ? "false" : "true" }
        return switch (queueType, serialLabel) {
        case ("OperationQueue", nil): "OperationQueue()"
        case ("OperationQueue", _):
            "{ let queue = OperationQueue(); queue.maxConcurrentOperationCount = 1; return queue }()"
        case (_, let label?): "DispatchQueue(label: \"\(label)\")"
        default: ".global()"
        }
    }

    /// `label: name`, or `name` for an unlabeled parameter.
    var argument: String { label.map { "\($0): \(name)" } ?? name }

    /// The declaration as a wrapper repeats it: `label name: Type = default`.
    var declaration: String {
        var result = syntax.firstName.text
        if let second = syntax.secondName {
            result += " " + second.text
        } else if syntax.firstName.text == "_" {
            result += " " + name
        }
        result += ": " + text(syntax.type)
        if syntax.ellipsis != nil { result += "..." }
        if let defaultValue = syntax.defaultValue { result += " = " + text(defaultValue.value) }
        return result
    }

    static func list(_ clause: FunctionParameterClauseSyntax) -> [Parameter] {
        clause.parameters.enumerated().map { index, syntax in
            let first = syntax.firstName.text
            let internalName = syntax.secondName?.text ?? first
            let name = internalName == "_" ? "argument\(index + 1)" : internalName
            return Parameter(syntax: syntax, label: first == "_" ? nil : first, name: name, type: syntax.type)
        }
    }
}

/// A function's name as Swift spells it in documentation: `fetch(id:completion:)`.
func selector(_ name: String, _ labels: [String?]) -> String {
    name + "(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
}

/// The text of a declaration's documentation comment, one line per element, without
/// the `///` (or `/** */`) markers.
func documentationLines(_ decl: some SyntaxProtocol) -> [String] {
    var blocks: [[String]] = []
    var current: [String] = []
    var newlines = 0
    for piece in decl.leadingTrivia {
        switch piece {
        case .docLineComment(let comment):
            if newlines > 1, !current.isEmpty {
                blocks.append(current)
                current = []
            }
            var line = comment.dropFirst(3)
            if line.first == " " { line = line.dropFirst() }
            current.append(String(line))
            newlines = 0
        case .docBlockComment(let comment):
            if !current.isEmpty { blocks.append(current) }
            current = []
            var body = comment.dropFirst(3)
            if body.hasSuffix("*/") { body = body.dropLast(2) }
            let raw = body.split(separator: "\n", omittingEmptySubsequences: false)
            // Lines without a leading `*` lose the indentation they share (the first, on the
            // `/**` line, aside), not all of it: a nested `- Parameters:` list keeps its shape.
            let shared =
                raw.dropFirst().filter {
                    let content = $0.drop(while: { $0 == " " || $0 == "\t" })
                    return !content.isEmpty && content.first != "*"
                }.map { $0.prefix(while: { $0 == " " || $0 == "\t" }).count }.min() ?? 0
            var lines = raw.enumerated().map { offset, line -> String in
                let content = line.drop(while: { $0 == " " || $0 == "\t" })
                guard content.first == "*" || offset == 0 else { return String(line.dropFirst(shared)) }
                var line = content
                if line.first == "*" {
                    line = line.dropFirst()
                    if line.first == " " { line = line.dropFirst() }
                }
                return String(line)
            }
            while lines.first?.trimmingCharacters() == "" { lines.removeFirst() }
            while lines.last?.trimmingCharacters() == "" { lines.removeLast() }
            blocks.append(lines)
            newlines = 0
        case .newlines(let count), .carriageReturnLineFeeds(let count):
            newlines += count
        case .lineComment, .blockComment:
            if !current.isEmpty { blocks.append(current) }
            current = []
        default:
            break
        }
    }
    if !current.isEmpty { blocks.append(current) }
    return blocks.last ?? []
}

extension StringProtocol {
    func trimmingCharacters() -> String {
        String(
            self.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
        )
    }

    var leadingSpaces: Int { prefix(while: { $0 == " " }).count }
}
