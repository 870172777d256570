import SwiftSyntax

/// A synchronous function whose last parameter is an escaping completion handler
/// (`Result`, `(T?, Error?)` or `(Error?)`), `@Sendable` unless the function is isolated to
/// an actor, that returns nothing, and whose arguments and `self` are `Sendable`: it may get
/// an async version, its old signature a shim over it (``CompletionPathRule`` then decides
/// from its body). The shim of a handler that is not `@Sendable` calls it from a task that
/// inherits the function's isolation.
struct PyramidFunctionRule: DocumentedFunctionRule {
    static let summary =
        "A synchronous function returning nothing, whose last parameter is an escaping `Result`, `(T?, Error?)` "
        + "or `(Error?)` handler (`@Sendable` unless the function is isolated to an actor), with `Sendable` "
        + "arguments and `self`: its async version keeps the other parameters, and its old signature becomes a "
        + "shim (`Future { try await … }.deliver(on:to:)`, or a `Task { }` in the function's isolation for a "
        + "handler that is not `@Sendable`) marked `@available(*, renamed:)`."

    /// nil when the function is not a candidate (no body, async, no handler last, or an async
    /// counterpart of its own already); else the rewrite to settle, or why it is left alone.
    static func decide(_ site: FunctionSite, entry: AsyncCounterparts.Entry?, context: RuleContext, file: String)
        -> Result<FunctionRewrite, FunctionLeave>?
    {
        guard site.decl.body != nil, !site.isAsync, let handler = site.parameters.last,
            let closure = context.handlerType(handler)
        else { return nil }
        // A function the generator plans no form for (a hook, a multi-shot handler, a closure
        // that is not a completion) or that has an async counterpart is not a candidate.
        guard let entry, entry.kind == .generated || (entry.kind == .stream && entry.siblingIsCaller) else {
            return nil
        }
        func leave(_ detail: String) -> Result<FunctionRewrite, FunctionLeave> {
            .failure(FunctionLeave(reason: .functionSignature, line: site.line, detail: detail))
        }
        if let type = site.returnType {
            return leave("returns `\(type.trimmedDescription)`, which the shim would have to return before it exists")
        }
        if site.isThrowing || site.isMutating { return leave("throws or is mutating") }
        if let why = overridable(site.decl, index: context.index) ?? bridged(site.decl) ?? deferred(site.decl) {
            return leave(why)
        }
        guard closure.isEscaping, !closure.isOptional else {
            return leave("the handler is not an escaping closure: the shim's task cannot call it")
        }
        // A handler that is not `@Sendable` stays in the function's isolation: the shim calls
        // it from a task that inherits it, which only an isolated function has.
        let isolation = closure.attributes.contains("@Sendable") ? nil : isolation(of: site)
        // A Swift 5 mode module builds what Swift 6 mode refuses here; the report lists it.
        var laterForSwift6: [String] = []
        let swift5 = context.options.languageMode == 5
        if !closure.attributes.contains("@Sendable"), isolation == nil, swift5 {
            laterForSwift6.append("the handler `\(handler.name)` must be `@Sendable` (the shim's task calls it)")
        } else if !closure.attributes.contains("@Sendable"), isolation == nil {
            let crossing = queueCall(handing: handler.name, in: site.decl).map {
                "; the body already hands it to `\($0)`, which only Swift 5 mode accepts"
            }
            return leave(
                "the handler is not `@Sendable` and the function is not isolated to an actor: "
                    + "the shim's task could not call it" + (crossing ?? ""))
        }
        let value: TypeSyntax?
        switch entry.shape {
        case .result(let success, let failure) where TypeText.isError(failure):
            value = TypeText.isVoid(success) ? nil : success
        case .optionalValueAndError(let optional):
            value = optional
        case .errorOnly:
            value = nil
        // A `(Bool)` handler is left: whether `false` is a value or a failure is not known.
        case .value(let type) where isolation == nil && type.trimmedDescription != "Bool":
            // No error to pass: the async version returns the value, and the shim calls the
            // handler with it; the awaited calls' own errors (a handler never called, a task
            // cancelled) do not reach it, as the handler was not called then either.
            value = type
        default:
            return leave(
                "a `\(entry.shape.name)` handler\(isolation == nil ? "" : " in an isolated function"): "
                    + "not converted yet")
        }
        let generics = Set(site.genericsInScope.keys)
        if let value {
            // The shim hands the value over through a `Future`, which needs it `Sendable`.
            if let generic = TypeText.mentionedNames(value).first(where: generics.contains) {
                return leave("the value's type uses the generic `\(generic)`: the shim's `Future` needs it `Sendable`")
            }
            if case .notSendable(let culprit) = context.index.sendability(of: value, generics: generics) {
                return leave("the value's type: `\(culprit)` is not Sendable, and the shim's `Future` needs it")
            }
        }
        let valueType = value?.trimmedDescription
        for parameter in site.parameters.dropLast() {
            if case .notSendable(let culprit) = context.index.sendability(of: parameter.type, generics: generics) {
                guard swift5 else { return leave("parameter `\(parameter.name)`: `\(culprit)` is not Sendable") }
                laterForSwift6.append("parameter `\(parameter.name)`: `\(culprit)` must be Sendable")
            }
        }
        if !site.isStatic, let owner = site.context.ownerName, let info = context.index.typeInfo(owner),
            !context.index.isSendable(info)
        {
            let type = SourceIndex.lastComponent(info.name)
            guard swift5 else { return leave("`\(type)` is not Sendable: the shim's task cannot capture self") }
            laterForSwift6.append("`\(type)` must be Sendable (the shim's task captures self)")
        }
        var rewrite = FunctionRewrite(
            decl: site.decl, site: site, file: file, line: site.line, completion: handler.name,
            shape: entry.shape, valueType: valueType, taskIsolation: isolation)
        rewrite.notes.append(
            "the shim starts the async version in a task: the function's code, its first call included, now runs "
                + "after the shim returns (two shim calls in a row may reach the API in either order)")
        if !laterForSwift6.isEmpty {
            rewrite.notes.append(
                "the module builds in the Swift 5 language mode; for Swift 6 mode later: "
                    + laterForSwift6.joined(separator: "; "))
        }
        if let isolation {
            rewrite.notes.append(
                "the handler is not `@Sendable`: the shim calls it from a task isolated to \(isolation), "
                    + "the function's isolation")
        }
        return .success(rewrite)
    }

