import SwiftSyntax

/// A closure passed as the last argument of the original, written as a trailing closure.
struct HandlerClosure {
    var parameters: [String]
    var body: [String]
    /// A second trailing closure after this one, with its label (`failure: { error in … }`).
    var following: (label: String, closure: Box)?

    /// Keeps a following closure (a struct cannot hold itself).
    final class Box {
        let closure: HandlerClosure
        init(_ closure: HandlerClosure) { self.closure = closure }
    }

    init(parameters: [String], body: [String]) {
        self.parameters = parameters
        self.body = body
    }

    /// `{ parameters in`, the body, `}` (then the following closure), after `head`.
    func lines(after head: String) -> [String] {
        let open = parameters.isEmpty ? " {" : " { " + parameters.joined(separator: ", ") + " in"
        var lines = [head + open] + body.map { "    " + $0 }
        if let (label, next) = following {
            lines += next.closure.lines(after: "} " + label + ":")
        } else {
            lines.append("}")
        }
        return lines
    }
}

/// A call as the generated code writes it, broken the way swift-format breaks it when
/// it does not fit in the line: the arguments on their own lines, then `)`, then the
/// trailing closure.
struct CallText {
    /// `try `, `let handle = `, `_ = `: what precedes the call on its first line.
    var prefix: String
    /// `self.fetch`.
    var callee: String
    var arguments: [String]
    var trailing: HandlerClosure?

    static let lineLength = 120

    /// The lines, for a call that starts at column `indent`.
    func lines(indent: Int) -> [String] {
        let arguments = self.arguments.joined(separator: ", ")
        let parenthesized = arguments.isEmpty && trailing != nil ? "" : "(" + arguments + ")"
        let oneLine = prefix + callee + parenthesized
        let head = trailing.map { $0.parameters.isEmpty ? " {" : " { " + $0.parameters.joined(separator: ", ") + " in" }
        if indent + oneLine.count + (head?.count ?? 0) <= Self.lineLength || self.arguments.isEmpty {
            return trailing?.lines(after: oneLine) ?? [oneLine]
        }
        // The arguments, filled into lines indented one level more.
        var argumentLines: [String] = []
        var current = ""
        for (offset, argument) in self.arguments.enumerated() {
            let piece = argument + (offset < self.arguments.count - 1 ? "," : "")
            if !current.isEmpty, indent + 4 + current.count + 1 + piece.count > Self.lineLength {
                argumentLines.append(current)
                current = piece
            } else {
                current += (current.isEmpty ? "" : " ") + piece
            }
        }
        argumentLines.append(current)
        var lines = [prefix + callee + "("] + argumentLines.map { "    " + $0 }
        if let trailing {
            lines += trailing.lines(after: ")")
        } else {
            lines[lines.count - 1] += ")"
        }
        return lines
    }
}
