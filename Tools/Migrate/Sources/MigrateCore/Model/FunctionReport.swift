/// A function of the module whose last parameter is a completion handler: converted to
/// async (its old signature a shim over it), or left alone with the reason.
public struct FunctionReportEntry: Sendable, Equatable {
    public var file: String
    public var line: Int
    /// `Owner.name(labels:)`.
    public var function: String
    public var outcome: CallOutcome
    /// The converted functions of the module the async version awaits.
    public var awaits: [String]

    public var description: String {
        switch outcome {
        case .converted(let notes):
            (["converted   \(file):\(line)  \(function)  (async version and shim)"]
                + notes.map { "  note: \(file):\(line)  \($0)" }).joined(separator: "\n")
        case .leftAlone(let reason, let detail):
            "left alone  \(file):\(line)  \(function)  [\(reason.rawValue)] \(detail)"
        }
    }
}

extension CallMigrationResult {
    /// The functions converted (each with a shim), left alone by reason, and the chains: a
    /// converted function awaited by another converted function, and so on.
    func functionSummary() -> [String] {
        guard !functions.isEmpty else { return [] }
        let converted = functions.filter { if case .converted = $0.outcome { true } else { false } }
        var lines = [
            "  \(functions.count) function\(functions.count == 1 ? "" : "s") with a completion handler: "
                + "\(converted.count) converted, \(converted.count) shim\(converted.count == 1 ? "" : "s") written, "
                + "\(functions.count - converted.count) left alone"
        ]
        var left: [LeaveReason: [String]] = [:]
        for entry in functions {
            if case .leftAlone(let reason, _) = entry.outcome {
                left[reason, default: []].append("\(entry.file):\(entry.line)")
            }
        }
        for (reason, places) in left.sorted(by: { ($1.value.count, $0.key) < ($0.value.count, $1.key) }) {
            lines.append("    \(places.count)  \(reason.rawValue):")
            lines += Self.rows(places, indent: "        ")
        }
        let chains = self.chains(converted)
        if !chains.isEmpty {
            lines.append("  chains (each awaits the one before it):")
            lines += chains.map { "    " + $0.joined(separator: " <- ") }
        }
        return lines
    }

    /// Every longest path callee <- caller through converted functions, without recursion
    /// (a worklist of paths).
    private func chains(_ converted: [FunctionReportEntry]) -> [[String]] {
        let callers = Dictionary(grouping: converted.flatMap { entry in entry.awaits.map { ($0, entry.function) } }) {
            $0.0
        }.mapValues { $0.map(\.1) }
        let awaited = Set(converted.flatMap(\.awaits))
        let callersOf = { (name: String) in callers[name] ?? [] }
        var result: [[String]] = []
        var work = converted.filter { $0.awaits.isEmpty && awaited.contains($0.function) }.map { [$0.function] }
        while let path = work.popLast() {
            let next = callersOf(path.last!).filter { !path.contains($0) }
            if next.isEmpty { result.append(path) } else { work += next.map { path + [$0] } }
        }
        return result.sorted { $0.joined() < $1.joined() }
    }
}
