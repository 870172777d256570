/// Where each line of a file the call-site passes rewrite comes from: a line of the file as
/// it was before the first pass, or a line a pass wrote in place of a run of those.
///
/// A pass rewrites the calls it can; the code of a handler it moves into straight-line async
/// code may hold calls that only then are in an async context (a callback pyramid), which
/// the next pass rewrites. Each pass's edits are made to the text the one before it wrote;
/// these origins give the report and the compile gate the lines of the file as the user
/// wrote it, and give the diff against it.
struct LineOrigins {
    enum Origin: Equatable {
        /// The original file's line (0-based), unchanged.
        case original(Int)
        /// A line a pass wrote in place of these original lines (0-based).
        case written(ClosedRange<Int>)
    }

    /// The original file's lines.
    let original: [String]
    /// One origin per line of the current text.
    private(set) var lines: [Origin]

    init(original: [String]) {
        self.original = original
        self.lines = original.indices.map { .original($0) }
    }

    /// The current text's lines after `edits`, made to it (they do not overlap).
    mutating func apply(_ edits: [LineEdit]) {
        for edit in edits.sorted(by: { $0.first > $1.first }) {
            let replaced = lines[edit.first...edit.last].map { origin -> ClosedRange<Int> in
                switch origin {
                case .original(let line): line...line
                case .written(let region): region
                }
            }
            let region = replaced.map(\.lowerBound).min()!...replaced.map(\.upperBound).max()!
            lines.replaceSubrange(
                edit.first...edit.last, with: repeatElement(.written(region), count: edit.lines.count))
        }
    }

    /// The original line (1-based) of the current text's `line` (1-based): the line itself
    /// when no pass rewrote it; for a line a pass wrote (a call moved out of a handler), the
    /// first original line of the region it replaced that reads the same once indentation
    /// is set aside, else the region's first line.
    /// Lines in `taken` (1-based: calls an earlier pass converted) are passed over: a pyramid's
    /// levels may read the same (`save(x) { … save(x) { … } }`).
    func originalLine(of line: Int, text: String, taken: Set<Int> = []) -> Int {
        guard lines.indices.contains(line - 1) else { return line }
        switch lines[line - 1] {
        case .original(let original):
            return original + 1
        case .written(let region):
            let wanted = text.trimmingWhitespace
            let same = region.filter { original[$0].trimmingWhitespace == wanted }.map { $0 + 1 }
            return same.first { !taken.contains($0) } ?? same.first ?? region.lowerBound + 1
        }
    }

    /// The edits that make the original file the current text `current`: each run of written
    /// lines with the original lines it replaced.
    func edits(to current: [String]) -> [LineEdit] {
        var edits: [LineEdit] = []
        var next = 0
        var written: [String] = []
        for (origin, line) in zip(lines, current) {
            guard case .original(let kept) = origin else {
                written.append(line)
                continue
            }
            if kept > next {
                edits.append(LineEdit(first: next, last: kept - 1, lines: written))
            } else if !written.isEmpty {  // written lines with no original line replaced: kept one joins them
                edits.append(LineEdit(first: kept, last: kept, lines: written + [line]))
            }
            written = []
            next = kept + 1
        }
        if next < original.count {
            edits.append(LineEdit(first: next, last: original.count - 1, lines: written))
        } else if !written.isEmpty, let last = original.indices.last {
            edits.append(LineEdit(first: last, last: last, lines: [original[last]] + written))
        }
        return edits
    }
}

/// `range` (1-based lines of a text) in the text `edits` make of it: lines before, between
/// and after the edits move with them; an end inside an edit goes to that edit's new lines.
func mapped(_ range: ClosedRange<Int>, through edits: [LineEdit]) -> ClosedRange<Int> {
    func map(_ line: Int, end: Bool) -> Int {
        var delta = 0
        for edit in edits.sorted(by: { $0.first < $1.first }) {
            let first = edit.first + 1
            let last = edit.last + 1
            if line < first { break }
            if line <= last {
                let start = first + delta
                return end ? max(start, start + edit.lines.count - 1) : start
            }
            delta += edit.lines.count - (last - first + 1)
        }
        return line + delta
    }
    let lower = map(range.lowerBound, end: false)
    return lower...max(lower, map(range.upperBound, end: true))
}

extension String {
    /// The text without the whitespace at either end.
    fileprivate var trimmingWhitespace: Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return self[start..<max(start, end)]
    }
}
