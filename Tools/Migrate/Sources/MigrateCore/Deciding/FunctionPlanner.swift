import SwiftSyntax

/// Settles which functions of the module become async (callback pyramids, with a shim), to
/// a fixpoint: a function that awaits another of the module waits until that one is
/// settled; a converted one makes its callers convertible, one left alone leaves them
/// alone. Each conversion marks the counterpart converted, so the call sites that await it
/// follow.
struct FunctionPlanner {
    let index: SourceIndex
    let options: MigrationOptions

    /// One function's decision, and the edit that makes it.
    struct Decision {
        var rewrite: FunctionRewrite?
        var entry: FunctionReportEntry
        var edit: LineEdit?
    }

    /// The decisions for the functions of `files`, in source order; `counterparts` marks the
    /// converted ones.
    func plan(
        _ files: [(input: SourceInput, tree: SourceFileSyntax, writer: CallSiteWriter)],
        counterparts: inout AsyncCounterparts, generatedForms: [String: String] = [:]
    ) -> [Decision] {
        let context = RuleContext(index: index, options: options, callSites: CallSites(files: []))
        let planner = CallSitePlanner(context: context)
        var candidates: [(rewrite: FunctionRewrite, writer: CallSiteWriter)] = []
        var decisions: [Decision] = []
        let known = counterparts
        for file in files where !file.tree.hasError {
            var walker = DeclarationWalker()
            walker.onFunction = { decl, declContext in
                let line = file.writer.converter.location(for: decl.positionAfterSkippingLeadingTrivia).line
                let site = FunctionSite(
                    decl: decl, context: declContext, file: file.input.path, line: line,
                    parameters: Parameter.list(decl.signature.parameterClause), index: index)
                let entry = known.entries(
                    name: site.name, argumentLabels: site.labels.dropLast(), trailingClosure: true
                ).first { $0.0.owner == site.context.ownerName && $0.0.labels == site.labels }?.0
                switch PyramidFunctionRule.decide(site, entry: entry, context: context, file: file.input.path) {
                case nil:
                    // Its counterpart is a form the generator wrote earlier: said, not silently skipped.
                    if let entry, let path = generatedForms[Self.formKey(entry)], site.decl.body != nil, !site.isAsync {
                        let leave = FunctionLeave(
                            reason: .generatedForm, line: site.line,
                            detail: "`\(path)` holds its async form, so it is not converted: run `calls` before the "
                                + "generator on the module's own functions, or delete that form and run `calls` again")
                        decisions.append(Decision(entry: Self.entry(site, file.input.path, leave), edit: nil))
                    }
                case .success(let rewrite): candidates.append((rewrite, file.writer))
                case .failure(let leave):
                    decisions.append(Decision(entry: Self.entry(site, file.input.path, leave), edit: nil))
                }
            }
            walker.walk(file.tree)
        }
        let keys = Set(candidates.map(\.rewrite.site.displayName))
        var settled: [String: Bool] = [:]  // converted or left alone
        var progress = true
        while progress {
            progress = false
            for (rewrite, writer) in candidates where settled[rewrite.site.displayName] == nil {
                let outcome =
                    options.withdrawn[.function(rewrite.site.displayName)].map {
                        .failure(FunctionLeave(reason: .rejectedByCompiler, line: rewrite.site.line, detail: $0))
                    }
                    ?? convert(rewrite, writer: writer, counterparts: counterparts, planner: planner) {
                        PropagationRule.decide($0, candidates: keys, settled: settled)
                    }
                if case .failure(let leave) = outcome, leave.line == 0, leave.detail == PropagationRule.waiting.detail {
                    continue
                }
                progress = true
                let site = rewrite.site
                switch outcome {
                case .success(let converted):
                    guard let edit = writer.edit(converted) else {
                        settled[site.displayName] = false
                        let leave = FunctionLeave(
                            reason: .handlerPattern, line: site.line, detail: "the function shares its lines")
                        decisions.append(Decision(entry: Self.entry(site, rewrite.file, leave), edit: nil))
                        continue
                    }
                    settled[site.displayName] = true
                    counterparts.markConverted(
                        owner: site.context.ownerName, name: site.name, labels: site.labels,
                        deliversOnMain: converted.deliversOnMain)
                    let entry = FunctionReportEntry(
                        file: rewrite.file, line: site.line, function: site.displayName,
                        outcome: .converted(notes: converted.notes),
                        awaits: converted.awaited.filter { keys.contains($0.displayName) }.map(\.displayName))
                    decisions.append(Decision(rewrite: converted, entry: entry, edit: edit))
                case .failure(var leave):
                    settled[site.displayName] = false
                    if leave.line == 0 { leave.line = site.line }
                    decisions.append(Decision(entry: Self.entry(site, rewrite.file, leave), edit: nil))
                }
            }
        }
        // What still waits awaits itself, directly or through others.
        for (rewrite, _) in candidates where settled[rewrite.site.displayName] == nil {
            let leave = FunctionLeave(
                reason: .calleeLeftAlone, line: rewrite.line,
                detail: "it awaits itself, directly or through other functions of the module")
            decisions.append(Decision(entry: Self.entry(rewrite.site, rewrite.file, leave), edit: nil))
        }
        return decisions.sorted { ($0.entry.file, $0.entry.line) < ($1.entry.file, $1.entry.line) }
    }

