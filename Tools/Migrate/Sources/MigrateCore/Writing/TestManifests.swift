import SwiftParser
import SwiftSyntax

/// The Linux test manifests of a test module, kept building once its tests are async.
///
/// On Linux, XCTest finds a test method through a list its type declares (`static var
/// allTests = [("testX", testX), …]`, or the `__allTests__` lists `swift test
/// --generate-linuxmain` writes): each entry names a synchronous method. An `async` method
/// is listed through `asyncTest(testX)`, which XCTest provides. A method the tool made
/// `async` keeps its entry that way.
enum TestManifests {
    /// The methods without parameters that are `async`, as `Type.method`, in the module's `texts`.
    static func asyncMethods(in texts: [String]) -> Set<String> {
        Set(texts.flatMap { AsyncTestFinder.find(in: parseSwift($0)) })
    }

    /// The edits of `text` that wrap each listed method that is `async` in `asyncTest(…)`:
    /// an entry `("name", name)` (or `Type.name`) in a type, or an extension of a type, whose
    /// method `name()` is `async` (`asyncTests`, from ``asyncMethods(in:)``).
    static func edits(of text: String, asyncTests: Set<String>) -> [LineEdit] {
        guard !asyncTests.isEmpty, text.contains("\"") else { return [] }
        let tree = parseSwift(text)
        let finder = EntryFinder(asyncTests: asyncTests)
        finder.walk(tree)
        guard !finder.references.isEmpty else { return [] }
        let converter = SourceLocationConverter(fileName: "", tree: tree)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        var wraps: [Int: [(start: Int, end: Int)]] = [:]
        for reference in finder.references {
            let start = converter.location(for: reference.positionAfterSkippingLeadingTrivia)
            let end = converter.location(for: reference.endPositionBeforeTrailingTrivia)
            guard start.line == end.line else { continue }
            wraps[start.line - 1, default: []].append((start.column - 1, end.column - 1))
        }
        return wraps.keys.sorted().map { line in
            var bytes = lines[line]
            for wrap in wraps[line]!.sorted(by: { $0.start > $1.start }) {
                bytes.insert(contentsOf: Array(")".utf8), at: wrap.end)
                bytes.insert(contentsOf: Array("asyncTest(".utf8), at: wrap.start)
            }
            return LineEdit(first: line, last: line, lines: [String(decoding: bytes, as: UTF8.self)])
        }
    }
}

/// `Type.method` for each method without parameters declared `async` in a type or an
/// extension of one.
private final class AsyncTestFinder: SyntaxVisitor {
    var found: [String] = []

    static func find(in tree: SourceFileSyntax) -> [String] {
        let finder = AsyncTestFinder(viewMode: .sourceAccurate)
        finder.walk(tree)
        return finder.found
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.signature.effectSpecifiers?.asyncSpecifier != nil, node.signature.parameterClause.parameters.isEmpty,
            let type = enclosingTypeName(of: node)
        {
            found.append(type + "." + node.name.text)
        }
        return .skipChildren
    }
}

/// The references in manifest entries, `("name", name)`, to a method of `asyncTests`
/// (`Type.method`) of the type the entry's list is declared in.
private final class EntryFinder: SyntaxVisitor {
    let asyncTests: Set<String>
    var references: [ExprSyntax] = []

    init(asyncTests: Set<String>) {
        self.asyncTests = asyncTests
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: LabeledExprListSyntax) -> SyntaxVisitorContinueKind {
        guard node.parent?.is(TupleExprSyntax.self) ?? false, node.count == 2,
            node.first?.expression.is(StringLiteralExprSyntax.self) ?? false,
            let reference = node.last?.expression, let type = enclosingTypeName(of: node)
        else { return .visitChildren }
        let name =
            reference.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? reference.as(MemberAccessExprSyntax.self)?.declName.baseName.text
        if let name, asyncTests.contains(type + "." + name) { references.append(reference) }
        return .skipChildren
    }
}

/// The name of the type, or of the type an extension extends, that `node` is declared in.
private func enclosingTypeName(of node: some SyntaxProtocol) -> String? {
    var current = node.parent
    while let syntax = current {
        if let type = syntax.as(ClassDeclSyntax.self) { return type.name.text }
        if let type = syntax.as(StructDeclSyntax.self) { return type.name.text }
        if let type = syntax.as(ExtensionDeclSyntax.self) { return type.extendedType.trimmedDescription }
        current = syntax.parent
    }
    return nil
}
