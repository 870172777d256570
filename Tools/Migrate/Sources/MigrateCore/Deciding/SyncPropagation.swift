import SwiftSyntax

/// A synchronous function whose last call would be awaited if the function were async
/// becomes async, and so does each caller of it up the module's call graph, to a root:
///
/// - a caller that is already async awaits it;
/// - a test method (`test…` in a class, or `@Test`) becomes `async throws` and awaits it;
/// - a synchronous function of the module that could be async itself (the same checks as
///   the function) becomes async and awaits it, and its callers follow;
/// - any other synchronous code (a closure, an override, an `@objc` method, an accessor)
///   starts a `Task { await f() }` there: the report says that the work now starts after
///   that code returns.
///
/// Each call must be the last thing its code runs (as ``StatementOrderRule`` asks of a call
/// rewritten to await): code after it ran before the handler, and would now run after it. A
/// test may go on with assertions only. The whole chain is made async together, as one
/// unit of the compile gate, or not at all.
///
/// Planned only when a pass rewrote nothing (``CallMigrator``): the calls that move are then
/// in code no other rewrite of the pass touches.
struct SyncPropagation {
    /// A function made async, and what its calls became.
    struct Made {
        var function: FunctionDeclSyntax
        var file: String
        var name: String
        /// The calls now awaited, `file:line` (pass lines, mapped by the caller).
        var awaited: [(file: String, line: Int)] = []
        /// The test methods made `async throws` to await it.
        var tests: [(file: String, line: Int)] = []
        /// The roots that start a task for it.
        var tasks: [(file: String, line: Int)] = []
    }

    /// A chain of functions made async together: the unit the compile gate withdraws.
    struct Chain {
        /// The name of the function whose call started it (the gate's unit is named after it).
        var seed: String
        var functions: [Made] = []
        /// The edits of each file besides the rewritten calls'.
        var edits: [String: [LineEdit]] = [:]
    }

    /// The compile gate's unit of a chain is `.function(seed + unitSuffix)`.
    static let unitSuffix = ", with its callers"

    var chains: [Chain] = []
    /// Why a function whose last call would be awaited stays synchronous, by its id.
    var leaves: [SyntaxIdentifier: String] = [:]

    /// The functions made async by every chain: their calls are planned as in async code.
    var asyncFunctions: Set<SyntaxIdentifier> {
        Set(chains.flatMap { $0.functions.map(\.function.id) })
    }

    /// A module's file as the plan reads and edits it.
    struct File {
        var path: String
        var tree: SourceFileSyntax
        var writer: CallSiteWriter
    }

    let files: [File]
    let callSites: CallSites
    /// The calls of the package's code outside the run, which cannot be edited.
    let outside: CallSites
    let module: ModuleFunctions
    /// The module's declarations: where a call may await (``CallContext``), and whether a
    /// function runs isolated to an actor (one that does not becomes `nonisolated(nonsending)`,
    /// so that its code still runs where its caller runs, as the synchronous function's did).
    let index: SourceIndex

    /// The chains started by `seeds` (a function, and its file, whose last call would be
    /// awaited if it were async), each with every function it makes async; a seed withdrawn
    /// by the compile gate (`withdrawn`) stays synchronous with the compiler's message.
    init(
        seeds: [(file: String, function: FunctionDeclSyntax, apis: Set<String>)], files: [File], callSites: CallSites,
        outside: CallSites = CallSites(files: []), withdrawn: Withdrawals,
        index: SourceIndex
    ) {
        self.files = files
        self.callSites = callSites
        self.outside = outside
        self.index = index
        self.module = ModuleFunctions(files.map(\.tree))
        var taken = Set<SyntaxIdentifier>()
        for (file, function, apis) in seeds where !taken.contains(function.id) {
            let name = Self.displayName(function)
            if let message = withdrawn[.function(name + Self.unitSuffix)] {
                leaves[function.id] = "the compiler rejected making it async: \(message)"
                continue
            }
            switch chain(from: function, file: file, name: name) {
            case .success(let chain)
            where chain.functions.contains(where: { !$0.tests.isEmpty }) && !apis.isDisjoint(with: module.keepers):
                // A test that awaited the call would wait for a handler the test itself calls after it.
                let kept = apis.intersection(module.keepers).sorted().map { "`\($0)`" }.joined(separator: ", ")
                leaves[function.id] =
                    "a test calls it, and a function of the module named \(kept) keeps its handler to call later "
                    + "(a spy the test completes after the call): awaited, the test would wait for ever"
            case .success(let chain):
                let ids = chain.functions.map(\.function.id)
                guard taken.isDisjoint(with: ids), !overlaps(chain) else {
                    leaves[function.id] = "it calls, or is called by, a function another chain makes async"
                    continue
                }
                taken.formUnion(ids)
                chains.append(chain)
            case .failure(let leave):
                leaves[function.id] = leave.detail
            }
        }
    }