    /// The function's async version, written over the calls it awaits; `pending` says which
    /// of them wait for another function of the module to be settled.
    private func convert(
        _ rewrite: FunctionRewrite, writer: CallSiteWriter, counterparts: AsyncCounterparts,
        planner: CallSitePlanner, pending: @escaping (AsyncCounterparts.Entry) -> FunctionLeave?
    ) -> Result<FunctionRewrite, FunctionLeave> {
        var walk = CompletionPathRule.Walk(
            writer: writer, counterparts: counterparts, planner: planner, index: index, pending: pending,
            function: rewrite)
        do {
            if let body = rewrite.decl.body { try walk.screenNeither(body) }
            walk.function.body = try walk.path(
                Array(rewrite.decl.body?.statements ?? []), indent: "", tail: true, atEnd: true, bound: [])
            return (CompletionHopRule.check(walk.function) ?? PyramidFunctionRule.checkTaskDelivery(walk.function))
                .map { .failure($0) } ?? .success(PyramidFunctionRule.notingMainActorDelivery(walk.function))
        } catch {
            return .failure(error)
        }
    }

    /// The async functions of the form files this tool wrote (`+Async.swift`), by
    /// `Owner.name(labels:)`, with the file's path.
    static func generatedForms(_ files: some Sequence<(SourceInput, SourceFileSyntax)>) -> [String: String] {
        var forms: [String: String] = [:]
        for (input, tree) in files {
            var walker = DeclarationWalker()
            walker.onFunction = { decl, context in
                guard decl.signature.effectSpecifiers?.asyncSpecifier != nil else { return }
                let labels = Parameter.list(decl.signature.parameterClause).map(\.label)
                forms[formKey(owner: context.ownerName, name: decl.name.text, labels: labels)] = input.path
            }
            walker.walk(tree)
        }
        return forms
    }

    /// The key of the async counterpart `entry` names.
    private static func formKey(_ entry: AsyncCounterparts.Entry) -> String {
        formKey(owner: entry.owner, name: entry.asyncName, labels: entry.kept.map { entry.parameters[$0].label })
    }

    private static func formKey(owner: String?, name: String, labels: [String?]) -> String {
        (owner.map { $0 + "." } ?? "") + selector(name, labels)
    }

    private static func entry(_ site: FunctionSite, _ file: String, _ leave: FunctionLeave) -> FunctionReportEntry {
        FunctionReportEntry(
            file: file, line: leave.line, function: site.displayName,
            outcome: .leftAlone(leave.reason, leave.detail), awaits: [])
    }
}
