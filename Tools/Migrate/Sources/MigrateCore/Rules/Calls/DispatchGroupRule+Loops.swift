import SwiftSyntax

/// A fan-out whose call is made in a loop (`for x in s { group.enter(); call { … } }`)
/// becomes a task group: each child awaits one call and returns its result with the
/// iteration's position; the handler's code runs in the parent for each result, as it comes.
extension CallSiteWriter {
    /// The task group's lines, or nil when a name it needs is used by the handler's code.
    func taskGroup(
        _ rewrite: CallRewrite, _ loop: (item: CodeBlockItemSyntax, statement: ForStmtSyntax), indent: String
    ) -> [String]? {
        guard let entry = rewrite.entry, let branches = rewrite.branches,
            let variable = loop.statement.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        else { return nil }
        let code = branches.success + branches.failure
        guard !["tasks", "inputs", "position", "outcome"].contains(where: { CallRewrite.uses($0, in: code) }) else {
            return nil
        }
        let moved = Self.ranges([branches.success, branches.failure])
        let value = entry.shape.valueText ?? "Void"
        let (one, two, three) = (indent + "    ", indent + "        ", indent + "            ")
        var result = comments(in: loop.item, outside: moved).map { indent + $0 }
        result += [
            indent + "await withTaskGroup(of: (Int, Result<\(value), any Error>).self) { tasks in",
            one + "let inputs = Array(\(loop.statement.sequence.trimmedDescription))",
            one + "for (position, \(variable)) in inputs.enumerated() {",
            two + "tasks.addTask {",
            three + "do {",
            three + "    return (position, .success(try await \(callText(rewrite, entry: entry))))",
            three + "} catch {",
            three + "    return (position, .failure(error))",
            three + "}",
            two + "}",
            one + "}",
        ]
        let uses = CallRewrite.uses(variable, in: code)
        result.append(one + "for await (\(uses ? "position" : "_"), outcome) in tasks {")
        if uses { result.append(two + "let \(variable) = inputs[position]") }
        let awaited =
            branches.valueName.map { "let \($0) = try outcome.get()" }
            ?? (entry.shape.valueText == nil ? "try outcome.get()" : "_ = try outcome.get()")
        result += [two + "do {", three + awaited]
        result += block(branches.success, indent: three, hop: rewrite.hopsToMain)
        result += catchLines(branches, indent: two, suffix: "", hop: rewrite.hopsToMain)
        return result + [one + "}", indent + "}"]
    }
}

extension DispatchGroupRule {
    static let loopExamples: [CallExample] = [
        CallExample(
            "a call made in a loop: a task group, each handler's code as its result comes",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    let group = DispatchGroup()
                    nonisolated(unsafe) var texts: [Int: String] = [:]
                    nonisolated(unsafe) var failure: (any Error)?
                    for id in [1, 2] {
                        group.enter()
                        api.load(id: id) { result in
                            switch result {
                            case .success(let text):
                                texts[id] = text
                            case .failure(let error):
                                failure = error
                            }
                            group.leave()
                        }
                    }
                    group.notify(queue: .main) {
                        if let failure {
                            trace.failed(failure)
                        } else {
                            trace.log("got \\(texts.sorted { $0.key < $1.key }.map(\\.value))")
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    nonisolated(unsafe) var texts: [Int: String] = [:]
                    nonisolated(unsafe) var failure: (any Error)?
                    await withTaskGroup(of: (Int, Result<String, any Error>).self) { tasks in
                        let inputs = Array([1, 2])
                        for (position, id) in inputs.enumerated() {
                            tasks.addTask {
                                do {
                                    return (position, .success(try await api.load(id: id)))
                                } catch {
                                    return (position, .failure(error))
                                }
                            }
                        }
                        for await (position, outcome) in tasks {
                            let id = inputs[position]
                            do {
                                let text = try outcome.get()
                                texts[id] = text
                            } catch {
                                failure = error
                            }
                        }
                    }
                    await MainActor.run {
                        if let failure {
                            trace.failed(failure)
                        } else {
                            trace.log("got \\(texts.sorted { $0.key < $1.key }.map(\\.value))")
                        }
                    }
                }
                """))
    ]
}
