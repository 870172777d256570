import SwiftSyntax

/// Assembles a generated file: a header, the original file's imports plus
/// FutureBridge, and the members grouped in extensions of their owners, inside the
/// `#if` conditions of the originals.
struct FileEmitter {
    let options: MigrationOptions
    let index: SourceIndex

    func file(for input: SourceInput, tree: SourceFileSyntax, members: [GeneratedMember]) -> String {
        placedFile(for: input, tree: tree, members: members).text
    }

    /// The file's text, and where each member lies in it (for the compile gate).
    func placedFile(for input: SourceInput, tree: SourceFileSyntax, members: [GeneratedMember]) -> (
        text: String, placements: [Placement]
    ) {
        var placements: [Placement] = []
        let fileName = input.path.split(separator: "/").last.map(String.init) ?? input.path
        var lines = header(fileName: fileName)
        lines.append("")
        lines += imports(tree)
        // In a module isolated to the main actor by default, the helpers say they are not
        // (their initializers and `deinit` run wherever the stream ends). Their members say so
        // in every module: the file may be compiled in an app target with that default, although
        // the library it wraps has none.
        let nonisolated = options.defaultIsolation == nil ? "" : "nonisolated "
        if members.contains(where: \.needsUncheckedHandle) {
            // Always nonisolated: a form of a library's module may be compiled in an app target
            // isolated to the main actor by default.
            lines += [
                "",
                "/// Carries a cancel handle into the closure that cancels it: the `@Sendable` closure given",
                "/// to a stream's `StreamEnd.onStop`, or the `sending` closure given to `cancelOnRequest`,",
                "/// which FutureBridge runs in the caller's isolation. Not every SDK marks its handles",
                "/// `Sendable` (Combine's `AnyCancellable`, a request's task handle): the form touches the",
                "/// handle only there after the call that returned it, and a cancel method is made to be",
                "/// called while the operation runs.",
                "private nonisolated struct UncheckedCancelHandle<Handle>: @unchecked Sendable {",
                "    let value: Handle",
                "    nonisolated init(_ value: Handle) { self.value = value }",
                "}",
            ]
        }
        // Every generated file that needs it carries this same small copy: FutureBridge has no
        // public equivalent to call instead.
        if members.contains(where: \.needsStreamEnd) {
            lines += [
                "",
                "/// Ends a stream form's stream when the library releases the handlers that feed it (no",
                "/// more values can come), throwing `AbandonedPromiseError` if a completion was due; and",
                "/// stops the operation, exactly once, when the stream ends first. Its `onTermination` is",
                "/// set before the operation starts, and `operation` hands the stop over: a stream that",
                "/// ends before the stop is known runs it as soon as `onStop` gives it, and a stream that",
                "/// ends after the operation (`operationEnded()`, the handlers released) stops nothing.",
                "private \(nonisolated)final class StreamEnd<Element: Sendable>: Sendable {",
                "    let continuation: AsyncThrowingStream<Element, any Error>.Continuation",
                "    private let abandoned: AbandonedPromiseError?",
                "    private let operation = Promise<Void>()",
                "",
                "    nonisolated init(",
                "        _ continuation: AsyncThrowingStream<Element, any Error>.Continuation, abandoned: AbandonedPromiseError? = nil",
                "    ) {",
                "        self.continuation = continuation",
                "        self.abandoned = abandoned",
                "        // (Once the operation has ended, the request does nothing.)",
                "        continuation.onTermination = { [operation] _ in operation.future.requestCancellation() }",
                "    }",
                "",
                "    /// Runs `stop` when the stream ends before the operation does (now, if it has).",
                "    nonisolated func onStop(_ stop: @escaping @Sendable () -> Void) {",
                "        operation.cancelOnRequest(stop)",
                "    }",
                "",
                "    /// The operation ended (with `error`): finishes the stream without stopping anything.",
                "    nonisolated func operationEnded(throwing error: (any Error)? = nil) {",
                "        operation.succeed(())",
                "        continuation.finish(throwing: error)",
                "    }",
                "",
                "    deinit {",
                "        // The operation is over: ending the stream must not call back into the library.",
                "        operationEnded(throwing: abandoned)",
                "    }",
                "}",
            ]
        }

        // Consecutive members with the same extension (and outer conditions) share it.
        var groups: [(header: String?, outer: [String], availability: [String], members: [GeneratedMember])] = []
        for member in members {
            let header = member.site.extensionHeader
            let outer = member.site.context.ownerConditions
            if let last = groups.last, last.header == header, last.outer == outer, header != nil {
                groups[groups.count - 1].members.append(member)
            } else {
                groups.append((header, outer, member.site.ownerAvailability, [member]))
            }
        }
        for group in groups {
            lines.append("")
            let outer = group.outer.isEmpty ? nil : group.outer.joined(separator: " && ")
            // Inside `#if`, declarations are indented (as swift-format does).
            let pad = outer == nil ? "" : "    "
            if let outer { lines.append("#if " + outer) }
            if let header = group.header {
                lines += group.availability.map { pad + $0 }
                lines.append(pad + header + " {")
                lines += body(group.members, indent: pad + "    ", from: lines.count, placements: &placements)
                lines.append(pad + "}")
            } else {
                lines += body(group.members, indent: pad, from: lines.count, placements: &placements)
            }
            if outer != nil { lines.append("#endif") }
        }
        return (lines.joined(separator: "\n") + "\n", placements)
    }

