import SwiftParser
import SwiftSyntax

/// Rewrites the calls of completion-handler functions made from async code into
/// straight-line async code that awaits their async counterparts.
///
/// ```swift
/// let result = CallMigrator().migrate(appSources, context: apiSources)
/// print(result.files.map(\.diff).joined())
/// print(result.report())
/// ```
public struct CallMigrator: Sendable {
    public var options: MigrationOptions

    public init(options: MigrationOptions = MigrationOptions()) {
        self.options = options
    }

    /// The most passes a run makes: each pass rewrites at least one call, and a pyramid
    /// needs one per level (the deepest seen in a test suite was 23).
    static let maximumPasses = 64

    /// The edited files among `inputs` and the report of every call of a function with an
    /// async counterpart. The functions and their counterparts are found in `inputs`,
    /// `context` (the API's module, when it is another) and `symbolGraphs`, as the
    /// generator finds them; files this tool generated are read, not edited.
    ///
    /// The calls are rewritten in passes, until a pass rewrites none: a handler's code moved
    /// into async code may hold calls that are only then in an async context (a callback
    /// pyramid), and the next pass rewrites them. The report gives each call once, at its
    /// line in the file as it was, with what became of it in the last pass that saw it.
    /// `outside` is the package's other code, read only: a synchronous function it calls is
    /// not made async (``SyncPropagation``), since its calls there could not await it.
    public func migrate(
        _ inputs: [SourceInput], symbolGraphs: [SymbolGraph] = [], context: [SourceInput] = [],
        outside: [SourceInput] = []
    ) -> CallMigrationResult {
        var current = inputs
        var origins = inputs.map { LineOrigins(original: lines(of: $0.text)) }
        var placements = inputs.map { _ in [Placement]() }
        var entries: [CallReportEntry] = []
        var functions: [FunctionReportEntry] = []
        // Other modules' code does not change from pass to pass: read once.
        let interfaces = symbolGraphs.map { parseSwift($0.interface) } + context.map { parseSwift($0.text) }
        let outsideCalls = CallSites(files: outside.map { ($0.path, parseSwift($0.text)) })
        var propagated: [PropagatedFunction] = []
        // Once a pass rewrites nothing, the next makes synchronous functions async for the calls
        // they end with (``SyncPropagation``); the passes after it await what that moved.
        var propagates = false
        for pass in 1...Self.maximumPasses {
            let converted = Set(entries.filter(\.isConverted).map { "\($0.file):\($0.line)" })
            let result = migratePass(
                current, interfaces: interfaces, planFunctions: pass == 1, propagates: propagates, origins: origins,
                converted: converted, outside: outsideCalls)
            if pass == 1 { functions = result.functions }
            propagated += result.propagated
            // A call a pass left alone, seen again by the next: converted then, or in async code
            // now, what became of it then; else the first reason stands (the next pass reads the
            // tool's own code around it). A call converted is an await in the next pass: an
            // entry there is another call.
            for entry in result.entries {
                if let same = entries.firstIndex(where: {
                    $0.file == entry.file && $0.line == entry.line && $0.function == entry.function && !$0.isConverted
                }) {
                    if entry.isConverted || entries[same].isSynchronous { entries[same] = entry }
                } else {
                    entries.append(entry)
                }
            }
            guard !result.files.isEmpty else {
                if propagates || !options.propagates { break }
                propagates = true
                continue
            }
            propagates = false
            for file in result.files {
                guard let index = current.firstIndex(where: { $0.path == file.path }) else { continue }
                placements[index] =
                    placements[index].map { Placement(unit: $0.unit, lines: mapped($0.lines, through: file.edits)) }
                    + file.placements
                origins[index].apply(file.edits)
                current[index].text = file.text
            }
        }
        // The Linux test manifests list the test methods now async through `asyncTest(…)`.
        if zip(inputs, current).contains(where: { $0.text != $1.text }) {
            let asyncTests = TestManifests.asyncMethods(in: current.map(\.text))
            for index in current.indices where !Migrator.isGenerated(current[index].path) {
                let edits = TestManifests.edits(of: current[index].text, asyncTests: asyncTests)
                guard !edits.isEmpty else { continue }
                placements[index] = placements[index].map {
                    Placement(unit: $0.unit, lines: mapped($0.lines, through: edits))
                }
                origins[index].apply(edits)
                current[index].text = applying(edits, to: lines(of: current[index].text)).joined(separator: "\n")
            }
        }
        // A test that went on waiting for its expectation between two passes, and no longer does.
        for (index, entry) in entries.enumerated() {
            guard case .converted(let notes) = entry.outcome,
                let text = current.first(where: { $0.path == entry.file })?.text
            else { continue }
            entries[index].outcome = .converted(notes: notes.filter { ExpectationTestRule.stillWaits($0, in: text) })
        }
        let files = zip(inputs, current).enumerated().compactMap { index, pair -> EditedFile? in
            let (input, output) = pair
            guard input.text != output.text else { return nil }
            let edits = origins[index].edits(to: lines(of: output.text))
            return EditedFile(
                path: input.path, text: output.text,
                diff: unifiedDiff(modifying: input.path, lines: origins[index].original, edits: edits),
                placements: placements[index])
        }
        var result = CallMigrationResult(files: files, entries: entries, functions: functions)
        result.propagated = propagated
        return result
    }

