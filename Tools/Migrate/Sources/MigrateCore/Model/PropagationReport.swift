/// A synchronous function the tool made async so that the callback call it ends with could
/// be awaited, and what became of its callers: calls now awaited, test methods made
/// `async throws`, and roots that start a task (the work there now starts after that code
/// returns).
public struct PropagatedFunction: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    /// `Owner.name(labels:)`.
    public var function: String
    /// The calls now awaited, `file:line` in the files as they were.
    public var awaited: [String]
    /// The test methods made `async throws`, `file:line`.
    public var tests: [String]
    /// The calls where synchronous code starts a task, `file:line`.
    public var tasks: [String]

    public init(file: String, line: Int, function: String, awaited: [String], tests: [String], tasks: [String]) {
        self.file = file
        self.line = line
        self.function = function
        self.awaited = awaited
        self.tests = tests
        self.tasks = tasks
    }

    public var description: String {
        var parts = ["\(awaited.count) call\(awaited.count == 1 ? "" : "s") await\(awaited.count == 1 ? "s" : "") it"]
        if !tests.isEmpty { parts.append("tests made async: \(tests.joined(separator: ", "))") }
        if !tasks.isEmpty {
            parts.append(
                "a task starts it at \(tasks.joined(separator: ", ")) (that code stays synchronous: "
                    + "the work now starts after it returns)")
        }
        return "made async  \(file):\(line)  \(function)  (" + parts.joined(separator: "; ") + ")"
    }
}

extension CallMigrationResult {
    /// The functions made async for their calls, the calls that await them, and the roots.
    func propagationSummary() -> [String] {
        guard !propagated.isEmpty else { return [] }
        let tasks = propagated.flatMap(\.tasks)
        let tests = Set(propagated.flatMap(\.tests))
        var lines = [
            "  \(propagated.count) synchronous function\(propagated.count == 1 ? "" : "s") made async "
                + "(\(propagated.map(\.awaited.count).reduce(0, +)) calls of them awaited, \(tests.count) test "
                + "method\(tests.count == 1 ? "" : "s") made async, \(tasks.count) root\(tasks.count == 1 ? "" : "s") "
                + "starting a task)"
        ]
        if !tasks.isEmpty {
            lines.append("    roots that start a task (the work now starts after the code there returns):")
            lines += Self.rows(tasks, indent: "        ")
        }
        return lines
    }
}

extension CallMigrationResult {
    /// The part of a run over several modules (each file's path starting with its module's
    /// `prefix`) that is one module's, with the prefix taken off its paths. The places a
    /// function made async lists (its callers, in any module) keep theirs.
    public func restricted(to prefix: String) -> CallMigrationResult {
        func own<Item>(_ items: [Item], _ path: WritableKeyPath<Item, String>) -> [Item] {
            items.filter { $0[keyPath: path].hasPrefix(prefix) }.map { item in
                var item = item
                item[keyPath: path].removeFirst(prefix.count)
                return item
            }
        }
        var result = CallMigrationResult(
            files: own(files, \.path), entries: own(entries, \.file), functions: own(functions, \.file))
        result.propagated = own(propagated, \.file)
        return result
    }
}