    /// The members, separated by blank lines, each inside its own `#if` conditions
    /// (consecutive members under the same conditions share one block). `placements` gets
    /// each member's lines, the body starting after line `base` of the file.
    private func body(_ members: [GeneratedMember], indent: String, from base: Int, placements: inout [Placement])
        -> [String]
    {
        var lines: [String] = []
        var open: [String] = []
        for (offset, member) in members.enumerated() {
            let conditions = member.site.context.memberConditions
            if conditions != open {
                if !open.isEmpty { lines.append(indent + "#endif") }
                if offset > 0 { lines.append("") }
                if !conditions.isEmpty { lines.append(indent + "#if " + conditions.joined(separator: " && ")) }
                open = conditions
            } else if offset > 0 {
                lines.append("")
            }
            let pad = indent + (conditions.isEmpty ? "" : "    ")
            let first = base + lines.count + 1
            placements.append(
                Placement(
                    unit: .form(function: member.site.displayName),
                    lines: first...first + max(member.lines.count, 1) - 1))
            lines += member.lines.map { $0.isEmpty ? "" : pad + $0 }
        }
        if !open.isEmpty { lines.append(indent + "#endif") }
        return lines
    }

    private func header(fileName: String) -> [String] {
        switch options.mode {
        case .asyncForms:
            [
                "// Async forms of the completion-handler functions of \(fileName), written by",
                "// futurebridge-migrate on FutureBridge's bridge: a handler released without being called",
                "// fails with AbandonedPromiseError (naming the line below that made the promise), a",
                "// second call is ignored and reported to Diagnostics, and a cancelled task throws",
                "// CancellationError at once (and cancels the operation's handle, where there is one).",
                "// Edit freely: the tool never overwrites an existing file.",
            ]
        case .legacyShims:
            [
                "// Completion-handler forms of the async functions of \(fileName), for callers not",
                "// migrated yet, written by futurebridge-migrate: each runs the function in a task",
                "// (FutureBridge's Future), calls the handler exactly once, and returns the",
                "// CancellationToken that cancels the task. Edit freely: the tool never overwrites an",
                "// existing file.",
            ]
        }
    }

    /// The original file's unconditional imports with FutureBridge and the requested
    /// modules, in order (as swift-format wants them), then its conditional imports in
    /// their `#if` blocks.
    private func imports(_ tree: SourceFileSyntax) -> [String] {
        var unconditional: [(module: String, line: String)] = []
        var conditional: [(condition: String, line: String)] = []
        var walker = DeclarationWalker()
        walker.onImport = { decl, context in
            if context.conditions.isEmpty {
                unconditional.append((text(decl.path), importText(decl)))
            } else {
                conditional.append((context.conditions.map(\.text).joined(separator: " && "), importText(decl)))
            }
        }
        walker.walk(tree)
        for module in ["FutureBridge"] + options.imports where !unconditional.contains(where: { $0.module == module }) {
            unconditional.append((module, "import " + module))
        }
        var lines = unconditional.sorted { ($0.module, $0.line) < ($1.module, $1.line) }.map(\.line)
        var open: String?
        for (condition, line) in conditional {
            if condition != open {
                if open != nil { lines.append("#endif") }
                lines.append("#if " + condition)
                open = condition
            }
            lines.append("    " + line)
        }
        if open != nil { lines.append("#endif") }
        return lines
    }

    private func importText(_ decl: ImportDeclSyntax) -> String {
        // Re-exporting is the original file's business, not the generated one's.
        let attributes = decl.attributes.compactMap { element -> String? in
            guard case .attribute(let attribute) = element, text(attribute.attributeName) != "_exported" else {
                return nil
            }
            return text(attribute)
        }
        return
            (attributes + decl.modifiers.map { text($0) } + ["import"]
            + (decl.importKindSpecifier.map { [$0.text] } ?? []) + [text(decl.path)]).joined(separator: " ")
    }
}
