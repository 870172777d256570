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

    /// The edited files among `inputs` and the report of every call of a function with an
    /// async counterpart. The functions and their counterparts are found in `inputs`,
    /// `context` (the API's module, when it is another) and `symbolGraphs`, as the
    /// generator finds them; files this tool generated are read, not edited.
    public func migrate(_ inputs: [SourceInput], symbolGraphs: [SymbolGraph] = [], context: [SourceInput] = [])
        -> CallMigrationResult
    {
        let parsed = inputs.map { Parser.parse(source: $0.text) }
        let interfaces =
            symbolGraphs.map { Parser.parse(source: $0.interface) } + context.map { Parser.parse(source: $0.text) }
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
        let decisions = FunctionPlanner(index: index, options: options).plan(
            sources, counterparts: &counterparts, generatedForms: forms)
        var files: [EditedFile] = []
        var entries: [CallReportEntry] = []
        for (input, tree, writer) in sources {
            let finder = CallFinder(viewMode: .sourceAccurate)
            finder.walk(tree)
            let converted = decisions.filter { $0.entry.file == input.path && $0.edit != nil }
            var edits = converted.compactMap(\.edit)
            // Each unit the compile gate may withdraw, with its edits.
            var units: [(unit: EditUnit, edits: [LineEdit])] = converted.compactMap { decision in
                decision.edit.map { (.function(decision.entry.function), [$0]) }
            }
            var fanOuts: [(entry: Int, rewrite: CallRewrite)] = []
            // The calls inside a converted function are its async version's.
            let replaced = converted.compactMap(\.rewrite?.decl).map { $0.position..<$0.endPosition }
            for call in finder.calls where !replaced.contains(where: { $0.contains(call.node.position) }) {
                let matches = counterparts.entries(
                    name: call.name, argumentLabels: call.labels,
                    trailingClosure: StreamHandlers.hasOneTrailingClosure(call.node))
                guard let entry = matches.first?.0 else { continue }
                let line = writer.converter.location(for: call.node.positionAfterSkippingLeadingTrivia).line
                var rewrite = CallRewrite(
                    call: call.node, file: input.path, line: line, context: CallContext(of: call.node, index: index),
                    matches: matches)
                rewrite.fanOut = FanOut.enclosing(call.node)
                rewrite.declaringOwners = counterparts.declaringOwners(
                    name: call.name, argumentLabels: call.labels,
                    trailingClosure: StreamHandlers.hasOneTrailingClosure(call.node))
                var outcome: CallOutcome
                // A file that does not parse is never edited: the rewrite could lose what it misread.
                let withdrawn = options.withdrawn[.call(file: input.path, line: line)]
                let step =
                    tree.hasError
                    ? .leave(.syntaxErrors, "the file is not edited")
                    : withdrawn.map { .leave(.rejectedByCompiler, $0) } ?? planner.plan(rewrite)
                switch step {
                case .leave(let reason, let detail):
                    outcome = .leftAlone(reason, detail)
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
                    EditedFile(
                        path: input.path, text: applying(edits, to: writer.lines).joined(separator: "\n"),
                        diff: unifiedDiff(modifying: input.path, lines: writer.lines, edits: edits),
                        placements: units.flatMap { unit in
                            outputRanges(of: unit.edits, among: edits).map { Placement(unit: unit.unit, lines: $0) }
                        }))
            }
        }
        return CallMigrationResult(files: files, entries: entries, functions: decisions.map(\.entry))
    }
}

/// Whether `edit` touches a line one of `edits` replaces.
private func overlaps(_ edit: LineEdit, _ edits: [LineEdit]) -> Bool {
    edits.contains { $0.first <= edit.last && edit.first <= $0.last }
}

/// Every call by name (`f(…)`, `x.f(…)`), with its argument labels before a trailing closure.
private final class CallFinder: SyntaxVisitor {
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
