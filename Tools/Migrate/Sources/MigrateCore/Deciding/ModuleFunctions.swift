import SwiftSyntax

/// What the module says about its functions, read once for ``SyncPropagation``: which
/// names a protocol declares, which are overridden, which are used as values (a selector,
/// a function passed on), and how many functions share a name and labels.
struct ModuleFunctions {
    private(set) var required: Set<String> = []
    private(set) var overridden: Set<String> = []
    private(set) var referenced: Set<String> = []
    private(set) var declared: [String: Int] = [:]
    /// The functions that keep their last closure parameter to call later (a test's spy
    /// stores the handler, and the test calls it after the call returns), by name.
    private(set) var keepers: Set<String> = []
    /// The module's functions by name.
    private(set) var functions: [String: [FunctionDeclSyntax]] = [:]
    /// The types the module declares, by their simple names.
    private(set) var types: Set<String> = []
    /// What each type of the module inherits from or conforms to (its declaration and its
    /// extensions), by simple names without generic arguments.
    private(set) var inherited: [String: Set<String>] = [:]
    /// The types marked `@objc` or `@objcMembers` (or with such an extension).
    private(set) var objc: Set<String> = []

    init(_ trees: [SourceFileSyntax]) {
        let finder = Finder(viewMode: .sourceAccurate)
        for tree in trees { finder.walk(tree) }
        required = finder.required
        overridden = finder.overridden
        referenced = finder.referenced
        declared = finder.declared
        keepers = finder.keepers
        functions = finder.functions
        types = finder.types
        inherited = finder.inherited
        objc = finder.objc
    }

    /// The simple name of a type as written (`Module.Loader<T>?` → `Loader`).
    static func simpleName(_ text: String) -> String {
        let base = text.prefix { $0 != "<" && $0 != "?" && $0 != "!" }
        return String(base.split(separator: ".").last ?? Substring(base))
    }

    /// The simple name of the type a function is declared in (an extension's extended type).
    static func owner(of function: FunctionDeclSyntax) -> String? {
        var current = function.parent
        while let syntax = current {
            if let extended = syntax.as(ExtensionDeclSyntax.self) {
                return simpleName(extended.extendedType.trimmedDescription)
            }
            if syntax.isProtocol(DeclGroupSyntax.self), let named = syntax.asProtocol(NamedDeclSyntax.self) {
                return named.name.text
            }
            current = syntax.parent
        }
        return nil
    }

    /// `name(label:…)`, the key of a function's name and labels.
    static func key(_ function: FunctionDeclSyntax) -> String {
        function.name.text + "("
            + function.signature.parameterClause.parameters.map { $0.firstName.text + ":" }.joined() + ")"
    }

    private final class Finder: SyntaxVisitor {
        var required: Set<String> = []
        var overridden: Set<String> = []
        var referenced: Set<String> = []
        var declared: [String: Int] = [:]
        var keepers: Set<String> = []
        var functions: [String: [FunctionDeclSyntax]] = [:]
        var types: Set<String> = []
        var inherited: [String: Set<String>] = [:]
        var objc: Set<String> = []

        /// A type the module declares (`declares`) or extends, with what it inherits from.
        private func record(_ name: String, _ group: some DeclGroupSyntax, declares: Bool = true) {
            if declares { types.insert(name) }
            for type in group.inheritanceClause?.inheritedTypes ?? [] {
                inherited[name, default: []].insert(ModuleFunctions.simpleName(type.type.trimmedDescription))
            }
            let attributes = group.attributes.compactMap {
                $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription
            }
            if attributes.contains("objc") || attributes.contains("objcMembers") { objc.insert(name) }
        }

        override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
            record(node.name.text, node)
            return .visitChildren
        }

        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
            record(node.name.text, node)
            return .visitChildren
        }

        override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
            record(node.name.text, node)
            return .visitChildren
        }

        override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
            record(node.name.text, node)
            return .visitChildren
        }

        override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
            record(ModuleFunctions.simpleName(node.extendedType.trimmedDescription), node, declares: false)
            return .visitChildren
        }

        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            declared[ModuleFunctions.key(node), default: 0] += 1
            functions[node.name.text, default: []].append(node)
            // (A completion-handler shim, `@available(*, renamed:)`, hands its handler to the
            // async version's delivery: it keeps nothing for a test to call.)
            if let last = node.signature.parameterClause.parameters.last, last.type.trimmedDescription.contains("->"),
                let body = node.body, !node.attributes.trimmedDescription.contains("renamed:")
            {
                let name = (last.secondName ?? last.firstName).text
                let kept = body.tokens(viewMode: .sourceAccurate).contains { token in
                    guard token.tokenKind == .identifier(name), let next = token.nextToken(viewMode: .sourceAccurate)
                    else { return false }
                    let called =
                        next.tokenKind == .leftParen
                        || (next.tokenKind == .postfixQuestionMark
                            && next.nextToken(viewMode: .sourceAccurate)?.tokenKind == .leftParen)
                    return !called
                }
                if kept { keepers.insert(node.name.text) }
            }
            if node.modifiers.contains(where: { $0.name.tokenKind == .keyword(.override) }) {
                overridden.insert(node.name.text)
            }
            return .visitChildren
        }

        override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
            types.insert(node.name.text)
            for member in node.memberBlock.members {
                if let function = member.decl.as(FunctionDeclSyntax.self) { required.insert(function.name.text) }
            }
            return .visitChildren
        }

        /// A name that is not the callee of a call: a value (`action: refresh`, `#selector(refresh)`).
        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            var callee = Syntax(node)
            if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
                callee = Syntax(member)
            }
            if let call = callee.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == callee.id {
                return .visitChildren
            }
            referenced.insert(node.baseName.text)
            return .visitChildren
        }
    }
}
