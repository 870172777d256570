import SwiftSyntax

/// The completion-handler functions of a module (and of its context modules) that have an
/// async counterpart a call can await instead: the API's own async function (found as the
/// generator finds it: `@available(*, renamed:)`, `@completionHandlerAsync`, an async
/// sibling reached by the remaining labels), or the form this tool generates for it.
///
/// Built from the same index and planner as the generated forms: the call-site rewriter
/// reads nothing of its own.
struct AsyncCounterparts {
    /// A completion-handler function and what its async counterpart looks like.
    struct Entry {
        enum Kind: Equatable {
            /// A form this tool generates (or generated: the API's sources may hold it).
            case generated
            /// The API's own async function, as the generator's report describes it.
            case library(String)
            /// The handler is called many times: its counterpart is a stream, not an await.
            case stream
            /// A scoped form: the value may not leave the callback.
            case scoped
            /// A function of the module this run converts to async (a callback pyramid),
            /// its old signature kept as a shim.
            case converted
        }

        var owner: String?
        var name: String
        var parameters: [Parameter]
        /// The handler: the last parameter.
        var handler: Int
        var shape: HandlerShape
        /// The parameters the async counterpart keeps (the handler and callback queues dropped).
        var kept: [Int]
        /// The counterpart's base name (another one with `renamed:`).
        var asyncName: String
        var kind: Kind
        /// The "async sibling" the generator found is only an async function of the module
        /// that calls this one (with a handler): a callback pyramid may still be converted.
        var siblingIsCaller = false
        /// The function returns something (a handle): a call that keeps it cannot be rewritten.
        var returnsValue: Bool
        /// Whether the async counterpart cancels the operation when the awaiting task is cancelled.
        var cancels: Bool
        /// The handler ran on the main queue (a converted function's last hop): the code that
        /// follows the awaited call must run on the main actor.
        var deliversOnMain = false
        /// A generated stream form's handlers (nil for any other counterpart).
        var stream: StreamHandlers? = nil
        /// False for an event handler the generator wrote no stream for: the call has no async
        /// counterpart, and is not counted among the calls that could await one.
        var hasCounterpart = true

        var labels: [String?] { parameters.map(\.label) }
        var displayName: String { (owner.map { $0 + "." } ?? "") + selector(name, labels) }
    }

    private var entries: [String: [Entry]] = [:]
    /// Every function that takes a handler last, with a counterpart or not, by name: the
    /// owners a call by name and labels may reach (nil for a free function).
    private var declarers: [String: [(owner: String?, parameters: [Parameter], handler: Int)]] = [:]

    /// Plans every function of `files` (the module and its context) as the generator does,
    /// and keeps those whose plan is an async form or an existing async counterpart.
    init(files: [SourceFileSyntax], index: SourceIndex, options: MigrationOptions) {
        let planner = AsyncFormPlanner(index: index, options: options, callSites: CallSites(files: []))
        var entries: [String: [Entry]] = [:]
        var declarers: [String: [(owner: String?, parameters: [Parameter], handler: Int)]] = [:]
        for file in files {
            var walker = DeclarationWalker()
            walker.onFunction = { decl, context in
                let site = FunctionSite(
                    decl: decl, context: context, file: "", line: 0,
                    parameters: Parameter.list(decl.signature.parameterClause), index: index)
                if let entry = Self.entry(site, planner: planner) {
                    entries[site.name, default: []].append(entry)
                }
                if let last = site.parameters.indices.last, planner.handlerType(site.parameters[last]) != nil {
                    declarers[site.name, default: []].append((site.context.ownerName, site.parameters, last))
                }
            }
            walker.walk(file)
        }
        self.entries = entries
        self.declarers = declarers
    }

