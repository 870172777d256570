import SwiftSyntax

/// A call in a `DispatchGroup` fan-out (``FanOut``): every call of the fan-out becomes an
/// `async let`, each handler's code (without `group.leave()`) runs after its await as the
/// shape rules split it, and the notify body runs after them all.
///
/// Each call of the fan-out is planned on its own (this rule drops its `leave()`, and
/// ``StatementOrderRule`` checks that nothing runs after the notify); the fan-out is
/// written once every call of it is settled (``CallSiteWriter/fanOutEdits(_:besides:entries:)``).
struct DispatchGroupRule: CallRule {
    static let summary =
        "A `DispatchGroup` fan-out (`let group = DispatchGroup()`, `group.enter()` before each call, `group.leave()` "
        + "ending each handler, `group.notify(queue: .main) { … }` last or `group.wait()`) becomes one `async let` per "
        + "call, each handler's code after its await, then the notify body; a group declared elsewhere or used otherwise, a "
        + "`leave()` elsewhere, a notify on another queue, or a call that cannot be converted leaves it alone."

    static let concurrent =
        "DispatchGroup fan-out: the calls run as `async let` child tasks, their handlers' code after each await in the "
        + "order the calls are written (before, in the order the API called them back), then the notify body; the "
        + "function now returns after it (before, it returned at once)"

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        guard let fanOut = rewrite.fanOut else { return .proceed(rewrite) }
        if let problem = fanOut.problem { return .leave(.dispatchGroup, problem) }
        if rewrite.stream != nil { return .leave(.dispatchGroup, "a multi-shot call in the fan-out") }
        if rewrite.context?.isMainActor ?? false {
            // `async let` runs its call in a child task, which is not isolated to the main actor.
            return .leave(.dispatchGroup, "on the main actor: the calls would start off it, in `async let` child tasks")
        }
        guard let member = fanOut.members.firstIndex(where: { $0.id == rewrite.statement?.id }) else {
            return .leave(.dispatchGroup, "the call is not a statement of the fan-out")
        }
        var rewrite = rewrite
        rewrite.body.removeAll { $0.id == fanOut.leaves[member].id }
        // Nothing may run after the notify, which now runs last; after `wait()`, the code ran
        // after the handlers already.
        rewrite.statement = fanOut.notifyBody == nil ? nil : fanOut.end
        rewrite.notes.append(Self.concurrent)
        return .proceed(rewrite)
    }
}

extension CallSiteWriter {
    /// The fan-outs whose every call was settled, each rewritten as one edit; the settled
    /// calls of the others (one of their calls was left alone) are left alone too.
    func fanOutEdits(
        _ pending: [(entry: Int, rewrite: CallRewrite)], besides existing: [LineEdit], entries: inout [CallReportEntry]
    ) -> [LineEdit] {
        var edits: [LineEdit] = []
        var order: [SyntaxIdentifier] = []
        var byFanOut: [SyntaxIdentifier: [(entry: Int, rewrite: CallRewrite)]] = [:]
        for item in pending {
            guard let id = item.rewrite.fanOut?.id else { continue }
            if byFanOut[id] == nil { order.append(id) }
            byFanOut[id, default: []].append(item)
        }
        for id in order {
            let members = byFanOut[id]!
            let fanOut = members[0].rewrite.fanOut!
            let settled = members.count == fanOut.members.count
            let edit = settled ? fanOutEdit(members.map(\.rewrite), fanOut) : nil
            guard let edit, !(existing + edits).contains(where: { $0.first <= edit.last && edit.first <= $0.last })
            else {
                let reason =
                    settled
                    ? "the fan-out's code cannot be written in place (a statement shares a line, or a name it needs is "
                        + "taken)"
                    : "another call of the `\(fanOut.group)` fan-out is left alone"
                for member in members { entries[member.entry].outcome = .leftAlone(.dispatchGroup, reason) }
                continue
            }
            edits.append(edit)
        }
        return edits
    }

