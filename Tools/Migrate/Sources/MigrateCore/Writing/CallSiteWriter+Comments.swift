import SwiftSyntax

extension CallSiteWriter {
    /// The comments of the code that goes away (the call's line, `switch`, `case`, `if let
    /// error`...), to keep above the new code: those before the statement and those of the
    /// moved code stay where they are.
    func comments(in statement: some SyntaxProtocol, outside moved: [Range<Int>]) -> [String] {
        var result: [String] = []
        let tokens = Array(statement.tokens(viewMode: .sourceAccurate))
        for (offset, token) in tokens.enumerated() {
            guard !moved.contains(where: { $0.contains(token.positionAfterSkippingLeadingTrivia.utf8Offset) }) else {
                continue
            }
            let trivia =
                (offset == 0 ? [] : Array(token.leadingTrivia))
                + (offset == tokens.count - 1 ? [] : Array(token.trailingTrivia))
            for piece in trivia {
                switch piece {
                case .lineComment(let text), .blockComment(let text), .docLineComment(let text),
                    .docBlockComment(let text):
                    result.append(text)
                default:
                    break
                }
            }
        }
        return result
    }

    /// One level of indentation inside code indented by `indent`: a tab where the file
    /// indents with tabs, else four spaces.
    static func unit(_ indent: String) -> String {
        indent.contains("\t") ? "\t" : "    "
    }
}
