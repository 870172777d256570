import Foundation
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
        if let why = overridable(site.decl) ?? bridged(site.decl) ?? deferred(site.decl) { return leave(why) }
        guard closure.isEscaping, !closure.isOptional else {
            return leave("the handler is not an escaping closure: the shim's task cannot call it")
        }
        // A handler that is not `@Sendable` stays in the function's isolation: the shim calls
        // it from a task that inherits it, which only an isolated function has.
        let isolation = closure.attributes.contains("@Sendable") ? nil : isolation(of: site)
        if !closure.attributes.contains("@Sendable"), isolation == nil {
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
        default:
            return leave("a `\(entry.shape.name)` handler: not converted yet")
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
                return leave("parameter `\(parameter.name)`: `\(culprit)` is not Sendable")
            }
        }
        if !site.isStatic, let owner = site.context.ownerName, let info = context.index.typeInfo(owner),
            !context.index.isSendable(info)
        {
            return leave(
                "`\(SourceIndex.lastComponent(info.name))` is not Sendable: the shim's task cannot capture self")
        }
        var rewrite = FunctionRewrite(
            decl: site.decl, site: site, file: file, line: site.line, completion: handler.name,
            shape: entry.shape, valueType: valueType, taskIsolation: isolation)
        rewrite.notes.append(
            "the shim starts the async version in a task: the function's code, its first call included, now runs "
                + "after the shim returns (two shim calls in a row may reach the API in either order)")
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
    static func overridable(_ decl: FunctionDeclSyntax) -> String? {
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
                return isFinal
                    ? nil : "a method of a class that is not `final`: a subclass's override would be bypassed"
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

    /// A plain actor whose `show(trace:)` calls `title(id:completion:)`, and the members
    /// `title` declares (written without indentation, after a blank line).
    private static func store(_ title: String) -> String {
        """
        func run(api: FakeAPI, trace: Trace) async {
            await Store(api: api).show(trace: trace)
        }

        actor Store {
            let api: FakeAPI

            init(api: FakeAPI) {
                self.api = api
            }

            func show(trace: Trace) {
                title(id: 1) { result in
                    trace.delivered("\\(result)")
                }
            }

        """
            + title.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }
            .joined(separator: "\n") + "\n}"
    }

    /// A function with no isolation attribute whose handler is not `@Sendable`, and its caller:
    /// "no actor" in a nonisolated module, the main actor where that is the default.
    private static let unannotatedTitle = """
        func run(api: FakeAPI, trace: Trace) {
            title(api: api) { result in
                trace.delivered("\\(result)")
            }
        }

        func title(api: FakeAPI, completion: @escaping (Result<String, any Error>) -> Void) {
            api.show(id: 1) { result in
                completion(result)
            }
        }
        """

    static let examples: [CallExample] = [
        CallExample(
            "a pyramid of two calls: two awaits; its async caller awaits it",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    saveLoaded(api: api, id: 1) { result in
                        switch result {
                        case .success(let text):
                            trace.log("saved \\(text)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                    }
                }

                /// Loads a text and saves it.
                func saveLoaded(api: FakeAPI, id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                    api.load(id: id) { result in
                        switch result {
                        case .success(let text):
                            // Saved as it came.
                            api.save(text) { error in
                                if let error {
                                    completion(.failure(error))
                                    return
                                }
                                completion(.success(text))
                            }
                        case .failure(let error):
                            completion(.failure(error))
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let text = try await saveLoaded(api: api, id: 1)
                        trace.log("saved \\(text)")
                    } catch {
                        trace.failed(error)
                    }
                }

                /// Loads a text and saves it.
                func saveLoaded(api: FakeAPI, id: Int) async throws -> String {
                    let text = try await api.load(id: id)
                    // Saved as it came.
                    try await api.save(text)
                    return text
                }

                /// Completion-handler form of `saveLoaded(api:id:)`, for callers not migrated yet.
                @available(*, renamed: "saveLoaded(api:id:)")
                func saveLoaded(api: FakeAPI, id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                    Future<String> { try await saveLoaded(api: api, id: id) }.deliver(on: .inline, to: completion)
                }
                """)),
        CallExample(
            "a method of a class: `self` in the shim, the handler's callout moved to it",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let loader = Loader(api: api)
                    trace.keepAlive(loader)
                    loader.title(of: 1) { result in
                        trace.delivered("title \\(result)")
                    }
                }

                /// Loads titles.
                final class Loader: Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    /// The title of `id`, saved.
                    ///
                    /// - Parameter completion: Called once, on the API's queue.
                    func title(
                        of id: Int,
                        completion: @escaping @Sendable (Result<String, any Error>) -> Void
                    ) {
                        // Load first.
                        api.load(id: id) { result in
                            switch result {
                            case .success(let text):
                                guard !text.isEmpty else {
                                    completion(.failure(FakeError()))
                                    return
                                }
                                self.api.save(text) { error in
                                    if let error {
                                        completion(.failure(error))
                                        return
                                    }
                                    completion(.success(text.uppercased()))
                                }
                            case .failure(let error):
                                completion(.failure(error))
                            }
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) {
                    let loader = Loader(api: api)
                    trace.keepAlive(loader)
                    loader.title(of: 1) { result in
                        trace.delivered("title \\(result)")
                    }
                }

                /// Loads titles.
                final class Loader: Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    /// The title of `id`, saved.
                    func title(of id: Int) async throws -> String {
                        // Load first.
                        let text = try await api.load(id: id)
                        guard !text.isEmpty else {
                            throw FakeError()
                        }
                        try await self.api.save(text)
                        return text.uppercased()
                    }

                    /// Completion-handler form of `title(of:)`, for callers not migrated yet.
                    ///
                    /// - Parameter completion: Called once, on the API's queue.
                    @available(*, renamed: "title(of:)")
                    func title(of id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                        Future<String> { try await self.title(of: id) }.deliver(on: .inline, to: completion)
                    }
                }
                """)),
        CallExample(
            "a function that returns its handle: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    _ = start(api: api) { result in
                        trace.delivered("\\(result)")
                    }
                }

                func start(api: FakeAPI, completion: @escaping @Sendable (Result<String, any Error>) -> Void) -> FakeTask {
                    api.load(id: 1) { result in
                        completion(result)
                    }
                }
                """,
            after: .leftAlone(.functionSignature, "returns `FakeTask`")),
        CallExample(
            "a method of a class that is not final: a subclass's override would be bypassed, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    Titles(api: api).title { result in
                        trace.delivered("\\(result)")
                    }
                }

                class Titles: @unchecked Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    func title(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                        api.load(id: 1) { result in
                            completion(result)
                        }
                    }
                }
                """,
            after: .leftAlone(.functionSignature, "not `final`")),
        CallExample(
            "an override: the superclass's callback method would still be the one awaited, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    Titles(api: api).title { result in
                        trace.delivered("\\(result)")
                    }
                }

                final class Titles: Base, @unchecked Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    override func title(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                        api.load(id: 1) { result in
                            completion(result)
                        }
                    }
                }

                class Base: @unchecked Sendable {
                    func title(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                        completion(.success(""))
                    }
                }
                """,
            after: .leftAlone(.functionSignature, "overrides a superclass method")),
        CallExample(
            "an @objc method: the async version and the shim would share a selector, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    Titles(api: api).title { result in
                        trace.delivered("\\(result)")
                    }
                }

                final class Titles: @unchecked Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    @objc func title(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                        api.load(id: 1) { result in
                            completion(result)
                        }
                    }
                }
                """,
            after: .leftAlone(.functionSignature, "`@objc`")),
        CallExample(
            "a defer ran when the function returned: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    title(api: api, trace: trace) { result in
                        trace.delivered("\\(result)")
                    }
                }

                func title(api: FakeAPI, trace: Trace, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                    defer { trace.log("returned") }
                    api.load(id: 1) { result in
                        completion(result)
                    }
                }
                """,
            after: .leftAlone(.functionSignature, "`defer`")),
        CallExample(
            "a value that is not Sendable: the shim's Future could not carry it, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    draft(api: api) { result in
                        trace.delivered("\\(result)")
                    }
                }

                final class Draft {
                    var text = ""
                }

                func draft(api: FakeAPI, completion: @escaping @Sendable (Result<Draft, any Error>) -> Void) {
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let text):
                            let draft = Draft()
                            draft.text = text
                            completion(.success(draft))
                        case .failure(let error):
                            completion(.failure(error))
                        }
                    }
                }
                """,
            after: .leftAlone(.functionSignature, "`Draft` is not Sendable")),
        CallExample(
            "@MainActor method, handler not @Sendable: called from a task on the main actor",
            before: """
                @MainActor func run(api: FakeAPI, trace: Trace) {
                    let titles = Titles(api: api)
                    titles.title(of: 1) { result in
                        trace.delivered("title \\(result)")
                    }
                }

                /// Shows titles.
                @MainActor final class Titles {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    /// The title of `id`.
                    ///
                    /// - Parameter completion: Called once, on the main actor.
                    func title(of id: Int, completion: @escaping (Result<String, any Error>) -> Void) {
                        api.show(id: id) { result in
                            switch result {
                            case .success(let text):
                                completion(.success(text.uppercased()))
                            case .failure(let error):
                                completion(.failure(error))
                            }
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                @MainActor func run(api: FakeAPI, trace: Trace) {
                    let titles = Titles(api: api)
                    titles.title(of: 1) { result in
                        trace.delivered("title \\(result)")
                    }
                }

                /// Shows titles.
                @MainActor final class Titles {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    /// The title of `id`.
                    func title(of id: Int) async throws -> String {
                        let text = try await api.show(id: id)
                        return text.uppercased()
                    }

                    /// Completion-handler form of `title(of:)`, for callers not migrated yet.
                    ///
                    /// - Parameter completion: Called once, on the main actor.
                    @available(*, renamed: "title(of:)")
                    func title(of id: Int, completion: @escaping (Result<String, any Error>) -> Void) {
                        Task {
                            do {
                                let value = try await self.title(of: id)
                                completion(.success(value))
                            } catch {
                                completion(.failure(error))
                            }
                        }
                    }
                }
                """),
            notes: ["a task isolated to `@MainActor`"]),
        CallExample(
            "@MainActor function, `(T?, Error?)` handler not @Sendable: a main-actor task",
            before: """
                @MainActor func run(api: FakeAPI, trace: Trace) {
                    showTitle(api: api, id: 1) { text, error in
                        trace.delivered("title \\(String(describing: text)) \\(String(describing: error))")
                    }
                }

                @MainActor func showTitle(api: FakeAPI, id: Int, completion: @escaping (String?, (any Error)?) -> Void) {
                    api.show(id: id) { result in
                        switch result {
                        case .success(let text):
                            completion(text, nil)
                        case .failure(let error):
                            completion(nil, error)
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                @MainActor func run(api: FakeAPI, trace: Trace) {
                    showTitle(api: api, id: 1) { text, error in
                        trace.delivered("title \\(String(describing: text)) \\(String(describing: error))")
                    }
                }

                @MainActor
                func showTitle(api: FakeAPI, id: Int) async throws -> String {
                    let text = try await api.show(id: id)
                    return text
                }

                /// Completion-handler form of `showTitle(api:id:)`, for callers not migrated yet.
                @available(*, renamed: "showTitle(api:id:)")
                @MainActor
                func showTitle(api: FakeAPI, id: Int, completion: @escaping (String?, (any Error)?) -> Void) {
                    Task {
                        do {
                            let value = try await showTitle(api: api, id: id)
                            completion(value, nil)
                        } catch {
                            completion(nil, error)
                        }
                    }
                }
                """)),
        CallExample(
            "@MainActor function, `(Error?)` handler not @Sendable: a main-actor task",
            before: """
                @MainActor func run(api: FakeAPI, trace: Trace) {
                    touch(api: api, id: 1) { error in
                        trace.delivered("touched \\(String(describing: error))")
                    }
                }

                @MainActor func touch(api: FakeAPI, id: Int, completion: @escaping ((any Error)?) -> Void) {
                    api.show(id: id) { result in
                        switch result {
                        case .success:
                            completion(nil)
                        case .failure(let error):
                            completion(error)
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                @MainActor func run(api: FakeAPI, trace: Trace) {
                    touch(api: api, id: 1) { error in
                        trace.delivered("touched \\(String(describing: error))")
                    }
                }

                @MainActor
                func touch(api: FakeAPI, id: Int) async throws {
                    _ = try await api.show(id: id)
                }

                /// Completion-handler form of `touch(api:id:)`, for callers not migrated yet.
                @available(*, renamed: "touch(api:id:)")
                @MainActor
                func touch(api: FakeAPI, id: Int, completion: @escaping ((any Error)?) -> Void) {
                    Task {
                        do {
                            try await touch(api: api, id: id)
                            completion(nil)
                        } catch {
                            completion(error)
                        }
                    }
                }
                """)),
        CallExample(
            "an actor's method whose handler, not @Sendable, ran on the main queue: the shim's task would not, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    await Titles(api: api).title { result in
                        trace.delivered("\\(result)")
                    }
                }

                actor Titles {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    func title(completion: @escaping (Result<String, any Error>) -> Void) {
                        api.show(id: 1) { result in
                            completion(result)
                        }
                    }
                }
                """,
            after: .leftAlone(.completionEscapes, "the shim's task runs on the actor `Titles`")),
        CallExample(
            "an actor's method, handler not @Sendable: a task on the actor",
            before: store(
                """

                func title(id: Int, completion: @escaping (Result<String, any Error>) -> Void) {
                    api.lookup(id: id) { result in
                        switch result {
                        case .success(let text):
                            completion(.success(text.uppercased()))
                        case .failure(let error):
                            completion(.failure(error))
                        }
                    }
                }
                """),
            after: .rewritten(
                store(
                    """

                    func title(id: Int) async throws -> String {
                        let text = try await api.lookup(id: id)
                        return text.uppercased()
                    }

                    /// Completion-handler form of `title(id:)`, for callers not migrated yet.
                    @available(*, renamed: "title(id:)")
                    func title(id: Int, completion: @escaping (Result<String, any Error>) -> Void) {
                        Task {
                            do {
                                let value = try await self.title(id: id)
                                completion(.success(value))
                            } catch {
                                completion(.failure(error))
                            }
                        }
                    }
                    """)),
            notes: ["a task isolated to the actor `Store`"]),
        CallExample(
            "a handler that is not @Sendable, in a function with no actor: left alone",
            before: unannotatedTitle,
            after: .leftAlone(.functionSignature, "not isolated to an actor")),
        CallExample(
            "default isolation MainActor, handler not @Sendable: a main-actor task",
            before: unannotatedTitle,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) {
                    title(api: api) { result in
                        trace.delivered("\\(result)")
                    }
                }

                func title(api: FakeAPI) async throws -> String {
                    return try await api.show(id: 1)
                }

                /// Completion-handler form of `title(api:)`, for callers not migrated yet.
                @available(*, renamed: "title(api:)")
                func title(api: FakeAPI, completion: @escaping (Result<String, any Error>) -> Void) {
                    Task {
                        do {
                            let value = try await title(api: api)
                            completion(.success(value))
                        } catch {
                            completion(.failure(error))
                        }
                    }
                }
                """),
            notes: ["a task isolated to `@MainActor`"], options: .mainActorDefault),
        CallExample(
            "default isolation MainActor, a `nonisolated` function, handler not @Sendable: left alone",
            before: unannotatedTitle.replacingOccurrences(of: "func title(", with: "nonisolated func title("),
            after: .leftAlone(.functionSignature, "not isolated to an actor"), options: .mainActorDefault),
        CallExample(
            "a handler that is not @Sendable, called from `queue.async` in a function with no actor: left alone, said so",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    title(api: api, callbackQueue: .main) { result in
                        trace.delivered("\\(result)")
                    }
                }

                func title(
                    api: FakeAPI, callbackQueue: DispatchQueue, completion: @escaping (Result<String, any Error>) -> Void
                ) {
                    api.load(id: 1) { result in
                        callbackQueue.async {
                            completion(result)
                        }
                    }
                }
                """,
            after: .leftAlone(.functionSignature, "the body already hands it to `callbackQueue.async`")),
    ]
}
