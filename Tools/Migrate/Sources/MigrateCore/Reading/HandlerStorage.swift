import SwiftSyntax

/// Where a function's body keeps a handler: the names on the left of an assignment whose
/// right side is the handler (`progressHandler = handler`, `state.listener = (queue, handler)`)
/// and the collections it is appended to (`observers.append(handler)`).
enum HandlerStorage {
    static func names(storing handler: String, in decl: FunctionDeclSyntax) -> [String] {
        guard let body = decl.body else { return [] }
        let finder = StorageFinder(handler: handler)
        finder.walk(body)
        return finder.names
    }

    private final class StorageFinder: SyntaxVisitor {
        let handler: String
        var names: [String] = []

        init(handler: String) {
            self.handler = handler
            super.init(viewMode: .sourceAccurate)
        }

        /// Whether `node` is the handler, or a tuple or call that passes it on as is.
        private func passes(_ node: ExprSyntax) -> Bool {
            if let reference = node.as(DeclReferenceExprSyntax.self) { return reference.baseName.text == handler }
            if let tuple = node.as(TupleExprSyntax.self) { return tuple.elements.contains { passes($0.expression) } }
            return false
        }

        private func lastNames(_ node: ExprSyntax) -> [String] {
            var result: [String] = []
            var current: ExprSyntax? = node
            while let expression = current {
                if let member = expression.as(MemberAccessExprSyntax.self) {
                    result.append(member.declName.baseName.text)
                    current = member.base
                } else if let reference = expression.as(DeclReferenceExprSyntax.self) {
                    result.append(reference.baseName.text)
                    current = nil
                } else {
                    current = nil
                }
            }
            return result
        }

        override func visit(_ node: InfixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
            if node.operator.is(AssignmentExprSyntax.self), passes(node.rightOperand) {
                names += lastNames(node.leftOperand)
            }
            return .visitChildren
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            if let member = node.calledExpression.as(MemberAccessExprSyntax.self),
                ["append", "insert", "add"].contains(member.declName.baseName.text),
                node.arguments.contains(where: { passes($0.expression) }), let base = member.base
            {
                names += lastNames(base)
            }
            return .visitChildren
        }
    }
}
