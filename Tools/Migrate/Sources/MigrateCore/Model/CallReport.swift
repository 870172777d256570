/// Why a call of a completion-handler function was left as it is.
public enum LeaveReason: String, CaseIterable, Sendable, Comparable {
    case notAsync = "not in an async context"
    case ambiguous = "several functions match the call"
    case receiverUnknown = "receiver's type unknown"
    case otherReceiver = "receiver of another type"
    case multiShot = "multi-shot handler"
    case scoped = "value may not leave the callback"
    case handlerNotClosure = "handler is not a closure written at the call"
    case callbackQueue = "callback queue passed"
    case defaultedArgument = "argument the async function has no default for"
    case keptHandle = "returned handle kept"
    case statementsAfter = "code runs after the call"
    case captureList = "capture list"
    case handlerPattern = "handler not in a known pattern"
    case failureType = "typed failure"
    case syntaxErrors = "file with syntax errors"
    case expectation = "test expectation"
    case continuation = "continuation the call cannot replace"
    case completionNeverCalled = "a path never calls the completion"
    case completionTwice = "a path calls the completion twice"
    case completionReordered = "code runs after the completion"
    case completionNeither = "a path passes neither a value nor an error"
    case completionEscapes = "completion not reached through convertible calls"
    case functionSignature = "signature not convertible"
    case calleeLeftAlone = "calls a function left alone"
    case generatedForm = "has a form the generator wrote"
    case dispatchGroup = "DispatchGroup fan-out"
    case rejectedByCompiler = "rejected by the compiler"

    public static func < (lhs: LeaveReason, rhs: LeaveReason) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// What happened to one call site.
public enum CallOutcome: Sendable, Equatable {
    /// Rewritten into straight-line async code, with what changed in behaviour (if anything).
    case converted(notes: [String])
    /// Left as it is, and why.
    case leftAlone(LeaveReason, String)

    /// Why the call was left alone; nil when it was converted.
    public var reason: LeaveReason? {
        if case .leftAlone(let reason, _) = self { reason } else { nil }
    }
}

/// One call of a completion-handler function with an async counterpart.
public struct CallReportEntry: Sendable, Equatable {
    public var file: String
    public var line: Int
    /// The function called, as the generator's report names it (`Owner.name(labels:)`).
    public var function: String
    public var outcome: CallOutcome
    /// The function called is one this run converted: the call reaches its shim.
    public var callsShim = false
    /// The call is in synchronous code that stayed synchronous; its reason is what would leave
    /// it alone in async code, or ``LeaveReason/notAsync`` when nothing would.
    public var isSynchronous = false
    /// False for a call of an event handler that has no stream form: nothing async to call
    /// instead, so the call is listed apart and left out of the yield.
    public var hasCounterpart = true

    /// Whether the call was rewritten.
    public var isConverted: Bool {
        if case .converted = outcome { true } else { false }
    }

    /// A call of a shim left alone in async code: the shim is marked `@available(*, renamed:)`,
    /// so the compiler warns "consider using asynchronous alternative function" there.
    public var warnsAsShimCall: Bool {
        guard callsShim, !isSynchronous, case .leftAlone(let reason, _) = outcome else { return false }
        return ![.notAsync, .receiverUnknown, .otherReceiver, .ambiguous].contains(reason)
    }

    static let shimWarning =
        "this async call of a shim will warn: \"consider using asynchronous alternative function\" (the shim "
        + "is marked `@available(*, renamed:)`); a build with -warnings-as-errors fails until the call awaits"