    /// Whether a chain's edits touch the lines of an earlier chain's (two chains that make
    /// the same test async share that edit, which is written once).
    private func overlaps(_ chain: Chain) -> Bool {
        chain.edits.contains { path, edits in
            let earlier = chains.flatMap { $0.edits[path] ?? [] }
            return edits.contains { edit in
                earlier.contains { $0 != edit && $0.first <= edit.last && edit.first <= $0.last }
            }
        }
    }

    /// The chain of functions made async from `seed` up to its roots, or why there is none.
    private func chain(from seed: FunctionDeclSyntax, file: String, name: String) -> Result<Chain, WaitingHelper.Leave>
    {
        var chain = Chain(seed: name)
        var queue: [(FunctionDeclSyntax, String)] = [(seed, file)]
        var members = Set([seed.id])
        var edited = Set<SyntaxIdentifier>()
        while !queue.isEmpty {
            let (function, path) = queue.removeFirst()
            let named = Self.displayName(function)
            if let reason = ineligible(function) {
                return .failure(WaitingHelper.Leave("`\(named)` \(reason)"))
            }
            guard
                let signature = writer(path)?.signatureEdit(
                    function, nonsending: !Self.isIsolated(function, index: index))
            else {
                return .failure(WaitingHelper.Leave("`\(named)`'s signature cannot be rewritten"))
            }
            chain.edits[path, default: []].append(signature)
            var made = Made(function: function, file: path, name: named)
            let owner = ModuleFunctions.owner(of: function)
            if let call = outside.calls(named: function.name.text).first(where: {
                WaitingHelper.matches($0.labels, function)
            }) {
                return .failure(
                    WaitingHelper.Leave(
                        "`\(named)` stays synchronous: it may be called at \(call.file):\(call.line), outside the "
                            + "modules given (give them together to migrate them together)"))
            }
            var calls: [CallSites.Call] = []
            for call in callSites.calls(named: function.name.text) where WaitingHelper.matches(call.labels, function) {
                let at = "its call at \(call.file):\(call.line)"
                // A call on a value of another type calls another function.
                switch ReceiverType.of(call.node) {
                case .implicitSelf(let type) where type == owner || owner == nil: break
                case .type(let type) where type == owner: break
                case .type, .implicitSelf: continue
                case .unknown:
                    return .failure(
                        WaitingHelper.Leave("`\(named)` stays synchronous: \(at) is on a value whose type is not known")
                    )
                }
                let reachable = (module.functions[function.name.text] ?? []).filter {
                    ModuleFunctions.owner(of: $0) == owner && WaitingHelper.matches(call.labels, $0)
                }
                if reachable.count > 1 {
                    return .failure(
                        WaitingHelper.Leave(
                            "`\(named)` stays synchronous: \(at) may reach another function of the same name"))
                }
                calls.append(call)
            }
            for call in calls {
                let at = "its call at \(call.file):\(call.line)"
                guard let callWriter = self.writer(call.file) else {
                    return .failure(WaitingHelper.Leave("`\(named)` stays synchronous: \(at) is in a generated file"))
                }
                guard let statement = Self.statement(of: call.node) else {
                    return .failure(WaitingHelper.Leave("`\(named)` stays synchronous: \(at) is part of an expression"))
                }
                guard let caller = Self.context(of: call.node) else {
                    return .failure(
                        WaitingHelper.Leave("`\(named)` stays synchronous: \(at) is in a `defer` or at file scope"))
                }
                let test = Self.isTest(caller)
                if let code = Self.codeAfter(statement, in: caller, allowingAssertions: test) {
                    return .failure(
                        WaitingHelper.Leave(
                            "`\(named)` stays synchronous: \(at) is followed by `\(code)`, which ran before the "
                                + "handler and would now run after it"))
                }
                let place = (call.file, call.line)
                if members.contains(caller.id) || CallContext(of: call.node, index: index)?.isAsync == true {
                    made.awaited.append(place)
                } else if test, let method = caller.as(FunctionDeclSyntax.self) {
                    if WaitingHelper.waits(method) {
                        return .failure(
                            WaitingHelper.Leave(
                                "`\(named)` stays synchronous: \(at) is in `\(method.name.text)`, which waits for an "
                                    + "expectation: async, it could not"))
                    }
                    if edited.insert(method.id).inserted {
                        guard let edit = callWriter.asyncEdit(method, throwing: true) else {
                            return .failure(WaitingHelper.Leave("`\(method.name.text)` cannot be made async"))
                        }
                        chain.edits[call.file, default: []].append(edit)
                        made.tests.append((call.file, Self.line(of: method, in: callWriter)))
                    }
                    made.awaited.append(place)
                } else if let function = caller.as(FunctionDeclSyntax.self), ineligible(function) == nil {
                    if members.insert(function.id).inserted { queue.append((function, call.file)) }
                    made.awaited.append(place)
                } else {
                    // A root: what stays synchronous starts a task, which cannot pass an error on.
                    if let problem = Self.rootProblem(caller) {
                        return .failure(WaitingHelper.Leave("`\(named)` stays synchronous: \(at) \(problem)"))
                    }
                    if Self.tryExpression(of: call.node) != nil {
                        return .failure(
                            WaitingHelper.Leave(
                                "`\(named)` stays synchronous: \(at) must stay synchronous, and a task started "
                                    + "there would drop the error it throws"))
                    }
                    guard let edit = callWriter.taskEdit(statement, mainActor: Self.isMainQueueWork(caller)) else {
                        return .failure(WaitingHelper.Leave("`\(named)` stays synchronous: \(at) shares its lines"))
                    }
                    chain.edits[call.file, default: []].append(edit)
                    made.tasks.append(place)
                    continue
                }
                guard let awaited = callWriter.awaitInsertion(call.node) else {
                    return .failure(WaitingHelper.Leave("`\(named)` stays synchronous: \(at) cannot be rewritten"))
                }
                chain.edits[call.file, default: []].append(awaited)
            }
            if calls.isEmpty {
                return .failure(
                    WaitingHelper.Leave(
                        "`\(named)` stays synchronous: nothing in the module calls it (what calls it from outside, "
                            + "a framework or another module, cannot await it)"))
            }
            chain.functions.append(made)
        }
        // Two calls of one chain on a line, or a call on a signature's line: not written.
        for (_, edits) in chain.edits {
            let sorted = edits.sorted { $0.first < $1.first }
            if zip(sorted, sorted.dropFirst()).contains(where: { $0.last >= $1.first && $0 != $1 }) {
                return .failure(WaitingHelper.Leave("`\(name)` stays synchronous: two of its edits share a line"))
            }
        }
        chain.edits = chain.edits.mapValues { edits in
            var unique: [LineEdit] = []
            for edit in edits where !unique.contains(edit) { unique.append(edit) }
            return unique
        }
        return .success(chain)
    }

    private func writer(_ path: String) -> CallSiteWriter? {
        files.first { $0.path == path }?.writer
    }
}