    /// One pass's edits of a file: the new text, the edits made to the pass's text, and
    /// where each unit lies in the new text.
    private struct PassFile {
        var path: String
        var text: String
        var edits: [LineEdit]
        var placements: [Placement]
    }

    private struct PassResult {
        var files: [PassFile]
        var entries: [CallReportEntry]
        var functions: [FunctionReportEntry]
        var propagated: [PropagatedFunction] = []
    }

    /// One pass over `inputs`: the calls whose rewrite is settled, reported and withdrawn at
    /// their original lines (`origins`); the module's callback pyramids on the first pass.
    private func migratePass(
        _ inputs: [SourceInput], interfaces: [SourceFileSyntax], planFunctions: Bool, propagates: Bool,
        origins: [LineOrigins], converted: Set<String>, outside: CallSites
    ) -> PassResult {
        let parsed = inputs.map { parseSwift($0.text) }
        let index = SourceIndex(
            files: parsed, interfaces: interfaces, defaultIsolation: options.defaultIsolation,
            compiler: options.compilerIndex)
        var counterparts = AsyncCounterparts(files: parsed + interfaces, index: index, options: options)
        let calls = CallSites(files: zip(inputs, parsed).map { ($0.path, $1) })
        let planner = CallSitePlanner(context: RuleContext(index: index, options: options, callSites: calls))
        let sources = zip(inputs, parsed).filter { !Migrator.isGenerated($0.0.path) }.map { input, tree in
            (input: input, tree: tree, writer: CallSiteWriter(source: input.text, tree: tree, path: input.path))
        }
        // The callback pyramids first, to a fixpoint: the calls that await them follow.
        let forms = FunctionPlanner.generatedForms(zip(inputs, parsed).filter { Migrator.isGenerated($0.0.path) })
        let decisions =
            planFunctions
            ? FunctionPlanner(index: index, options: options).plan(
                sources, counterparts: &counterparts, generatedForms: forms) : []
        let makeRewrite = {
            (call: PassCallFinder.Call, path: String, line: Int, matches: [(AsyncCounterparts.Entry, [Int])]) in
            var rewrite = CallRewrite(
                call: call.node, file: path, line: line, context: CallContext(of: call.node, index: index),
                matches: matches)
            rewrite.fanOut = FanOut.enclosing(call.node)
            rewrite.declaringOwners = counterparts.declaringOwners(
                name: call.name, argumentLabels: call.labels,
                trailingClosure: StreamHandlers.hasOneTrailingClosure(call.node))
            return rewrite
        }
        let propagation =
            propagates
            ? SyncPropagation(
                seeds: sources.flatMap { input, tree, _ in
                    propagationSeeds(tree, path: input.path, counterparts: counterparts, index: index) {
                        call, matches in
                        // A call the compile gate withdrew seeds nothing.
                        let writer = sources.first { $0.input.path == input.path }!.writer
                        let passLine = writer.converter.location(for: call.node.positionAfterSkippingLeadingTrivia).line
                        let line = origins[inputs.firstIndex(of: input)!].originalLine(
                            of: passLine, text: writer.lines[passLine - 1])
                        guard options.withdrawn[.call(file: input.path, line: line)] == nil else { return false }
                        var rewrite = makeRewrite(call, input.path, line, matches)
                        rewrite.context?.isAsync = true
                        if case .proceed = planner.plan(rewrite) { return true } else { return false }
                    }.map { (input.path, $0.function, $0.apis) }
                },
                files: sources.map { SyncPropagation.File(path: $0.input.path, tree: $0.tree, writer: $0.writer) },
                callSites: calls, outside: outside, withdrawn: options.withdrawn,
                index: index) : nil
        let asyncFunctions = propagation?.asyncFunctions ?? []
        var files: [PassFile] = []
        var entries: [CallReportEntry] = []
        for (input, tree, writer) in sources {
            let origin = origins[inputs.firstIndex(of: input)!]
            // The lines of calls converted before, and of calls of this pass: two calls that read
            // the same (a pyramid's levels) each get a line of their own.
            var taken = Set(
                converted.compactMap { $0.hasPrefix(input.path + ":") ? Int($0.dropFirst(input.path.count + 1)) : nil })
            let finder = PassCallFinder(viewMode: .sourceAccurate)
            finder.walk(tree)
            let converted = decisions.filter { $0.entry.file == input.path && $0.edit != nil }
            var edits = converted.compactMap(\.edit)
            // Each unit the compile gate may withdraw, with its edits.
            var units: [(unit: EditUnit, edits: [LineEdit])] = converted.compactMap { decision in
                decision.edit.map { (.function(decision.entry.function), [$0]) }
            }
            // A shim delivers through FutureBridge's `Future`: its file imports FutureBridge.
            if let first = units.first, let imported = importEdit(tree, lines: writer.lines),
                converted.contains(where: { $0.edit?.lines.contains { $0.contains("Future<") } ?? false })
            {
                edits.append(imported)
                units[0] = (first.unit, first.edits + [imported])
            }
            // The functions made async, and their callers' awaits and tasks, before the calls.
            for chain in propagation?.chains ?? [] {
                guard let chained = chain.edits[input.path]?.filter({ !edits.contains($0) }), !chained.isEmpty else {
                    continue
                }
                edits += chained
                units.append((.function(chain.seed + SyncPropagation.unitSuffix), chained))
            }
            var fanOuts: [(entry: Int, rewrite: CallRewrite)] = []
            // The calls inside a converted function are its async version's.
            let replaced = converted.compactMap(\.rewrite?.decl).map { $0.position..<$0.endPosition }
            for call in finder.calls where !replaced.contains(where: { $0.contains(call.node.position) }) {
                let matches = counterparts.entries(
                    name: call.name, argumentLabels: call.labels,
                    trailingClosure: StreamHandlers.hasOneTrailingClosure(call.node))
                guard let entry = matches.first?.0 else { continue }
                let passLine = writer.converter.location(for: call.node.positionAfterSkippingLeadingTrivia).line
                let line = origin.originalLine(of: passLine, text: writer.lines[passLine - 1], taken: taken)
                taken.insert(line)
                var rewrite = makeRewrite(call, input.path, line, matches)
                if let body = rewrite.context?.body, asyncFunctions.contains(body.id) {
                    rewrite.context?.isAsync = true
                }
                var outcome: CallOutcome
                // A file that does not parse is never edited: the rewrite could lose what it misread.
                let withdrawn = options.withdrawn[.call(file: input.path, line: line)]
                var step =
                    tree.hasError
                    ? .leave(.syntaxErrors, "the file is not edited")
                    : withdrawn.map { .leave(.rejectedByCompiler, $0) } ?? planner.plan(rewrite)
                // A call in synchronous code is reported with what would leave it alone in async
                // code, if anything would: that, not the missing `await`, is what keeps it.
                var synchronous = false
                if case .leave(.notAsync, _) = step, var awaited = rewrite.context {
                    synchronous = true
                    awaited.isAsync = true
                    var dry = rewrite
                    dry.context = awaited
                    if case .leave(let reason, let detail) = planner.plan(dry) {
                        step = .leave(reason, detail + " (in synchronous code)")
                    }
                }
                switch step {
                case .leave(let reason, let detail):
                    let stays =
                        (rewrite.context.flatMap { propagation?.leaves[$0.body.id] }
                        ?? rewrite.context?.closureRole).map { "; " + $0 } ?? ""
                    outcome = .leftAlone(reason, detail + (reason == .notAsync ? stays : ""))
                case .proceed(let settled) where settled.fanOut != nil:
                    // Written once every call of the fan-out is settled.
                    fanOuts.append((entries.count, settled))
                    outcome = .converted(notes: settled.notes)
                case .proceed(let settled):
                    // An edit made already (a method made async by two of its calls) is made once.
                    if let new = writer.edits(settled)?.filter({ !edits.contains($0) }),
                        !new.contains(where: { overlaps($0, edits) })
                    {
                        edits += new
                        units.append((.call(file: input.path, line: line), new))
                        outcome = .converted(notes: settled.notes)
                    } else {
                        outcome = .leftAlone(.handlerPattern, "the call shares its lines with other code")
                    }
                }
                var reported = CallReportEntry(
                    file: input.path, line: line, function: entry.displayName, outcome: outcome)
                reported.callsShim = entry.kind == .converted
                reported.isSynchronous = synchronous
                reported.hasCounterpart = entry.hasCounterpart
                entries.append(reported)
            }
            let fanOutEdits = writer.fanOutEdits(fanOuts, besides: edits, entries: &entries)
            edits += fanOutEdits
            // The calls of the file's fan-outs are written together, and withdrawn together.
            for (index, _) in fanOuts where entries[index].isConverted {
                units.append((.call(file: input.path, line: entries[index].line), fanOutEdits))
            }
            if !edits.isEmpty {
                files.append(
                    PassFile(
                        path: input.path, text: applying(edits, to: writer.lines).joined(separator: "\n"),
                        edits: edits,
                        placements: units.flatMap { unit in
                            outputRanges(of: unit.edits, among: edits).map { Placement(unit: unit.unit, lines: $0) }
                        }))
            }
        }
        var result = PassResult(files: files, entries: entries, functions: decisions.map(\.entry))
        // Each function made async, and its callers, at their lines in the files as they were.
        let place = { (file: String, line: Int) -> (file: String, line: Int) in
            guard let at = inputs.firstIndex(where: { $0.path == file }) else { return (file, line) }
            let text = lines(of: inputs[at].text)
            let written = text.indices.contains(line - 1) ? text[line - 1] : ""
            return (file, origins[at].originalLine(of: line, text: written))
        }
        let named = { (places: [(file: String, line: Int)]) in places.map(place).map { "\($0.file):\($0.line)" } }
        result.propagated = (propagation?.chains ?? []).flatMap(\.functions).map { made in
            let writer = sources.first { $0.input.path == made.file }!.writer
            return PropagatedFunction(
                file: made.file, line: place(made.file, SyncPropagation.line(of: made.function, in: writer)).line,
                function: made.name, awaited: named(made.awaited), tests: named(made.tests), tasks: named(made.tasks))
        }
        return result
    }
}

