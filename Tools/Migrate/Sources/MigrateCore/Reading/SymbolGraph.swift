import Foundation

/// What the compiler knows about a module, from the symbol graph it writes
/// (`swift-symbolgraph-extract -module-name Foundation …`, or `swift package
/// dump-symbol-graph` for a package's own modules).
///
/// The sources alone cannot tell that a handle's class inherits `cancel()` from a class
/// in another module, that a type from another module is `Sendable`, or that a protocol
/// of another module already offers the async form. A symbol graph can: this type turns
/// it into a declarations-only Swift interface (every type with its supertypes and
/// conformances, every member as the compiler declares it), which the index reads like
/// one more source file. Types the sources declare themselves are left to the sources.
public struct SymbolGraph: Sendable, Equatable {
    /// The module the graph describes.
    public var module: String
    /// The declarations, as Swift source without bodies.
    public var interface: String

    /// Reads one `.symbols.json` file.
    public init(json: Data) throws {
        let file = try JSONDecoder().decode(File.self, from: json)
        module = file.module.name
        interface = Self.interface(of: file)
    }

    /// Reads every `.symbols.json` file at `url` (a file, or a directory searched recursively).
    public static func load(from url: URL) throws -> [SymbolGraph] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        guard isDirectory.boolValue else { return [try SymbolGraph(json: Data(contentsOf: url))] }
        var graphs: [SymbolGraph] = []
        guard let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else {
            return []
        }
        for case let file as URL in enumerator where file.lastPathComponent.hasSuffix(".symbols.json") {
            graphs.append(try SymbolGraph(json: Data(contentsOf: file)))
        }
        return graphs.sorted { $0.module < $1.module }
    }

    // MARK: - The interface

    private static let typeKeywords: [String: String] = [
        "swift.class": "class", "swift.struct": "struct", "swift.enum": "enum", "swift.protocol": "protocol",
        "swift.actor": "actor",
    ]
    private static let memberKinds: Set<String> = [
        "swift.method", "swift.type.method", "swift.property", "swift.type.property", "swift.func",
    ]

    private static func interface(of file: File) -> String {
        var symbols: [String: File.Symbol] = [:]
        for symbol in file.symbols { symbols[symbol.identifier.precise] = symbol }
        var supertypes: [String: [String]] = [:]
        var members: [String: [String]] = [:]
        var fallbackOwners: [String: String] = [:]
        func name(_ identifier: String, fallback: String?) -> String? {
            if let symbol = symbols[identifier] { return symbol.pathComponents.joined(separator: ".") }
            return fallback.map { $0.split(separator: ".").dropFirst().joined(separator: ".") }
        }
        for relationship in file.relationships {
            switch relationship.kind {
            case "inheritsFrom", "conformsTo":
                // Another module's type is named without its module (`Swift.Sendable` is
                // `Sendable`, `Foundation.NSObject` is `NSObject`), as sources name them.
                guard let target = name(relationship.target, fallback: relationship.targetFallback) else { continue }
                supertypes[relationship.source, default: []].append(target)
            case "memberOf", "requirementOf":
                members[relationship.target, default: []].append(relationship.source)
                if symbols[relationship.target] == nil, let fallback = relationship.targetFallback {
                    fallbackOwners[relationship.target] = fallback.split(separator: ".").dropFirst()
                        .joined(separator: ".")
                }
            default:
                break
            }
        }
        var lines = ["// The declarations of \(file.module.name), from its symbol graph."]
        func memberLines(_ owner: String) -> [String] {
            (members[owner] ?? []).compactMap { identifier in
                guard let member = symbols[identifier], memberKinds.contains(member.kind.identifier),
                    let declaration = member.declaration
                else { return nil }
                return "    " + declaration
            }.sorted()
        }
        let types = file.symbols.filter { typeKeywords[$0.kind.identifier] != nil }
            .sorted { $0.pathComponents.lexicographicallyPrecedes($1.pathComponents) }
        for type in types {
            let keyword = typeKeywords[type.kind.identifier]!
            let simple = type.pathComponents.last!
            let inherited = supertypes[type.identifier.precise] ?? []
            let head = keyword + " " + simple + (inherited.isEmpty ? "" : ": " + inherited.joined(separator: ", "))
            let body = memberLines(type.identifier.precise)
            let declaration = [head + " {"] + body + ["}"]
            let outer = type.pathComponents.dropLast()
            if outer.isEmpty {
                lines += declaration
            } else {
                lines.append("extension \(outer.joined(separator: ".")) {")
                lines += declaration.map { "    " + $0 }
                lines.append("}")
            }
        }
        // Members this module adds to other modules' types.
        for (owner, fallback) in fallbackOwners.sorted(by: { $0.value < $1.value }) {
            lines += ["extension \(fallback) {"] + memberLines(owner) + ["}"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - The file format (the part this tool reads)

    private struct File: Decodable {
        struct Module: Decodable { var name: String }
        struct Symbol: Decodable {
            struct Kind: Decodable { var identifier: String }
            struct Identifier: Decodable { var precise: String }
            struct Fragment: Decodable { var spelling: String }
            var kind: Kind
            var identifier: Identifier
            var pathComponents: [String]
            var declarationFragments: [Fragment]?

            /// The declaration as Swift spells it, on one line.
            var declaration: String? {
                declarationFragments.map { $0.map(\.spelling).joined().replacingOccurrences(of: "\n", with: " ") }
            }
        }
        struct Relationship: Decodable {
            var kind: String
            var source: String
            var target: String
            var targetFallback: String?
        }
        var module: Module
        var symbols: [Symbol]
        var relationships: [Relationship]
    }
}
