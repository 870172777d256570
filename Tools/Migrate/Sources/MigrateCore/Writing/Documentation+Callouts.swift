import SwiftSyntax

/// The attributes, `- Returns:` and `- Throws:` of a generated form.
extension AsyncFormPlanner {

    /// The attributes of a generated form: the original's availability, global actor and
    /// SPI, and `@discardableResult` when the original has it and the form returns a value.
    func attributes(_ site: FunctionSite, returnsValue: Bool) -> [String] {
        (site.hasDiscardableResult && returnsValue ? ["@discardableResult"] : []) + site.carriedAttributes
    }

    /// `- Returns:` and `- Throws:` of an async form.
    func returnsAndThrows(_ site: FunctionSite, shape: HandlerShape, scoped: Bool) -> [String] {
        var result: [String] = []
        let handler = "the handler"
        if scoped {
            result.append("- Returns: What the body returns.")
        } else if shape.valueText != nil {
            switch shape {
            case .carriedResult:
                result.append("- Returns: The success of the `result` that \(handler) receives.")
            case .carriedError:
                result.append("- Returns: The value \(handler) receives, when its `error` is `nil`.")
            default:
                result.append("- Returns: The value \(handler) receives.")
            }
        }
        var throwsText = "- Throws: "
        switch shape {
        case .carriedResult: throwsText += "The failure of the `result` that \(handler) receives; "
        case .carriedError: throwsText += "The `error` of the value \(handler) receives; "
        default: throwsText += shape.carriesError ? "The error \(handler) receives; " : ""
        }
        throwsText +=
            "`CancellationError` when the awaiting task is cancelled; `AbandonedPromiseError` when the handler is released without being called."
        result.append(throwsText)
        return result
    }

}
