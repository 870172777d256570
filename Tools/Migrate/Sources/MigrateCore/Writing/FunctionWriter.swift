import Foundation
import SwiftSyntax

extension CallSiteWriter {
    /// A blank line when the source has one before `item`.
    func leadingBlank(_ item: CodeBlockItemSyntax) -> [String] {
        let blank = item.leadingTrivia.contains { piece in
            if case .newlines(let count) = piece { count > 1 } else { false }
        }
        return blank ? [""] : []
    }

    /// The comments before `item`, at `indent` (a blank line kept before them).
    func leadingComments(_ item: CodeBlockItemSyntax, indent: String) -> [String] {
        let comments = item.leadingTrivia.compactMap { piece -> String? in
            switch piece {
            case .lineComment(let text), .blockComment(let text), .docLineComment(let text), .docBlockComment(let text):
                indent + text
            default: nil
            }
        }
        return comments.isEmpty ? [] : leadingBlank(item) + comments
    }

    /// What stands before `item`: its comments (with a blank line before them), or a blank line.
    func leadingLines(_ item: CodeBlockItemSyntax, indent: String) -> [String] {
        let comments = leadingComments(item, indent: indent)
        return comments.isEmpty ? leadingBlank(item) : comments
    }

    /// The function replaced by its async version and the shim that keeps its old signature.
    func edit(_ function: FunctionRewrite) -> LineEdit? {
        let decl = function.decl
        let start = converter.location(for: decl.positionAfterSkippingLeadingTrivia)
        let end = converter.location(for: decl.endPositionBeforeTrailingTrivia)
        let indent = String(lines[start.line - 1].prefix { $0 == " " || $0 == "\t" })
        guard indent.count == start.column - 1, lines[end.line - 1].utf8.count == end.column - 1 else { return nil }
        let site = function.site
        let attributes = decl.attributes.map(\.trimmedDescription)
        let modifiers = decl.modifiers.map(\.trimmedDescription)
        let generics = decl.genericParameterClause?.parameters.map { $0.with(\.trailingComma, nil).trimmedDescription }
        let requirements = decl.genericWhereClause?.requirements.map {
            $0.with(\.trailingComma, nil).trimmedDescription
        }
        let parameters = decl.signature.parameterClause.parameters.map {
            $0.with(\.trailingComma, nil).trimmedDescription
        }
        let selector = selector(site.name, Array(site.labels.dropLast()))
        // The documentation goes with the async version, but for the handler's callout,
        // which goes with the shim (when it is all `///` lines, else it stays as it is).
        let docLine = documentationStart(decl)
        var documentation: [String] = []
        var callout: [String] = []
        if docLine != nil {
            let all = site.documentation(removingParameters: [], removingReturns: false)
            documentation = site.documentation(
                removingParameters: [function.completion],
                keeping: Set(site.parameters.dropLast().map(\.name)), removingReturns: false)
            callout = all.filter { !documentation.contains($0) }.map {
                $0.hasPrefix("- \(function.completion):") ? "- Parameter " + $0.dropFirst(2) : $0
            }
            callout = callout.map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 }.filter { !$0.isEmpty }
            if let first = callout.first, !first.hasPrefix("- Parameter ") { callout = [] }
        }
        let asyncForm = DeclarationText(
            documentation: documentation, attributes: attributes, modifiers: modifiers, name: site.name,
            genericParameters: generics ?? [], parameters: Array(parameters.dropLast()), effects: "async throws",
            returnType: function.valueType, whereRequirements: requirements ?? [], body: [])
        var asyncLines = asyncForm.lines(indent: indent.count)
        // The body, walked at one level in; the declaration's closing brace after it.
        asyncLines.removeLast()
        asyncLines += function.body.map { $0.isEmpty ? "" : "    " + $0 } + ["}"]

