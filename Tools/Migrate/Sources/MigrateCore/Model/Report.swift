/// What kind of form the tool wrote for a function.
public enum FormKind: String, Sendable, Equatable {
    /// `async throws -> T`, the handler's value returned.
    case async
    /// `async throws -> Output`, running a body inside the callback.
    case scoped
    /// `AsyncThrowingStream<T, any Error>`, for a handler called many times.
    case stream
    /// `async throws -> T`, awaiting the `Future<T>` the function returns.
    case future
}

/// A Swift source file to migrate.
public struct SourceInput: Sendable, Equatable {
    /// The path, relative to the sources directory; generated files are named after it.
    public var path: String
    public var text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}

/// A new file the tool writes (it never edits an existing one).
public struct GeneratedFile: Sendable, Equatable {
    /// The path, relative to the sources directory (or to the output directory).
    public var path: String
    public var text: String
    /// Where each generated form lies in the text, for the compile gate.
    public var placements: [Placement]

    public init(path: String, text: String, placements: [Placement] = []) {
        self.path = path
        self.text = text
        self.placements = placements
    }
}

/// Why a function got no generated form.
public enum SkipReason: String, CaseIterable, Sendable, Comparable {
    case alreadyAsync = "already async"
    case hasAsyncSibling = "already has an async sibling"
    case hasPublisherSibling = "already has a Combine publisher counterpart"
    case hasCompletionSibling = "already has a completion-handler sibling"
    case hook = "called by the library"
    case wouldBreakCalls = "would change existing calls"
    case coveredByProtocol = "covered by the protocol's extension"
    case coveredByOverridden = "covered by the overridden method's form"
    case duplicate = "same async form as another overload"
    case notVisible = "private or fileprivate"
    case notPublic = "not public"
    case unavailable = "unavailable"
    case noasync = "unavailable from async code"
    case initializer = "initializer"
    case returnsClosure = "returns a closure"
    case unknownShape = "unknown handler shape"
    case handlerNotLast = "handler not last"
    case nonEscaping = "non-escaping handler"
    case eventHandler = "event handler"
    case notSendable = "value not Sendable"
    case variadic = "variadic parameter"
    case inoutParameter = "inout parameter"
    case autoclosure = "autoclosure parameter"
    case isolatedParameter = "isolated parameter"
    case mutating = "mutating"
    case optionalRequirement = "optional protocol requirement"
    case rejectedByCompiler = "rejected by the compiler"

    public static func < (lhs: SkipReason, rhs: SkipReason) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// What the reason means, for the rule reference (`Rules.md`) and `--help`.
    public var explanation: String {
        switch self {
        case .alreadyAsync: "the function is async already and takes a handler: nothing to bridge"
        case .hasAsyncSibling: "an async function with the same name and labels exists"
        case .hasPublisherSibling:
            "a function with the form's name and labels returns a Combine publisher: a second one, differing only in what it returns, would make existing calls ambiguous"
        case .hasCompletionSibling: "a function with the same name, labels and a completion handler exists"
        case .hook:
            "a delegate method, or a requirement of a protocol the library calls (…Delegate, …Handler, …Retrier, …Adapter…): its handler is for the conforming type to call"
        case .wouldBreakCalls:
            "a function or property with the form's name and labels exists (or the original can be called that way): existing calls would become async or ambiguous"
        case .coveredByProtocol:
            "a protocol the type conforms to declares the same requirement, whose async form (in the protocol's extension) serves this type too"
        case .coveredByOverridden:
            "the method overrides a method of the module whose async form (in the superclass's extension, which cannot be overridden) calls it through dynamic dispatch"
        case .duplicate: "another overload produces the same async signature"
        case .notVisible: "private and fileprivate functions are not visible from the generated file"
        case .notPublic: "--public-only: the generated file lives outside the module"
        case .unavailable: "marked @available(*, unavailable)"
        case .noasync: "marked @available(*, noasync): it must not be called from async code, so no async form"
        case .initializer: "an initializer cannot have an async form that waits for a handler"
        case .returnsClosure: "a function that returns a closure combines callbacks; it does not run an operation"
        case .unknownShape: "the handler's parameters are not a shape FutureBridge adapts"
        case .handlerNotLast: "the completion handler is not the last parameter"
        case .nonEscaping: "a non-escaping handler runs before the function returns: no async form needed"
        case .eventHandler:
            "a multi-shot handler (events, progress, observation) that has no stream form: its shape, or nothing returned to stop it when the stream ends"
        case .notSendable:
            "the value is not Sendable and the shape has no scoped form (the value cannot leave the callback)"
        case .variadic: "a variadic parameter cannot be forwarded"
        case .inoutParameter: "an inout parameter cannot be captured across the suspension"
        case .autoclosure: "forwarding an autoclosure would evaluate it early"
        case .isolatedParameter: "an isolated parameter cannot be forwarded to a task"
        case .mutating: "a mutating method cannot be called from the escaping bridge"
        case .optionalRequirement: "an optional protocol requirement may not exist"
        case .rejectedByCompiler:
            "the compile gate built the form with the package's own build, the compiler rejected it, and it was withdrawn"
        }
    }
}

