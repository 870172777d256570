import SwiftParser
import SwiftSyntax

/// The source text of a syntax node without its surrounding trivia, with every run of
/// whitespace (newlines included) collapsed into one space and comments dropped.
/// Identifiers in `replacing` (not after a `.`) are written as their replacements.
func text(_ node: some SyntaxProtocol, replacing replacements: [String: String] = [:]) -> String {
    var result = ""
    var previous: TokenSyntax?
    for token in node.tokens(viewMode: .sourceAccurate) {
        if let previous, needsSpace(between: previous, and: token) { result += " " }
        if case .identifier(let name) = token.tokenKind, let replacement = replacements[name],
            previous?.tokenKind != .period
        {
            result += replacement
        } else {
            result += token.text
        }
        previous = token
    }
    return result
}

private func needsSpace(between left: TokenSyntax, and right: TokenSyntax) -> Bool {
    // Keep the author's spacing decisions, but only as a single space.
    let hadSpace = !left.trailingTrivia.isEmpty || !right.leadingTrivia.isEmpty
    guard hadSpace else { return false }
    switch right.tokenKind {
    case .rightParen, .rightSquare, .rightAngle, .comma, .colon, .postfixQuestionMark, .exclamationMark, .period:
        return false
    default:
        break
    }
    switch left.tokenKind {
    case .leftParen, .leftSquare, .leftAngle, .period:
        return false
    default:
        return true
    }
}

/// Type helpers that work on the written form of a type: this tool has no type checker,
/// so `Error`, `Result` and `Void` are recognized by their spellings.
enum TypeText {
    /// `(T)` (a one-element, unlabeled tuple type) is `T`.
    static func unparenthesized(_ type: TypeSyntax) -> TypeSyntax {
        if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1,
            let only = tuple.elements.first, only.firstName == nil, only.ellipsis == nil
        {
            return unparenthesized(only.type)
        }
        return type
    }

    /// The type as an expression's type may spell it: without `@escaping` (`@Sendable` kept).
    static func withoutAttributes(_ type: TypeSyntax) -> String {
        guard let attributed = type.as(AttributedTypeSyntax.self) else { return type.trimmedDescription }
        let kept = attributed.attributes.compactMap { element -> String? in
            guard case .attribute(let attribute) = element else { return nil }
            return attribute.attributeName.trimmedDescription == "escaping" ? nil : attribute.trimmedDescription
        }
        return (kept + [attributed.baseType.trimmedDescription]).joined(separator: " ")
    }

    /// The wrapped type of `T?`, `T!`, `Optional<T>` or `Swift.Optional<T>`.
    static func optionalWrapped(_ type: TypeSyntax) -> TypeSyntax? {
        let type = unparenthesized(type)
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let iuo = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return iuo.wrappedType }
        if let (name, arguments) = nominal(type), name == "Optional" || name == "Swift.Optional",
            arguments.count == 1
        {
            return arguments[0]
        }
        return nil
    }

    /// `Void`, `Swift.Void` or `()`.
    static func isVoid(_ type: TypeSyntax) -> Bool {
        let spelled = text(type)
        return spelled == "Void" || spelled == "Swift.Void" || spelled == "()"
    }

    /// The spellings of an error existential (or of `NSError`, which converts to one).
    static func isError(_ type: TypeSyntax) -> Bool {
        let spelled = text(unparenthesized(type))
        return ["Error", "any Error", "Swift.Error", "any Swift.Error", "NSError"].contains(spelled)
    }

    /// `Error?`, `(any Error)?`, `Optional<Error>`, `NSError?` and the like.
    static func isOptionalError(_ type: TypeSyntax) -> Bool {
        guard let wrapped = optionalWrapped(type) else { return false }
        return isError(wrapped)
    }

    /// The name and generic arguments of `Name<A, B>` or `Module.Name<A, B>`.
    static func nominal(_ type: TypeSyntax) -> (String, [TypeSyntax])? {
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return (identifier.name.text, typeArguments(identifier.genericArgumentClause))
        }
        if let member = type.as(MemberTypeSyntax.self) {
            return (text(member.baseType) + "." + member.name.text, typeArguments(member.genericArgumentClause))
        }
        return nil
    }

    private static func typeArguments(_ clause: GenericArgumentClauseSyntax?) -> [TypeSyntax] {
        guard let clause else { return [] }
        return clause.arguments.compactMap { argument in
            if case .type(let type) = argument.argument { return type }
            return nil
        }
    }

    /// The success and failure types of `Result<T, E>` / `Swift.Result<T, E>`.
    static func resultArguments(_ type: TypeSyntax) -> (success: TypeSyntax, failure: TypeSyntax)? {
        guard let (name, arguments) = nominal(unparenthesized(type)), name == "Result" || name == "Swift.Result",
            arguments.count == 2
        else { return nil }
        return (arguments[0], arguments[1])
    }

    /// The last component of a nominal type's name, looking through `any`, `some`,
    /// optionals and parentheses: `Foundation.URLSessionDataTask?` is `URLSessionDataTask`.
    static func simpleName(_ type: TypeSyntax) -> String? {
        var type = unparenthesized(type)
        if let wrapped = optionalWrapped(type) { type = unparenthesized(wrapped) }
        if let someOrAny = type.as(SomeOrAnyTypeSyntax.self) { type = unparenthesized(someOrAny.constraint) }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
        return nil
    }

    /// Every name a type mentions (`[String: Database]` mentions `String` and `Database`),
    /// as written: the last component of qualified names, and the first component too
    /// (`T.Element` mentions `T`).
    static func mentionedNames(_ type: some SyntaxProtocol) -> [String] {
        let collector = NameCollector(viewMode: .sourceAccurate)
        collector.walk(type)
        return collector.names
    }

    /// The member types rooted at a generic parameter (`Reducer.Value`), as written: the
    /// sources cannot say whether they are `Sendable`, so a form requires it.
    static func genericMembers(_ type: some SyntaxProtocol, generics: Set<String>) -> [String] {
        let finder = GenericMemberFinder(generics: generics)
        finder.walk(type)
        return finder.members
    }

    /// Whether a type (as a value, not a parameter) mentions a closure type.
    static func containsFunctionType(_ type: some SyntaxProtocol) -> Bool {
        let finder = FunctionTypeFinder(viewMode: .sourceAccurate)
        finder.walk(type)
        return finder.found
    }

    /// A type parsed from its spelling (nil if it does not parse as one).
    static func parse(_ spelled: String) -> TypeSyntax? {
        let file = parseSwift("let _: " + spelled)
        guard let decl = file.statements.first?.item.as(VariableDeclSyntax.self),
            let type = decl.bindings.first?.typeAnnotation?.type, !type.hasError
        else { return nil }
        return type
    }

    /// `type` with the generic parameters in `map` replaced by their arguments.
    static func substituted(_ type: TypeSyntax, _ map: [String: String]) -> TypeSyntax {
        guard !map.isEmpty else { return type }
        return parse(text(type, replacing: map)) ?? type
    }

    /// The metatype expression of a type: `T.self`, `(any P).self`, `(Data?, URLResponse?).self`.
    static func metatypeExpression(_ type: String) -> String {
        if type.hasPrefix("any ") || type.hasPrefix("some ") || type.contains("->") {
            return "(\(type)).self"
        }
        return "\(type).self"
    }
}