    public var description: String {
        switch outcome {
        case .converted(let notes):
            (["converted   \(file):\(line)  \(function)"] + notes.map { "  note: \(file):\(line)  \($0)" })
                .joined(separator: "\n")
        case .leftAlone(let reason, let detail):
            "left alone  \(file):\(line)  \(function)  [\(reason.rawValue)] \(detail)"
                + (warnsAsShimCall ? "\n  warning: \(file):\(line)  \(Self.shimWarning)" : "")
        }
    }
}

/// A file whose calls were rewritten.
public struct EditedFile: Sendable, Equatable {
    /// The path, as given.
    public var path: String
    /// The whole new text.
    public var text: String
    /// The unified diff from the old text (paths as given).
    public var diff: String
    /// Where each converted call and function lies in the new text, for the compile gate.
    public var placements: [Placement] = []
}

/// The rewritten files and the report of every call considered.
public struct CallMigrationResult: Sendable {
    public var files: [EditedFile]
    public var entries: [CallReportEntry]
    /// Every function of the module with a completion handler last, converted or not.
    public var functions: [FunctionReportEntry] = []
    /// Every synchronous function made async so that its calls could be awaited.
    public var propagated: [PropagatedFunction] = []

    /// A result of these files, call entries and function entries.
    public init(files: [EditedFile], entries: [CallReportEntry], functions: [FunctionReportEntry] = []) {
        self.files = files
        self.entries = entries
        self.functions = functions
    }

    public var convertedCount: Int {
        entries.filter(\.isConverted).count
    }

    /// The calls that have an async counterpart: the yield's denominator.
    public var candidateCount: Int {
        entries.filter(\.hasCounterpart).count
    }

    /// Every call, a blank line, then the summary.
    public func report(module: String? = nil) -> String {
        (functions.map(\.description) + propagated.map(\.description) + entries.map(\.description)).map { $0 + "\n" }
            .joined() + "\n"
            + summary(module: module)
    }

    /// The places, several to a line.
    static func rows(_ places: [String], indent: String) -> [String] {
        var lines: [String] = []
        var row = ""
        for place in places {
            if !row.isEmpty, row.count + place.count > 100 {
                lines.append(indent + row)
                row = ""
            }
            row += (row.isEmpty ? "" : ", ") + place
        }
        return lines + [indent + row]
    }

    /// Call sites found, converted, left alone by reason (each with its file:line), and
    /// every behaviour note.
    public func summary(module: String? = nil) -> String {
        let total = candidateCount
        var lines = [
            (module.map { $0 + ": " } ?? "")
                + "\(total) call site\(total == 1 ? "" : "s") with an async counterpart: "
                + "\(convertedCount) converted (\(total == 0 ? 0 : convertedCount * 100 / total)%), "
                + "\(total - convertedCount) left alone"
        ]
        var left: [LeaveReason: [String]] = [:]
        var notes: [String] = []
        for entry in entries where entry.hasCounterpart {
            switch entry.outcome {
            case .leftAlone(let reason, _): left[reason, default: []].append("\(entry.file):\(entry.line)")
            case .converted(let entryNotes): notes += entryNotes.map { "\(entry.file):\(entry.line)  \($0)" }
            }
        }
        // The reasons that leave the most calls alone first.
        for (reason, places) in left.sorted(by: { ($1.value.count, $0.key) < ($0.value.count, $1.key) }) {
            lines.append("  \(places.count)  \(reason.rawValue):")
            lines += Self.rows(places, indent: "      ")
        }
        let uncounted = entries.filter { !$0.hasCounterpart }.map { "\($0.file):\($0.line)" }
        if !uncounted.isEmpty {
            lines.append(
                "  and \(uncounted.count) call\(uncounted.count == 1 ? " of an event handler" : "s of event handlers") with no stream form "
                    + "(nothing async to call instead; not counted):")
            lines += Self.rows(uncounted, indent: "      ")
        }
        let warned = entries.filter(\.warnsAsShimCall).map { "\($0.file):\($0.line)" }
        if !warned.isEmpty {
            lines.append(
                "  \(warned.count)  async call\(warned.count == 1 ? "" : "s") of a shim left alone, each warns "
                    + "(\"consider using asynchronous alternative function\": fails -warnings-as-errors):")
            lines += Self.rows(warned, indent: "      ")
        }
        lines += functionSummary()
        lines += propagationSummary()
        if !notes.isEmpty {
            lines.append("  behaviour notes:")
            lines += notes.map { "    " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