/// What happened to one function.
public enum Outcome: Sendable, Equatable {
    /// A generated form, described (`(Result<T, E>) -> Void`, `scoped`, `cancels URLSessionDataTask`).
    case generated(String)
    case skipped(SkipReason, String)
}

/// What a generated form is, for the counts.
public struct FormInfo: Sendable, Equatable {
    public var kind: FormKind
    /// Whether cancelling the awaiting task (or ending the stream) stops the operation.
    public var cancels: Bool
    /// The type the function returns when this tool could not tell whether it stops the
    /// operation (a type of another module, with no symbol graph to say).
    public var unresolvedHandle: String?

    public init(kind: FormKind, cancels: Bool, unresolvedHandle: String? = nil) {
        self.kind = kind
        self.cancels = cancels
        self.unresolvedHandle = unresolvedHandle
    }
}

/// One line of the report: a function the tool considered.
public struct ReportEntry: Sendable, Equatable {
    public var file: String
    public var line: Int
    /// `Owner.name(label:completion:)`.
    public var function: String
    public var outcome: Outcome
    /// For a generated form: its kind and whether it wires cancellation.
    public var form: FormInfo?

    /// `file:line  Owner.name(labels:)  ...` as the report prints it.
    public var description: String {
        switch outcome {
        case .generated(let note):
            "generated  \(file):\(line)  \(function)  \(form.map { "[\($0.kind.rawValue)] " } ?? "")\(note)"
        case .skipped(let reason, let detail):
            "skipped    \(file):\(line)  \(function)  [\(reason.rawValue)] \(detail)"
        }
    }
}

/// The result of a migration: the new files and a report of every function considered.
public struct MigrationResult: Sendable {
    public var files: [GeneratedFile]
    public var entries: [ReportEntry]
    /// Functions that take no handler and return another library's future, by the
    /// future's type (`EventLoopFuture`): no form is written for them.
    public var foreignFutures: [String: Int]

    public init(files: [GeneratedFile], entries: [ReportEntry], foreignFutures: [String: Int] = [:]) {
        self.files = files
        self.entries = entries
        self.foreignFutures = foreignFutures
    }

    public var generatedCount: Int {
        entries.filter { if case .generated = $0.outcome { true } else { false } }.count
    }

    /// How many functions were skipped for each reason.
    public var skipCounts: [(SkipReason, Int)] {
        var counts: [SkipReason: Int] = [:]
        for entry in entries {
            if case .skipped(let reason, _) = entry.outcome { counts[reason, default: 0] += 1 }
        }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The report: one line per function, a blank line, then the summary.
    public func report(mode: MigrationMode, module: String? = nil) -> String {
        entries.map { $0.description + "\n" }.joined() + "\n" + summary(mode: mode, module: module)
    }

    /// The counts: functions considered, generated (streams, and forms that wire
    /// cancellation, among them), and skipped for each reason; after `module: `, when given.
    public func summary(mode: MigrationMode, module: String? = nil) -> String {
        let total = entries.count
        let kind = (mode == .asyncForms ? "completion-handler function" : "async function") + (total == 1 ? "" : "s")
        let share = total == 0 ? 0 : (generatedCount * 100 + total / 2) / total
        var head = "\(total) \(kind): \(generatedCount) generated (\(share)%)"
        if mode == .asyncForms {
            let forms = entries.compactMap(\.form)
            let streams = forms.filter { $0.kind == .stream }.count
            let cancelling = forms.filter(\.cancels).count
            head += ", \(streams) stream\(streams == 1 ? "" : "s"), \(cancelling) with cancellation wired"
        }
        var lines = [(module.map { $0 + ": " } ?? "") + head + ", \(total - generatedCount) skipped"]
        for (reason, count) in skipCounts {
            lines.append("  \(count)  \(reason.rawValue)")
        }
        for (type, count) in foreignFutures.sorted(by: { $0.key < $1.key }) {
            lines.append(
                "  \(count) other function\(count == 1 ? "" : "s") return\(count == 1 ? "s" : "") `\(type)`, another "
                    + "library's future: no form is written; its own async accessor awaits it, and cancelling the "
                    + "awaiting task does not cancel it")
        }
        let unresolved = Set(entries.compactMap(\.form?.unresolvedHandle)).sorted()
        if !unresolved.isEmpty {
            lines.append(
                "  not resolved: \(unresolved.map { "`\($0)`" }.joined(separator: ", ")) (returned, not known to "
                    + "stop the operation; pass the symbol graph of the module that declares it with --symbol-graph)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