    /// From `let group = DispatchGroup()` to the notify: the statements between kept, each call an
    /// `async let`, then each handler's code after its await, then the notify body in
    /// `await MainActor.run { }` (the context is not the main actor).
    private func fanOutEdit(_ members: [CallRewrite], _ fanOut: FanOut) -> LineEdit? {
        guard let declaration = fanOut.declaration, let end = fanOut.end,
            let first = items(fanOut).firstIndex(where: { $0.id == declaration.id })
        else { return nil }
        let start = converter.location(for: declaration.positionAfterSkippingLeadingTrivia)
        let indent = String(lines[start.line - 1].prefix { $0 == " " || $0 == "\t" })
        guard indent.count == start.column - 1 else { return nil }
        var result: [String] = []
        var previous = start.line - 2  // the last line written, 0-based
        var names: [String] = []
        guard let last = items(fanOut).firstIndex(where: { $0.id == end.id }) else { return nil }
        for item in items(fanOut)[first..<last] {
            let (from, to) = (line(item.positionAfterSkippingLeadingTrivia), line(item.endPositionBeforeTrailingTrivia))
            guard from > previous else { return nil }  // shares a line with what came before
            result += lines[(previous + 1)..<from]
            previous = to
            let rewritten = item.id == declaration.id || fanOut.enters.contains { $0.id == item.id }
            if rewritten || fanOut.members.contains(where: { $0.id == item.id }) || fanOut.loop?.item.id == item.id {
                result += trailingComment(item).map { [indent + $0] } ?? []
            }
            if let loop = fanOut.loop, loop.item.id == item.id {
                guard let lines = taskGroup(members[0], loop, indent: indent) else { return nil }
                result += lines
            } else if let member = fanOut.members.firstIndex(where: { $0.id == item.id }) {
                let rewrite = members.first { $0.call.parent?.id == item.id }!
                guard let entry = rewrite.entry, let branches = rewrite.branches else { return nil }
                let name = "\(entry.asyncName)\(member + 1)"
                guard !CallRewrite.uses(name, in: fanOut.items) else { return nil }
                names.append(name)
                let moved = Self.ranges([branches.success, branches.failure])
                result += comments(in: item, outside: moved).map { indent + $0 }
                let type = entry.shape.valueText == nil ? ": Void" : ""
                result.append(indent + "async let \(name)\(type) = \(callText(rewrite, entry: entry))")
            } else if !rewritten {
                result += lines[from...to]
            }
        }
        for (member, name) in zip(fanOut.members, names) where fanOut.loop == nil {
            let rewrite = members.first { $0.call.parent?.id == member.id }!
            guard let entry = rewrite.entry, let branches = rewrite.branches else { return nil }
            let hop = rewrite.hopsToMain  // never on the main actor (``DispatchGroupRule``)
            let awaited =
                branches.valueName.map { "let \($0) = try await \(name)" }
                ?? (entry.shape.valueText == nil ? "try await \(name)" : "_ = try await \(name)")
            result += [indent + "do {", indent + "    " + awaited]
            result += block(branches.success, indent: indent + "    ", hop: hop)
            result += catchLines(branches, indent: indent, suffix: "", hop: hop)
        }
        let endStart = line(end.positionAfterSkippingLeadingTrivia)
        guard endStart > previous else { return nil }
        result += lines[(previous + 1)..<endStart]
        let body = fanOut.notifyBody.map { [$0.statements.position.utf8Offset..<$0.statements.endPosition.utf8Offset] }
        result += comments(in: end, outside: body ?? []).map { indent + $0 }
        result += trailingComment(end).map { [indent + $0] } ?? []
        if let statements = fanOut.notifyBody?.statements {
            result += block(Array(statements), indent: indent, hop: true)
        }
        return LineEdit(first: start.line - 1, last: line(end.endPositionBeforeTrailingTrivia), lines: result)
    }

    private func items(_ fanOut: FanOut) -> [CodeBlockItemSyntax] { fanOut.items }

    /// What follows a statement on its last line (`// why`), which goes with the line.
    private func trailingComment(_ item: CodeBlockItemSyntax) -> String? {
        let end = converter.location(for: item.endPositionBeforeTrailingTrivia)
        let rest = String(decoding: Array(lines[end.line - 1].utf8).dropFirst(end.column - 1), as: UTF8.self)
        let text = rest.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        return text.isEmpty ? nil : String(text)
    }

    /// The 0-based line of a position.
    private func line(_ position: AbsolutePosition) -> Int { converter.location(for: position).line - 1 }
}

extension DispatchGroupRule {
    static var examples: [CallExample] { fixedExamples + loopExamples }

