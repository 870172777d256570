import Foundation
import SwiftParser
import SwiftSyntax

@_silgen_name("swift_demangle")
private func runtimeDemangle(
    _ mangled: UnsafePointer<CChar>?, _ length: Int, _ output: UnsafeMutablePointer<CChar>?,
    _ outputSize: UnsafeMutablePointer<Int>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

/// Swift USRs as text, through the Swift runtime's own demangler (what `swift demangle` prints).
public enum Demangler {
    /// `s:4Demo6ClientC4load…` → `Demo.Client.load(_: Swift.Int, completion: …) -> ()`; nil
    /// for a USR that is not a Swift mangling (a C declaration's, an extension's `s:e:`).
    public static func demangle(usr: String) -> String? {
        guard usr.hasPrefix("s:"), !usr.hasPrefix("s:e:") else { return nil }
        let mangled = "$s" + usr.dropFirst(2)
        guard let output = mangled.withCString({ runtimeDemangle($0, strlen($0), nil, nil, 0) }) else { return nil }
        defer { free(output) }
        let text = String(cString: output)
        return text == mangled ? nil : text
    }
}

/// A function's signature as the compiler resolved it: type aliases (generic ones too)
/// expanded, in Swift source text (`Swift.` and other modules' names dropped where the
/// simple name is enough).
public struct ResolvedSignature: Sendable, Equatable {
    /// One parameter: its argument label (nil for `_`) and its resolved type.
    public struct Parameter: Sendable, Equatable {
        /// The argument label, nil for `_`.
        public var label: String?
        /// The type, as source text (`(Result<T, NetError>) -> ()`).
        public var type: String
        /// The same, as syntax.
        var syntax: TypeSyntax?
    }

    /// The function's USR.
    public var usr: String
    /// The demangled USR, as the runtime prints it.
    public var demangled: String
    /// The parameters, in order.
    public var parameters: [Parameter]
    /// The return type (`()` for none).
    public var returnType: String

    /// Reads the parameters of a demangled function USR. `genericNames[depth][index]` is the
    /// source's name of the demangler's generic parameter (`A` is depth 0 index 0, `B1` depth 1
    /// index 1); `keepingSwiftFor` are names the module declares itself, whose `Swift.` stays.
    public init?(usr: String, demangled: String, genericNames: [[String]] = [], keepingSwiftFor: Set<String> = []) {
        var text = demangled
        // `Demo.(Private in _1A2B)` and `(extension in Demo):Foundation.URLSession`: plain names.
        if text.contains(" in _") {
            text = text.replacingOccurrences(
                of: #"\(([A-Za-z_][A-Za-z0-9_]*) in _[0-9A-F]+\)"#, with: "$1", options: .regularExpression)
        }
        if text.contains("(extension in ") {
            text = text.replacingOccurrences(
                of: #"\(extension in [A-Za-z_][A-Za-z0-9_]*\):"#, with: "", options: .regularExpression)
        }
        for ownership in ["__owned ", "__shared ", "__consuming "] where text.contains(ownership) {
            text = text.replacingOccurrences(of: ownership, with: "")
        }
        guard let open = Self.parameterListStart(text) else { return nil }
        let source = "typealias Resolved = " + text[open...]
        let tree = parseSwift(source)
        guard let alias = tree.statements.first?.item.as(TypeAliasDeclSyntax.self),
            let function = alias.initializer.value.as(FunctionTypeSyntax.self)
        else { return nil }
        let rewriter = ResolvedTypeRewriter(genericNames: genericNames, keepingSwiftFor: keepingSwiftFor)
        self.usr = usr
        self.demangled = demangled
        parameters = function.parameters.map { element in
            let label = element.firstName.map(\.text)
            let type = rewriter.visit(element.type).trimmed
            return Parameter(label: label == "_" ? nil : label, type: type.description, syntax: type)
        }
        returnType = rewriter.visit(function.returnClause.type).trimmedDescription
    }

    /// The index of the `(` that opens the parameter list: the first one outside the generic
    /// signature (`load<A where A: Swift.Decodable>(`).
    static func parameterListStart(_ text: String) -> String.Index? {
        var angles = 0
        for index in text.indices {
            switch text[index] {
            case "<": angles += 1
            case ">": angles -= 1
            case "(" where angles == 0: return index
            default: break
            }
        }
        return nil
    }

    /// The demangler's name of a generic parameter: `A`…`Z` for index 0…25 (then `A0`…, as the
    /// demangler counts), followed by the depth when it is not 0.
    static func demanglerName(depth: Int, index: Int) -> String {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let base = index < 26 ? String(letters[index]) : String(letters[index % 26]) + String(index / 26)
        return depth == 0 ? base : base + String(depth)
    }
}

/// Rewrites demangled types as source text: module names dropped (`Foundation.Data` →
/// `Data`; `Swift.Result` stays where the module declares a `Result`), generic parameters
/// renamed to the source's names, their associated types without the protocol's path.
private final class ResolvedTypeRewriter: SyntaxRewriter {
    let generics: [String: String]
    let keepingSwiftFor: Set<String>

    init(genericNames: [[String]], keepingSwiftFor: Set<String>) {
        var generics: [String: String] = [:]
        for (depth, names) in genericNames.enumerated() {
            for (index, name) in names.enumerated() {
                generics[ResolvedSignature.demanglerName(depth: depth, index: index)] = name
            }
        }
        self.generics = generics
        self.keepingSwiftFor = keepingSwiftFor
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: IdentifierTypeSyntax) -> TypeSyntax {
        let visited = super.visit(node)
        guard let identifier = visited.as(IdentifierTypeSyntax.self), let name = generics[identifier.name.text] else {
            return visited
        }
        return TypeSyntax(identifier.with(\.name, .identifier(name)))
    }

    override func visit(_ node: MemberTypeSyntax) -> TypeSyntax {
        // An associated type of a generic parameter, printed with its protocol
        // (`A.Module.Protocol.Content`): `A.Content`, as the source writes it.
        if let proto = node.baseType.as(MemberTypeSyntax.self), proto.genericArgumentClause == nil,
            let module = proto.baseType.as(MemberTypeSyntax.self), module.genericArgumentClause == nil,
            let root = module.baseType.as(IdentifierTypeSyntax.self), generics[root.name.text] != nil
        {
            return visit(
                MemberTypeSyntax(
                    leadingTrivia: node.leadingTrivia, baseType: module.baseType, name: node.name,
                    genericArgumentClause: node.genericArgumentClause, trailingTrivia: node.trailingTrivia))
        }
        guard let root = node.baseType.as(IdentifierTypeSyntax.self), root.genericArgumentClause == nil,
            generics[root.name.text] == nil, root.name.text != "Self",
            !(root.name.text == "Swift" && keepingSwiftFor.contains(node.name.text))
        else { return super.visit(node) }
        // The root of a qualified name that is no generic parameter is a module.
        let plain = IdentifierTypeSyntax(
            leadingTrivia: node.leadingTrivia, name: node.name, genericArgumentClause: node.genericArgumentClause,
            trailingTrivia: node.trailingTrivia)
        let visited = visit(plain)
        guard root.name.text == "Swift", let identifier = visited.as(IdentifierTypeSyntax.self) else { return visited }
        return Self.sugared(identifier) ?? visited
    }

    /// `Optional<T>`, `Array<T>` and `Dictionary<K, V>` as `T?`, `[T]` and `[K: V]`.
    private static func sugared(_ identifier: IdentifierTypeSyntax) -> TypeSyntax? {
        guard
            let arguments = identifier.genericArgumentClause?.arguments.compactMap({ argument -> TypeSyntax? in
                guard case .type(let type) = argument.argument else { return nil }
                return type.trimmed
            }), arguments.count == identifier.genericArgumentClause?.arguments.count
        else { return nil }
        let sugared: TypeSyntax
        switch (identifier.name.text, arguments.count) {
        case ("Optional", 1):
            var wrapped = arguments[0]
            if wrapped.is(FunctionTypeSyntax.self) || wrapped.is(CompositionTypeSyntax.self)
                || wrapped.is(SomeOrAnyTypeSyntax.self) || wrapped.is(AttributedTypeSyntax.self)
            {
                wrapped = TypeSyntax(TupleTypeSyntax(elements: [TupleTypeElementSyntax(type: wrapped)]))
            }
            sugared = TypeSyntax(OptionalTypeSyntax(wrappedType: wrapped))
        case ("Array", 1): sugared = TypeSyntax(ArrayTypeSyntax(element: arguments[0]))
        case ("Dictionary", 2):
            sugared = TypeSyntax(
                DictionaryTypeSyntax(
                    key: arguments[0], colon: .colonToken(trailingTrivia: .space), value: arguments[1]))
        default: return nil
        }
        return sugared.with(\.leadingTrivia, identifier.leadingTrivia).with(\.trailingTrivia, identifier.trailingTrivia)
    }
}