/// A closure type as a parameter declares it, looking through parentheses, optionals
/// and type aliases declared in the scanned sources (generic ones with their arguments).
struct ClosureType {
    /// The type attributes, as written (`@escaping`, `@Sendable`, `@MainActor`).
    var attributes: [String] = []
    /// `((T) -> Void)?`: an optional closure, which is escaping.
    var isOptional = false
    var parameters: [TypeSyntax] = []
    /// The parameter names written in the closure type, if any (`(_ data: Data?) -> Void`).
    var parameterNames: [String?] = []
    var isAsync = false
    var isThrowing = false
    var returnsVoid = false
    /// The name of the type alias this closure type was spelled with, if any.
    var alias: String?

    var isEscaping: Bool { isOptional || attributes.contains("@escaping") }
    var isAutoclosure: Bool { attributes.contains("@autoclosure") }

    /// The attributes that describe the closure's isolation and sendability, for a new
    /// closure type that must be compatible with this one (`@escaping` excluded).
    var carriedAttributes: [String] {
        attributes.filter { $0 != "@escaping" && $0 != "@autoclosure" }
    }

    init?(_ type: TypeSyntax, aliases: (IdentifierTypeSyntax) -> TypeSyntax?, depth: Int = 0) {
        guard depth < 8 else { return nil }
        var current = type
        while true {
            if let attributed = current.as(AttributedTypeSyntax.self) {
                for element in attributed.attributes {
                    if case .attribute(let attribute) = element { attributes.append(text(attribute)) }
                }
                for specifier in attributed.specifiers {
                    // `inout`, `borrowing`, `consuming`, `sending`: not a plain closure parameter.
                    if text(specifier) == "inout" { return nil }
                }
                current = attributed.baseType
                continue
            }
            if let tuple = current.as(TupleTypeSyntax.self), tuple.elements.count == 1,
                let only = tuple.elements.first, only.firstName == nil, only.ellipsis == nil
            {
                current = only.type
                continue
            }
            if let optional = current.as(OptionalTypeSyntax.self) {
                isOptional = true
                current = optional.wrappedType
                continue
            }
            if let iuo = current.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
                isOptional = true
                current = iuo.wrappedType
                continue
            }
            if let identifier = current.as(IdentifierTypeSyntax.self), let aliased = aliases(identifier) {
                alias = alias ?? identifier.name.text
                current = aliased
                continue
            }
            break
        }
        guard let function = current.as(FunctionTypeSyntax.self) else { return nil }
        for element in function.parameters {
            parameters.append(element.type)
            let name = element.secondName ?? element.firstName
            parameterNames.append(name.map(\.text).flatMap { $0 == "_" ? nil : $0 })
        }
        isAsync = function.effectSpecifiers?.asyncSpecifier != nil
        isThrowing = function.effectSpecifiers?.throwsClause != nil
        returnsVoid = TypeText.isVoid(function.returnClause.type)
    }
}

private final class NameCollector: SyntaxVisitor {
    var names: [String] = []
    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        names.append(node.name.text)
        return .visitChildren
    }
    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
        names.append(node.name.text)
        return .visitChildren
    }
}

private final class GenericMemberFinder: SyntaxVisitor {
    let generics: Set<String>
    var members: [String] = []

    init(generics: Set<String>) {
        self.generics = generics
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
        var base = node.baseType
        while let member = base.as(MemberTypeSyntax.self) { base = member.baseType }
        guard let root = base.as(IdentifierTypeSyntax.self), generics.contains(root.name.text) else {
            return .visitChildren
        }
        members.append(text(node))
        return .skipChildren
    }
}

private final class FunctionTypeFinder: SyntaxVisitor {
    var found = false
    override func visit(_ node: FunctionTypeSyntax) -> SyntaxVisitorContinueKind {
        found = true
        return .skipChildren
    }
}
