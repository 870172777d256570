import SwiftSyntax

/// The scoped form: a body runs inside the callback, with a value that cannot leave it.
extension AsyncFormPlanner {

    func scopedForm(_ site: FunctionSite, shape: HandlerShape, handler: Int, closure: ClosureType)
        -> GeneratedMember
    {
        let parameter = site.parameters[handler]
        let output = site.freshName("Output")
        let promise = site.freshName("promise")
        let argumentType: TypeSyntax? = shape.scopedArgument ?? nil
        let isResult: Bool
        if case .result = shape { isResult = true } else { isResult = false }

        // The body's type: the handler's attributes, its value in, the output out. A body
        // that is not `@Sendable` is `sending`: a caller on an actor hands it over.
        // (A closure isolated to a global actor is `Sendable` already.)
        let isSendable = closure.attributes.contains { $0 == "@Sendable" || $0.hasSuffix("Actor") }
        let sending = isSendable ? "" : "sending "
        let closureAttributes = (["@escaping"] + closure.carriedAttributes).joined(separator: " ")
        let bodyType = "\(sending)\(closureAttributes) (\(argumentType.map { text($0) } ?? "")) throws -> \(output)"
        var bodyDeclaration = parameter.syntax.firstName.text
        if let second = parameter.syntax.secondName { bodyDeclaration += " " + second.text }
        bodyDeclaration += ": " + bodyType

        // The call: the original, with a handler that runs the body.
        let resultType = index.shadowsResult(in: site.context.ownerName) ? "Swift.Result" : "Result"
        let others = site.parameters.indices.filter { $0 != handler }.map { site.parameters[$0].argument }
        let closureBody: HandlerClosure
        if let argumentType {
            let preferred =
                closure.parameterNames.first.flatMap { $0 }
                ?? (isResult ? "result" : lowerCamel(TypeText.simpleName(argumentType) ?? "value"))
            let argument = site.freshName(preferred, avoiding: [output, promise])
            switch shape {
            case .carriedError:
                closureBody = HandlerClosure(
                    parameters: [argument],
                    body: [
                        "\(promise).resolve(",
                        "    \(resultType) {",
                        "        if let error = \(argument).error { throw error }",
                        "        return try \(parameter.name)(\(argument))",
                        "    })",
                    ])
            default:
                let use: String
                if case .carriedResult = shape {
                    use = "\(argument).result.get()"
                } else {
                    use = isResult ? "\(argument).get()" : argument
                }
                closureBody = HandlerClosure(
                    parameters: [argument],
                    body: ["\(promise).resolve(\(resultType) { try \(parameter.name)(\(use)) })"])
            }
        } else {
            closureBody = HandlerClosure(
                parameters: [], body: ["\(promise).resolve(\(resultType) { try \(parameter.name)() })"])
        }
        let call = CallText(prefix: "", callee: site.tryCallee, arguments: others, trailing: closureBody)
        var (callLines, handleNote, needsUnchecked) = callWithHandle(site, call: call, promise: promise)
        let body = bridge(site, value: output, promise: promise, lines: &callLines)

        let received = argumentType.map { "with the `\(text($0))` it receives (which may not leave the callback)" }
        // The handler calls the body where the original calls it: on its own thread, or on
        // the global actor of the handler's type.
        let runsWhere =
            closure.attributes.first { $0.hasSuffix("Actor") }.map {
                "It runs on `\($0)`, where `\(site.selectorText)` calls its handler"
            } ?? "It runs on the thread where `\(site.selectorText)` calls its handler, not in the caller's isolation"

        let documentation = composeDocumentation(
            site, removing: Set([parameter.name, parameter.label].compactMap { $0 }),
            notes: [handleNote?.documentation ?? Self.notStopped + "."],
            callouts: [
                "- Parameter \(parameter.name): Runs inside the callback" + (received.map { ", " + $0 } ?? "")
                    + ". What it returns is returned; what it throws is thrown. " + runsWhere
                    + ", and it may run after the awaiting task is cancelled (what it returns is then dropped)."
            ] + returnsAndThrows(site, shape: shape, scoped: true))

        var parameters = site.parameters.map(\.declaration)
        parameters[handler] = bodyDeclaration
        let declaration = DeclarationText(
            documentation: documentation,
            attributes: attributes(site, returnsValue: true),
            modifiers: modifiers(site, async: true),
            name: site.name,
            genericParameters: genericParameters(site) + ["\(output): Sendable"],
            parameters: parameters,
            effects: "async throws",
            returnType: output,
            whereRequirements: whereRequirements(site),
            body: body)
        let memberKey =
            site.name + "("
            + site.parameters.enumerated().map { offset, parameter in
                (parameter.label ?? "_") + ":" + (offset == handler ? "scoped" : text(parameter.type))
            }.joined(separator: ",") + ")"
        var note = shape.name + ", scoped"
        if let argumentType { note += " (`\(text(argumentType))` stays in the callback)" }
        if let handleNote { note += "; " + handleNote.report }
        return GeneratedMember(
            site: site, lines: declaration.lines(indent: site.memberIndent),
            signatureKey: ownerKey(site) + memberKey, memberKey: memberKey, note: note,
            form: FormInfo(
                kind: .scoped, cancels: handleNote?.cancels ?? false, unresolvedHandle: handleNote?.unresolved),
            needsUncheckedHandle: needsUnchecked)
    }
}