    /// The function's isolation as the report names it (`@MainActor`, `the actor Store`), or
    /// nil when it has none.
    static func isolation(of site: FunctionSite) -> String? {
        guard site.isIsolated else { return nil }
        if let actor = site.globalActor { return "`\(actor)`" }
        return site.context.ownerName.map { "the actor `\(SourceIndex.lastComponent($0))`" } ?? "its actor"
    }

    /// The queue call (`callbackQueue.async`, `asyncAfter`) whose closure or arguments use
    /// `handler`: the body already sends the handler to another thread, unchecked.
    static func queueCall(handing handler: String, in decl: FunctionDeclSyntax) -> String? {
        guard let body = decl.body else { return nil }
        for token in body.tokens(viewMode: .sourceAccurate) where token.tokenKind == .identifier(handler) {
            var node = token.parent
            while let current = node, current.id != decl.id {
                if let call = current.as(FunctionCallExprSyntax.self),
                    let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                    ["async", "asyncAfter"].contains(member.declName.baseName.text), let base = member.base
                {
                    return base.trimmedDescription + "." + member.declName.baseName.text
                }
                node = current.parent
            }
        }
        return nil
    }

    /// `function` with a note when its shim's task calls the handler on the main actor where it
    /// ran on an awaited API's callback queue before: no awaited handler is `@MainActor` or
    /// delivered on the main queue, and no call of the handler hops there. Swift 6 refuses a
    /// handler that is not `@Sendable` called from another queue, but a Swift 5 mode module
    /// accepts it, and its code may rely on that queue.
    static func notingMainActorDelivery(_ function: FunctionRewrite) -> FunctionRewrite {
        guard function.taskIsolation == "`@MainActor`", !function.deliversOnMain,
            let api = function.awaited.first(where: {
                !$0.deliversOnMain && !$0.parameters[$0.handler].type.trimmedDescription.contains("@MainActor")
            })
        else { return function }
        var function = function
        function.notes.append(
            "the handler now runs on the main actor (before: the callback queue of `\(api.displayName)`)")
        return function
    }