    static let fixedExamples: [CallExample] = [
        CallExample(
            "two calls, their values and errors kept in locals, the notify body last",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    let group = DispatchGroup()
                    nonisolated(unsafe) var texts: [String] = []
                    nonisolated(unsafe) var failure: (any Error)?
                    group.enter()
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let text):
                            texts.append(text)
                        case .failure(let error):
                            failure = error
                        }
                        group.leave()
                    }
                    group.enter()
                    api.load(id: 2) { result in
                        switch result {
                        case .success(let text):
                            texts.append(text)
                        case .failure(let error):
                            failure = error
                        }
                        group.leave()
                    }
                    // Report both, or the error.
                    group.notify(queue: .main) {
                        if let failure {
                            trace.failed(failure)
                        } else {
                            trace.log("got \\(texts.joined(separator: " "))")
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    nonisolated(unsafe) var texts: [String] = []
                    nonisolated(unsafe) var failure: (any Error)?
                    async let load1 = api.load(id: 1)
                    async let load2 = api.load(id: 2)
                    do {
                        let text = try await load1
                        texts.append(text)
                    } catch {
                        failure = error
                    }
                    do {
                        let text = try await load2
                        texts.append(text)
                    } catch {
                        failure = error
                    }
                    // Report both, or the error.
                    await MainActor.run {
                        if let failure {
                            trace.failed(failure)
                        } else {
                            trace.log("got \\(texts.joined(separator: " "))")
                        }
                    }
                }
                """),
            notes: ["`async let` child tasks"]),
        CallExample(
            "`defer { group.leave() }` first: an early return in the handler still left the group",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    let group = DispatchGroup()
                    nonisolated(unsafe) var saved = 0
                    nonisolated(unsafe) var failures: [String] = []
                    for text in ["a", "b"] {
                        trace.log("saving \\(text)")
                    }
                    group.enter()
                    api.save("a") { error in
                        defer { group.leave() }
                        if let error {
                            failures.append("\\(type(of: error))")
                            return
                        }
                        saved += 1
                    }
                    group.enter()
                    api.fetch(id: 2) { text, error in
                        defer { group.leave() }
                        if let error {
                            failures.append("\\(type(of: error))")
                            return
                        }
                        guard let text else { return }
                        saved += text.count
                    }
                    group.notify(queue: .main) {
                        trace.log("saved \\(saved), failed: \\(failures)")
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    nonisolated(unsafe) var saved = 0
                    nonisolated(unsafe) var failures: [String] = []
                    for text in ["a", "b"] {
                        trace.log("saving \\(text)")
                    }
                    async let save1: Void = api.save("a")
                    async let fetch2 = api.fetch(id: 2)
                    do {
                        try await save1
                        saved += 1
                    } catch {
                        failures.append("\\(type(of: error))")
                    }
                    do {
                        let text = try await fetch2
                        saved += text.count
                    } catch {
                        failures.append("\\(type(of: error))")
                    }
                    await MainActor.run {
                        trace.log("saved \\(saved), failed: \\(failures)")
                    }
                }
                """)),
        CallExample(
            "`group.wait()`: the awaits take its place, the code after it stays after them",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    let group = DispatchGroup()
                    nonisolated(unsafe) var total = 0
                    nonisolated(unsafe) var failed = false
                    group.enter()
                    api.measure("abc") { length in
                        total += length
                        group.leave()
                    }
                    group.enter()
                    api.count { result in
                        if case .success(let count) = result {
                            total += count
                        } else {
                            failed = true
                        }
                        group.leave()
                    }
                    // Both have answered.
                    group.wait()
                    trace.log(failed ? "failed" : "total \\(total)")
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    nonisolated(unsafe) var total = 0
                    nonisolated(unsafe) var failed = false
                    async let measure1 = api.measure("abc")
                    async let count2 = api.count()
                    do {
                        let length = try await measure1
                        total += length
                    } catch {}
                    do {
                        let count = try await count2
                        total += count
                    } catch {
                        failed = true
                    }
                    // Both have answered.
                    trace.log(failed ? "failed" : "total \\(total)")
                }
                """)),
        CallExample(
            "`leave()` in another place than the handler's end: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    let group = DispatchGroup()
                    group.enter()
                    api.save("a") { error in
                        if error == nil {
                            group.leave()
                        }
                        trace.log("saved")
                    }
                    group.notify(queue: .main) {
                        trace.log("done")
                    }
                }
                """,
            after: .leftAlone(.dispatchGroup, "does not end with `group.leave()`")),
        CallExample(
            "notify on a queue other than the main queue: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace, queue: DispatchQueue) async {
                    let group = DispatchGroup()
                    group.enter()
                    api.save("a") { error in
                        trace.log("saved \\(error == nil)")
                        group.leave()
                    }
                    group.notify(queue: queue) {
                        trace.log("done")
                    }
                }
                """,
            after: .leftAlone(.dispatchGroup, "a queue other than the main queue")),
        CallExample(
            "on the main actor: left alone (the calls would start off it)",
            before: """
                @MainActor
                func run(api: FakeAPI, trace: Trace) async {
                    let group = DispatchGroup()
                    group.enter()
                    api.save("a") { error in
                        trace.log("saved \\(error == nil)")
                        group.leave()
                    }
                    group.notify(queue: .main) {
                        trace.log("done")
                    }
                }
                """,
            after: .leftAlone(.dispatchGroup, "on the main actor")),
    ]
}