    private static func entry(_ site: FunctionSite, planner: AsyncFormPlanner) -> Entry? {
        let parameters = site.parameters
        guard let last = parameters.indices.last, let closure = planner.handlerType(parameters[last]),
            let plan = planner.plan(site)
        else { return nil }
        var kind: Entry.Kind
        var cancels = false
        var asyncName = site.name
        var siblingIsCaller = false
        var hasCounterpart = true
        switch plan {
        case .generated(let member):
            switch member.form?.kind {
            case .async: kind = .generated
            case .stream: kind = .stream
            case .scoped: kind = .scoped
            case .future, nil: return nil
            }
            cancels = member.form?.cancels ?? false
        case .skipped(.hasAsyncSibling, let detail):
            // The sibling is async (`… async`), or named by `renamed:`; otherwise it returns a stream.
            kind = detail.hasSuffix(" async`") || site.namedAsyncForm != nil ? .library(detail) : .stream
            // A sibling that still takes the handler's label last is the scoped form this tool
            // wrote before (`f(options:completion:) async`): its body takes the value.
            if case .library = kind, let label = parameters[last].label,
                detail.hasSuffix("\(label):) async`")
            {
                kind = .scoped
            }
            siblingIsCaller = detail.hasSuffix(" calls it")
            if let named = site.namedAsyncForm {
                let base = String(named.prefix { $0 != "(" })
                asyncName = base.split(separator: ".").last.map(String.init) ?? base
            }
        case .skipped(.eventHandler, _):
            kind = .stream
            hasCounterpart = false
        case .skipped:
            return nil
        }
        let shape: HandlerShape
        if kind == .stream {
            shape = siblingIsCaller ? ShapeRule().decide(closure, in: planner.context) ?? .none : .none
        } else {
            guard let decided = ShapeRule().decide(closure, in: planner.context) else { return nil }
            shape = decided
        }
        var entry = Entry(
            owner: site.context.ownerName, name: site.name, parameters: parameters, handler: last, shape: shape,
            kept: planner.keptParameters(site, removing: [last]), asyncName: asyncName, kind: kind,
            siblingIsCaller: siblingIsCaller, returnsValue: site.returnType != nil, cancels: cancels)
        entry.hasCounterpart = hasCounterpart
        if kind == .stream, case .generated = plan { entry.stream = planner.streamHandlers(site) }
        return entry
    }

    /// Marks the function `owner.name` with these parameters converted: its counterpart is
    /// now a real async function of the module.
    mutating func markConverted(owner: String?, name: String, labels: [String?], deliversOnMain: Bool) {
        guard var list = entries[name] else { return }
        for offset in list.indices where list[offset].owner == owner && list[offset].labels == labels {
            list[offset].kind = .converted
            list[offset].deliversOnMain = deliversOnMain
            list[offset].cancels = true
        }
        entries[name] = list
    }

    /// The functions named `name` that a call with these argument labels reaches (the
    /// handler passed last, as a trailing closure or with its label); without a type
    /// checker, the receiver's type is not known: every owner's function counts.
    func entries(name: String, argumentLabels: [String?], trailingClosure: Bool) -> [(Entry, [Int])] {
        (entries[name] ?? []).compactMap { entry in
            Self.match(entry, argumentLabels: argumentLabels, trailingClosure: trailingClosure).map { (entry, $0) }
        }
    }

    /// The owners (nil for a free function) of every function that takes a handler last and
    /// that a call of `name` with these argument labels reaches, with an async counterpart or
    /// not: more than one, and only the receiver's type tells which the call is.
    func declaringOwners(name: String, argumentLabels: [String?], trailingClosure: Bool) -> [String?] {
        var owners: [String?] = []
        for declarer in declarers[name] ?? []
        where Self.match(
            declarer.parameters, handler: declarer.handler, argumentLabels: argumentLabels,
            trailingClosure: trailingClosure) != nil && !owners.contains(declarer.owner)
        {
            owners.append(declarer.owner)
        }
        return owners
    }

    /// For each argument, the index of the parameter it fills; nil when the call does not
    /// reach the function.
    static func match(_ entry: Entry, argumentLabels: [String?], trailingClosure: Bool) -> [Int]? {
        match(
            entry.parameters, handler: entry.handler, argumentLabels: argumentLabels, trailingClosure: trailingClosure)
    }

    private static func match(
        _ parameters: [Parameter], handler: Int, argumentLabels: [String?], trailingClosure: Bool
    ) -> [Int]? {
        var labels = argumentLabels
        if trailingClosure { labels.append(parameters[handler].label) }
        var result: [Int] = []
        var parameter = 0
        for label in labels {
            while parameter < parameters.count, !StreamHandlers.fills(label, parameters[parameter]) {
                guard parameters[parameter].hasDefault else { return nil }
                parameter += 1
            }
            guard parameter < parameters.count else { return nil }
            result.append(parameter)
            parameter += 1
        }
        while parameter < parameters.count {
            guard parameters[parameter].hasDefault else { return nil }
            parameter += 1
        }
        return result.last == handler ? result : nil
    }
}