        let receiver = site.context.owner == nil ? "" : "self."
        let call =
            "try await " + receiver + site.name + "("
            + site.parameters.dropLast().map(\.argument).joined(separator: ", ") + ")"
        var body: [String]
        if function.taskIsolation != nil {
            body = taskShim(function, call: call)
        } else {
            let future = "Future<\(function.valueType ?? "Void")>"
            let delivery =
                ".deliver(on: \(function.deliversOnMain ? ".main" : ".inline"), to: \(function.completion))"
            body = ["\(future) { \(call) }\(delivery)"]
            if indent.count + 4 + body[0].count > CallText.lineLength {
                body = ["\(future) {", "    \(call)", "}", delivery]
            }
        }
        let shim = DeclarationText(
            documentation: ["Completion-handler form of `\(selector)`, for callers not migrated yet."]
                + (callout.isEmpty ? [] : [""] + callout),
            attributes: ["@available(*, renamed: \"\(selector)\")"] + attributes, modifiers: modifiers,
            name: site.name, genericParameters: generics ?? [], parameters: parameters, effects: "", returnType: nil,
            whereRequirements: requirements ?? [], body: body)
        var text = asyncLines + [""] + shim.lines(indent: indent.count)
        // A file indented with tabs: the levels this writer adds are tabs too (not where a
        // multi-line string literal is, whose lines' blanks are its text).
        let multiLineString = decl.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .multilineStringQuote }
        if !multiLineString,
            indent.contains("\t") || lines.indices.contains(start.line) && lines[start.line].hasPrefix("\t")
        {
            text = text.map(Self.tabbed)
        }
        return LineEdit(
            first: (docLine ?? start.line) - 1, last: end.line - 1, lines: text.map { $0.isEmpty ? "" : indent + $0 })
    }

    /// `line` with each level of four spaces at its start written as a tab.
    static func tabbed(_ line: String) -> String {
        var rest = Substring(line)
        var levels = ""
        while rest.hasPrefix("    ") {
            levels += "\t"
            rest = rest.dropFirst(4)
        }
        return levels + rest
    }

    /// The shim of an isolated function whose handler is not `@Sendable`: a task that
    /// inherits the function's isolation awaits the async version and calls the handler
    /// there, once, with the value or the error.
    private func taskShim(_ function: FunctionRewrite, call: String) -> [String] {
        let handler = function.completion
        let names = Set(function.site.parameters.map(\.name))
        let value = ["value", "result", "output"].first { !names.contains($0) } ?? "value_"
        let (awaited, success, failure): (String, String, String)
        switch function.shape {
        case .optionalValueAndError:
            (awaited, success, failure) = (
                "let \(value) = " + call, "\(handler)(\(value), nil)", "\(handler)(nil, error)"
            )
        case .errorOnly:
            (awaited, success, failure) = (call, "\(handler)(nil)", "\(handler)(error)")
        default:
            (awaited, success, failure) =
                function.valueType == nil
                ? (call, "\(handler)(.success(()))", "\(handler)(.failure(error))")
                : ("let \(value) = " + call, "\(handler)(.success(\(value)))", "\(handler)(.failure(error))")
        }
        let body = ["do {", "    " + awaited, "    " + success, "} catch {", "    " + failure, "}"]
        return ["Task {"] + body.map { "    " + $0 } + ["}"]
    }

    /// The line of the first `///` comment before `decl`, when every line from there to the
    /// declaration is one (1-based); nil otherwise.
    private func documentationStart(_ decl: FunctionDeclSyntax) -> Int? {
        let start = converter.location(for: decl.positionAfterSkippingLeadingTrivia).line
        var line = start - 1
        while line >= 1, lines[line - 1].trimmingCharacters(in: .whitespaces).hasPrefix("///") { line -= 1 }
        guard line < start - 1,
            decl.leadingTrivia.allSatisfy({ piece in
                switch piece {
                case .docLineComment, .newlines, .spaces, .tabs: true
                default: false
                }
            })
        else { return nil }
        return line + 1
    }
}
