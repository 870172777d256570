import SwiftSyntax

/// A module built with a default actor isolation (`.defaultIsolation(MainActor.self)`,
/// `-default-isolation MainActor`, SE-0466): its declarations without an isolation of
/// their own run on that actor. What the compiler (Swift 6.3) leaves nonisolated:
/// - a declaration marked `nonisolated` or `@concurrent`, or in a `nonisolated extension`;
/// - members of an actor, and of its extensions, and types nested in an actor;
/// - a type that conforms to `Error` or `CodingKey` in its own declaration, its members,
///   its extensions' members and its nested types;
/// - members and nested types written in the body of a `nonisolated` type (its
///   extensions' members take the default).
///
/// An explicit global actor (of the declaration, its type or its extension) comes first:
/// the callers look for one before they ask for the default.
extension SourceIndex {
    /// Protocols whose conformance in a type's own declaration keeps the type nonisolated.
    static let nonisolatingConformances: Set<String> = [
        "Error", "LocalizedError", "CustomNSError", "RecoverableError", "CodingKey",
    ]

    /// The actor the module's default isolation gives the declaration (or the code) at
    /// `node`, which has no global actor of its own: nil when there is no default, when
    /// `node` is not in the module's own sources, or when the rules above leave it
    /// nonisolated.
    func defaultActor(at node: some SyntaxProtocol) -> String? {
        guard let actor = defaultIsolation, moduleRoots.contains(node.root.id) else { return nil }
        var current: Syntax? = Syntax(node)
        while let syntax = current {
            if let function = syntax.as(FunctionDeclSyntax.self),
                Self.optsOut(function.attributes, function.modifiers)
            {
                return nil
            }
            if let initializer = syntax.as(InitializerDeclSyntax.self),
                Self.optsOut(initializer.attributes, initializer.modifiers)
            {
                return nil
            }
            if let group = syntax.asProtocol(DeclGroupSyntax.self) {
                return membersTakeDefault(group) ? actor : nil
            }
            current = syntax.parent
        }
        return actor
    }

    /// Whether the members written in `group` take the module's default isolation.
    private func membersTakeDefault(_ group: some DeclGroupSyntax) -> Bool {
        if group.is(ActorDeclSyntax.self) { return false }
        let nonisolated = group.modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) }
        if let extensionDecl = group.as(ExtensionDeclSyntax.self) {
            if nonisolated { return false }
            guard let info = typeInfo(extensionDecl.extendedType.trimmedDescription), !info.isFromInterface else {
                return true
            }
            return info.kind != .actor && !info.conformsNonisolating
        }
        if nonisolated || Self.conformsNonisolating(group.inheritanceClause) { return false }
        // A nested type takes the default where the members around it do.
        guard let parent = Syntax(group).parent else { return true }
        return defaultActor(at: parent) != nil
    }

    static func optsOut(_ attributes: AttributeListSyntax, _ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) }
            || attributes.contains { element in
                guard case .attribute(let attribute) = element else { return false }
                return text(attribute.attributeName) == "concurrent"
            }
    }

    static func conformsNonisolating(_ clause: InheritanceClauseSyntax?) -> Bool {
        clause?.inheritedTypes.contains { nonisolatingConformances.contains(lastComponent(text($0.type))) } ?? false
    }

    /// The module's own types that take the default get it as their global actor (after
    /// indexing: an extension's type may be declared in a later file).
    func applyDefaultIsolation(_ declarations: [(info: TypeInfo, decl: DeclSyntax)]) {
        guard let actor = defaultIsolation else { return }
        // `defaultActor(at:)` of a type's declaration: whether its members take the default.
        for (info, decl) in declarations
        where info.globalActor == nil && info.kind != .protocol && defaultActor(at: decl) != nil {
            info.globalActor = actor
        }
    }
}