/// A text's lines, as the writer splits them.
private func lines(of text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

/// Whether `edit` touches a line one of `edits` replaces.
private func overlaps(_ edit: LineEdit, _ edits: [LineEdit]) -> Bool {
    edits.contains { $0.first <= edit.last && edit.first <= $0.last }
}

/// Every call by name (`f(…)`, `x.f(…)`), with its argument labels before a trailing closure.
final class PassCallFinder: SyntaxVisitor {
    struct Call {
        var name: String
        var labels: [String?]
        var node: FunctionCallExprSyntax
    }

    var calls: [Call] = []

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let name =
            node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? node.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
        if let name {
            calls.append(Call(name: name, labels: StreamHandlers.labels(of: node), node: node))
        }
        return .visitChildren
    }
}

/// The synchronous functions (not test methods) with a call that `wouldConvert` in async code,
/// each with the names of the functions those calls reach.
private func propagationSeeds(
    _ tree: SourceFileSyntax, path: String, counterparts: AsyncCounterparts, index: SourceIndex,
    wouldConvert: (PassCallFinder.Call, [(AsyncCounterparts.Entry, [Int])]) -> Bool
) -> [(function: FunctionDeclSyntax, apis: Set<String>)] {
    guard !tree.hasError else { return [] }
    let finder = PassCallFinder(viewMode: .sourceAccurate)
    finder.walk(tree)
    var seeds: [(function: FunctionDeclSyntax, apis: Set<String>)] = []
    for call in finder.calls {
        guard let context = SyncPropagation.context(of: call.node), let function = context.as(FunctionDeclSyntax.self),
            CallContext(of: call.node, index: index)?.isAsync == false, !SyncPropagation.isTest(context)
        else { continue }
        let matches = counterparts.entries(
            name: call.name, argumentLabels: call.labels,
            trailingClosure: StreamHandlers.hasOneTrailingClosure(call.node))
        guard !matches.isEmpty, wouldConvert(call, matches) else { continue }
        if let index = seeds.firstIndex(where: { $0.function.id == function.id }) {
            seeds[index].apis.insert(call.name)
        } else {
            seeds.append((function, [call.name]))
        }
    }
    return seeds
}

/// `import FutureBridge` after a file's last import (nil when it has one, or no import to
/// follow): the line of that import, and the new one after it.
private func importEdit(_ tree: SourceFileSyntax, lines: [String]) -> LineEdit? {
    let imports = tree.statements.compactMap { $0.item.as(ImportDeclSyntax.self) }
    guard !imports.contains(where: { $0.path.trimmedDescription == "FutureBridge" }), let last = imports.last
    else { return nil }
    let converter = SourceLocationConverter(fileName: "", tree: tree)
    let line = converter.location(for: last.endPositionBeforeTrailingTrivia).line - 1
    guard lines.indices.contains(line), lines[line].trimmingCharacters(in: .whitespaces).hasPrefix("import") else {
        return nil
    }
    return LineEdit(first: line, last: line, lines: [lines[line], "import FutureBridge"])
}