    /// Why a shim's task cannot deliver where the function did: the handler was called on the
    /// main queue, and the task runs on an actor other than the main actor.
    static func checkTaskDelivery(_ function: FunctionRewrite) -> FunctionLeave? {
        guard let isolation = function.taskIsolation, isolation != "`@MainActor`",
            function.deliversOnMain
                || function.awaited.contains(where: {
                    $0.deliversOnMain || $0.parameters[$0.handler].type.trimmedDescription.contains("@MainActor")
                })
        else { return nil }
        return FunctionLeave(
            reason: .completionEscapes, line: function.line,
            detail: "the handler was called on the main queue, and the shim's task runs on \(isolation)")
    }

    /// Why a method's async version could be reached where an override was before: it overrides,
    /// is `open`, or is a method of a class that is not `final` (a subclass may override it).
    /// A class that is neither `final` nor `open` has no subclass outside its module: one
    /// with no subclass in the module (`index`) has no override to bypass.
    static func overridable(_ decl: FunctionDeclSyntax, index: SourceIndex) -> String? {
        let modifiers = Set(decl.modifiers.map(\.name.text))
        if modifiers.contains("override") {
            return "overrides a superclass method: the superclass's own would be awaited through the async version"
        }
        if modifiers.contains("open") {
            return "`open`: other modules' overrides would be bypassed by the async version"
        }
        if !modifiers.isDisjoint(with: ["final", "private", "fileprivate", "static"]) { return nil }
        var node = decl.parent
        while let current = node {
            if let type = current.as(ClassDeclSyntax.self) {
                let isFinal = type.modifiers.contains { $0.name.text == "final" }
                let isOpen = type.modifiers.contains { $0.name.text == "open" }
                let name = type.name.text
                let subclassed = index.types.values.contains { info in
                    info.inherited.contains { $0 == name || $0.hasSuffix("." + name) }
                }
                return isFinal || (!isOpen && !subclassed)
                    ? nil
                    : "a method of a class that is not `final`"
                        + (isOpen ? ", and `open`" : ", and a class of the module inherits from it")
                        + ": a subclass's override would be bypassed"
            }
            // Structs, enums, actors, protocols and extensions: nothing overrides their methods.
            if current.is(MemberBlockSyntax.self), current.parent?.is(ClassDeclSyntax.self) != true { return nil }
            node = current.parent
        }
        return nil
    }

    /// Why an Objective-C-visible method cannot get an async version beside its shim (they
    /// would share one selector).
    static func bridged(_ decl: FunctionDeclSyntax) -> String? {
        let attributes = decl.attributes.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription }
        guard let objc = attributes.first(where: { ["objc", "IBAction", "NSManaged"].contains($0) }) else { return nil }
        return "`@\(objc)`: the async version and the shim would have one Objective-C selector"
    }

    /// Why a `defer` keeps the function as it is: it ran when the function returned, before
    /// the handler was called; in the async version it would run after the awaits.
    static func deferred(_ decl: FunctionDeclSyntax) -> String? {
        guard let body = decl.body,
            body.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .keyword(.defer) })
        else { return nil }
        return "a `defer` ran when the function returned; in the async version it would run after the awaits"
    }
}
