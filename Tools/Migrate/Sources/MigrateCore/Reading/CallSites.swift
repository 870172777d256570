import SwiftSyntax

/// The calls the sources make, by function name, and whether each is made from async
/// code: where a new async overload with the same name and labels would be chosen
/// instead of the function it calls today.
struct CallSites {
    struct Call {
        var file: String
        var line: Int
        /// The argument labels, a trailing closure's as nil.
        var labels: [String?]
        /// Whether the last argument is an unlabeled trailing closure.
        var hasTrailingClosure: Bool { node.trailingClosure != nil }
        /// The call; whether it is made from async code is worked out only when asked.
        var node: FunctionCallExprSyntax

        /// `f().member`: the result is used through a member, which only the original's
        /// type has, so a new overload returning another type does not capture the call.
        var isMemberBase: Bool { node.parent?.is(MemberAccessExprSyntax.self) ?? false }
    }

    private var calls: [String: [Call]] = [:]

    init(files: [(path: String, tree: SourceFileSyntax)]) {
        for (path, tree) in files {
            let converter = SourceLocationConverter(fileName: path, tree: tree)
            let finder = CallFinder(viewMode: .sourceAccurate)
            finder.walk(tree)
            for (name, node, labels) in finder.calls {
                let line = converter.location(for: node.positionAfterSkippingLeadingTrivia).line
                calls[name, default: []].append(Call(file: path, line: line, labels: labels, node: node))
            }
        }
    }

    /// The first call of `name` that `reaches` accepts, made from async code and not used
    /// through a member: an async overload would take it over.
    func callTakenOver(name: String, reaches: (Call) -> Bool) -> Call? {
        calls[name]?.first { !$0.isMemberBase && reaches($0) && Self.isInAsyncContext($0.node) }
    }

    /// Whether the sources call a function named `name` (with any labels): a function that
    /// is a helper, not a test method that only XCTest calls.
    func isCalled(_ name: String) -> Bool {
        !(calls[name]?.isEmpty ?? true)
    }

    /// Every call of a function named `name`.
    func calls(named name: String) -> [Call] {
        calls[name] ?? []
    }

    /// Whether the sources call `name` with these labels, the last argument possibly
    /// written as a trailing closure (`refresh(credential, for: session) { … }` for
    /// `refresh(_:for:completion:)`).
    func isCalled(_ name: String, labels: [String?]) -> Bool {
        !calls(name, labels: labels).isEmpty
    }

    /// The calls of `name` with these labels (the last argument possibly a trailing closure),
    /// on any receiver.
    func calls(_ name: String, labels: [String?]) -> [Call] {
        (calls[name] ?? []).filter { call in
            call.labels == labels || (call.hasTrailingClosure && call.labels == labels.dropLast() + [nil])
        }
    }

    /// Whether `node` runs in an async context: the nearest enclosing function, accessor or
    /// closure is `async` (a closure is async when it says so or awaits something itself).
    private static func isInAsyncContext(_ node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        while let syntax = current {
            if let function = syntax.as(FunctionDeclSyntax.self) {
                return function.signature.effectSpecifiers?.asyncSpecifier != nil
            }
            if let initializer = syntax.as(InitializerDeclSyntax.self) {
                return initializer.signature.effectSpecifiers?.asyncSpecifier != nil
            }
            if let accessor = syntax.as(AccessorDeclSyntax.self) {
                return accessor.effectSpecifiers?.asyncSpecifier != nil
            }
            if let closure = syntax.as(ClosureExprSyntax.self) {
                if closure.signature?.effectSpecifiers?.asyncSpecifier != nil { return true }
                let awaits = AwaitFinder(viewMode: .sourceAccurate)
                awaits.walk(closure.statements)
                return awaits.found
            }
            current = syntax.parent
        }
        return false
    }
}

/// Every call `f(…)` or `x.f(…)`, with its argument labels (trailing closures included).
private final class CallFinder: SyntaxVisitor {
    var calls: [(String, FunctionCallExprSyntax, [String?])] = []

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let name: String?
        if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else if let member = node.calledExpression.as(MemberAccessExprSyntax.self) {
            name = member.declName.baseName.text
        } else {
            name = nil
        }
        if let name {
            var labels = node.arguments.map { $0.label?.text }
            if node.trailingClosure != nil { labels.append(nil) }
            labels += node.additionalTrailingClosures.map { $0.label.text }
            calls.append((name, node, labels))
        }
        return .visitChildren
    }
}

/// Whether a closure's own statements await (not those of closures nested in it).
private final class AwaitFinder: SyntaxVisitor {
    var found = false

    override func visit(_ node: AwaitExprSyntax) -> SyntaxVisitorContinueKind {
        found = true
        return .skipChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
