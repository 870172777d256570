import Foundation
import SwiftSyntax

/// Plans the completion-handler shim of an `async` function, for callers that are not
/// migrated yet: `Future { try await f() }.deliver(on: .inline, to: completion)`,
/// returning the `CancellationToken` that cancels the task.
struct LegacyShimPlanner {
    let index: SourceIndex
    let options: MigrationOptions

    private var forms: AsyncFormPlanner {
        AsyncFormPlanner(index: index, options: options, callSites: CallSites(files: []))
    }

    /// nil when the function is not async.
    func plan(_ site: FunctionSite) -> Plan? {
        guard site.isAsync else { return nil }
        if let message = options.withdrawn[.form(function: site.displayName)] {
            return .skipped(.rejectedByCompiler, message)
        }
        if let last = site.parameters.last, forms.handlerType(last) != nil {
            return .skipped(.alreadyAsync, "async and takes a handler")
        }
        if site.isUnavailable { return .skipped(.unavailable, "") }
        if site.isOptionalRequirement { return .skipped(.optionalRequirement, "") }
        if let problem = forms.accessProblem(site) { return problem }
        if let problem = forms.parameterProblem(site) { return problem }
        if site.isMutating { return .skipped(.mutating, "") }

        let handlerLabel = site.labels.contains("completion") ? "completionHandler" : "completion"
        if let sibling = completionSibling(site) { return .skipped(.hasCompletionSibling, "`\(sibling)`") }

        // Everything the task captures must be Sendable: the result, the arguments, self.
        let generics = Set(site.genericsInScope.keys)
        if let result = site.returnType {
            if text(result).hasPrefix("some ") { return .skipped(.notSendable, "opaque result `\(text(result))`") }
            if case .notSendable(let culprit) = index.sendability(of: result, generics: generics) {
                return .skipped(.notSendable, "result: `\(culprit)` is not Sendable")
            }
        }
        for parameter in site.parameters {
            if case .notSendable(let culprit) = index.sendability(of: parameter.type, generics: generics) {
                return .skipped(.notSendable, "parameter `\(parameter.name)`: `\(culprit)` is not Sendable")
            }
        }
        if !site.isStatic, let owner = site.context.ownerName, let info = index.typeInfo(owner),
            !index.isSendable(info)
        {
            return .skipped(
                .notSendable, "`\(SourceIndex.lastComponent(info.name))` is not Sendable: the task cannot capture self")
        }
        return .generated(shim(site, handlerLabel: handlerLabel))
    }

    /// A synchronous function with the same name and labels, plus a last handler.
    private func completionSibling(_ site: FunctionSite) -> String? {
        let owner = site.context.ownerName ?? ""
        for (key, entries) in index.functions
        where key.owner == owner && key.name == site.name && key.labels.count == site.labels.count + 1
            && Array(key.labels.dropLast()) == site.labels
        {
            if entries.contains(where: { !$0.isAsync && $0.hasHandler }) {
                return selector(site.name, key.labels)
            }
        }
        return nil
    }

    private func shim(_ site: FunctionSite, handlerLabel: String) -> GeneratedMember {
        let value = site.returnType.map { text($0) }
        let throwing = site.isThrowing
        let completionType: String
        let completionDoc: String
        switch (throwing, value) {
        case (true, let value?):
            completionType = "(Result<\(value), any Error>) -> Void"
            completionDoc =
                "Called once, with the value or the error; with `CancellationError` if the token cancelled the task and the function stopped."
        case (true, nil):
            completionType = "((any Error)?) -> Void"
            completionDoc =
                "Called once, with nil or the error; with `CancellationError` if the token cancelled the task and the function stopped."
        case (false, let value?):
            completionType = "(\(value)) -> Void"
            completionDoc =
                "Called once with the value (the function cannot fail, so a cancelled task delivers it too)."
        case (false, nil):
            completionType = "() -> Void"
            completionDoc = "Called once, when the function returns."
        }

        var parameters = site.parameters.map { parameter -> String in
            guard let closure = ClosureType(parameter.type, aliases: index.alias), !closure.isEscaping else {
                return parameter.declaration
            }
            // The task outlives the call: a closure parameter must escape.
            var declaration = parameter.declaration
            if let colon = declaration.range(of: ": ") {
                declaration.replaceSubrange(colon, with: ": @escaping ")
            }
            return declaration
        }
        parameters.append("\(handlerLabel): @escaping @Sendable \(completionType)")

        let receiver = site.context.owner == nil ? "" : "self."
        let call =
            (throwing ? "try " : "") + "await " + receiver + site.name + "("
            + site.parameters.map(\.argument).joined(separator: ", ") + ")"
        let future = "Future<\(value ?? "Void")>"
        var body = ["\(future) { \(call) }.deliver(on: .inline, to: \(handlerLabel))"]
        let indent = site.context.owner == nil ? 4 : 8
        if indent + body[0].count > 120 {
            body = ["\(future) {", "    \(call)", "}", ".deliver(on: .inline, to: \(handlerLabel))"]
        }

        var documentation = [
            "Completion-handler form of `\(site.selectorText)`, for callers not migrated to async yet."
        ]
        let original = site.documentation(removingParameters: [], removingReturns: true, removingThrows: true)
        if !original.isEmpty { documentation += [""] + original }
        // A new section, unless the original ends with callouts (`- Parameter ...`).
        if !(original.last?.trimmingCharacters().hasPrefix("- ") ?? false) || original.isEmpty { documentation += [""] }
        documentation +=
            forms.wrapped("- Parameter \(handlerLabel): \(completionDoc)")
            + forms.wrapped("- Returns: A token whose `cancel()` cancels the task that runs `\(site.selectorText)`.")

        var modifiers = forms.modifiers(site)
        if site.isActorInstanceMethod, !modifiers.contains("nonisolated") {
            // Legacy callers are outside the actor; the shim touches no isolated state.
            modifiers.append("nonisolated")
        }
        let types = site.parameters.map(\.type) + (site.returnType.map { [$0] } ?? [])
        let declaration = DeclarationText(
            documentation: documentation,
            attributes: ["@discardableResult"] + site.carriedAttributes,
            modifiers: modifiers,
            name: site.name,
            genericParameters: forms.genericParameters(site),
            parameters: parameters,
            effects: "",
            returnType: "CancellationToken",
            whereRequirements: forms.whereRequirements(site) + site.sendableRequirements(for: types),
            body: body)
        let memberKey =
            site.name + "("
            + site.parameters.map { ($0.label ?? "_") + ":" + text($0.type) }.joined(separator: ",") + handlerLabel
            + ":)"
        let note =
            throwing
            ? (value == nil ? "((any Error)?) -> Void" : "(Result<T, any Error>) -> Void")
            : (value == nil ? "() -> Void" : "(T) -> Void")
        return GeneratedMember(
            site: site, lines: declaration.lines(indent: site.context.owner == nil ? 0 : 4),
            signatureKey: forms.ownerKey(site) + memberKey, memberKey: memberKey, note: note)
    }
}
