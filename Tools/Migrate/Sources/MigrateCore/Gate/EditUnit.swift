/// The smallest piece of what the tool writes that the compile gate withdraws on its own:
/// one generated form, one rewritten call, one function made async (with its shim).
public enum EditUnit: Hashable, Sendable, CustomStringConvertible {
    /// The form generated for the function the report names `function` (`Owner.name(labels:)`).
    case form(function: String)
    /// The call at `file:line` (its path relative to the sources directory) rewritten to await.
    case call(file: String, line: Int)
    /// The function the report names `function`, made async with a shim of its old signature.
    case function(String)

    public var description: String {
        switch self {
        case .form(let function): "the async form of \(function)"
        case .call(let file, let line): "the call at \(file):\(line)"
        case .function(let function): "the async version of \(function)"
        }
    }
}

/// Where a unit's text lies in a file the tool writes: lines `lines` (1-based, inclusive).
public struct Placement: Sendable, Equatable {
    public var unit: EditUnit
    public var lines: ClosedRange<Int>

    public init(unit: EditUnit, lines: ClosedRange<Int>) {
        self.unit = unit
        self.lines = lines
    }
}

/// The units the compiler rejected, each with the compiler's message and where it said it.
/// The planners leave a withdrawn unit out (the original code stays) and report it, and the
/// units that depend on it follow: a call that would await a withdrawn form, a function whose
/// async version would await a withdrawn one.
public typealias Withdrawals = [EditUnit: String]

/// The 1-based line ranges, in the new text, of each run of `edits` (the file's edits, which
/// do not overlap). A removal covers the line after it, where the lines joined.
func outputRanges(of edits: [LineEdit], among all: [LineEdit]) -> [ClosedRange<Int>] {
    var delta = 0
    var ranges: [ClosedRange<Int>] = []
    for edit in all.sorted(by: { $0.first < $1.first }) {
        let start = edit.first + delta + 1
        if edits.contains(edit) {
            ranges.append(start...max(start, start + edit.lines.count - 1))
        }
        delta += edit.lines.count - (edit.last - edit.first + 1)
    }
    return ranges
}
