import SwiftSyntax

/// Handlers written as closures.
extension AsyncFormPlanner {

    /// A handler written as a closure, for the shapes whose value carries its error.
    func resolvingClosure(_ site: FunctionSite, shape: HandlerShape, promise: String) -> HandlerClosure? {
        switch shape {
        case .carriedResult:
            let argument = site.freshName("response", avoiding: [promise])
            return HandlerClosure(parameters: [argument], body: ["\(promise).resolve(\(argument).result)"])
        case .carriedError(let type):
            let argument = site.freshName(lowerCamel(TypeText.simpleName(type) ?? "value"), avoiding: [promise])
            return HandlerClosure(
                parameters: [argument],
                body: [
                    "if let error = \(argument).error {",
                    "    \(promise).reject(error)",
                    "} else {",
                    "    \(promise).resolve(\(argument))",
                    "}",
                ])
        default:
            return nil
        }
    }
}
