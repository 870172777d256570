import SwiftSyntax

/// The decisions an async or stream form depends on beyond the handler's shape: which
/// parameters it keeps, whether the API has an async form already, whether a new
/// declaration would change existing calls, whether the library itself calls the
/// function, and whether its handler is called more than once.
extension AsyncFormPlanner {
    // MARK: Parameters

    /// The parameters a plain or stream form keeps: all but the handlers and the
    /// callback queues (which the form fills with a queue that does not hop to main).
    func keptParameters(_ site: FunctionSite, removing handlers: [Int]) -> [Int] {
        site.parameters.indices.filter { !handlers.contains($0) && !site.parameters[$0].isCallbackQueue }
    }

    // MARK: Existing async APIs

    /// The async function (or the stream) the API already offers for this operation:
    /// the one it names with `@available(*, renamed:)` or `@completionHandlerAsync`, or an
    /// async function or stream-returning one with the same base name that a call with
    /// the form's labels reaches, in the owner or a type it conforms to or inherits from.
    func existingCounterpart(_ site: FunctionSite, labels: [String?]) -> String? {
        if let named = site.namedAsyncForm { return "names its async form `\(named)`" }
        for owner in index.selfAndSupertypes(site.context.ownerName) {
            for entry in index.entries(owner: owner, name: site.name)
            where (entry.isAsync || entry.returnsStream)
                && (Self.accepts(entry, labels: labels) || Self.sameLabels(entry, labels: labels))
            {
                let prefix = owner.isEmpty ? "" : owner + "."
                return "`\(prefix)\(selector(site.name, entry.labels))\(entry.isAsync ? " async" : "")`"
            }
        }
        return nil
    }

    /// Whether a call with `labels` reaches `entry`: its labels, with some of its
    /// defaulted parameters left out.
    static func accepts(_ entry: SourceIndex.FunctionEntry, labels: [String?]) -> Bool {
        var wanted = labels[...]
        for (label, defaulted) in zip(entry.labels, entry.defaulted) {
            if let next = wanted.first, next == label {
                wanted = wanted.dropFirst()
            } else if !defaulted {
                return false
            }
        }
        return wanted.isEmpty
    }

    /// The same labels in another order: an async form that reorders its parameters.
    static func sameLabels(_ entry: SourceIndex.FunctionEntry, labels: [String?]) -> Bool {
        entry.labels.count == labels.count
            && entry.labels.map { $0 ?? "_" }.sorted() == labels.map { $0 ?? "_" }.sorted()
    }

    // MARK: Existing calls

    /// Whether `call` calls the function of `site` (its trailing closure as the last
    /// parameter, the handler), so that a form with all its labels would take it over.
    static func reaches(_ site: FunctionSite, _ call: CallSites.Call) -> Bool {
        var labels = call.labels
        if call.hasTrailingClosure, !labels.isEmpty { labels[labels.count - 1] = site.labels.last ?? nil }
        let original = SourceIndex.FunctionEntry(
            labels: site.labels,
            // The form's body (in the handler's place) has no default: a call must pass one.
            defaulted: site.parameters.indices.map { $0 < site.parameters.count - 1 && site.parameters[$0].hasDefault },
            isAsync: false, isStatic: site.isStatic,
            parameterTypes: [], hasHandler: true, returnsStream: false, returnsValue: site.returnType != nil)
        return accepts(original, labels: labels)
    }

    /// Why a form named `name` with `labels` would change what existing code calls: a
    /// synchronous function (the original among them) that the same call reaches, which
    /// an async caller would now resolve to the async form; or a property of that name
    /// (a redeclaration, when the form takes no arguments).
    func callClash(_ site: FunctionSite, name: String? = nil, labels: [String?]) -> String? {
        let name = name ?? site.name
        for owner in index.selfAndSupertypes(site.context.ownerName) {
            for entry in index.entries(owner: owner, name: name)
            where !entry.isAsync && entry.isStatic == site.isStatic && Self.accepts(entry, labels: labels) {
                let prefix = owner.isEmpty ? "" : owner + "."
                return "`\(prefix)\(selector(name, labels))` reaches `\(selector(name, entry.labels))`"
            }
            if labels.isEmpty, !owner.isEmpty, index.hasProperty(owner: owner, name: name) {
                return "`\(owner).\(name)` is a property"
            }
        }
        return nil
    }

    // MARK: Hooks

    /// Why the library, not its users, calls this function: a delegate method
    /// (`urlSession(_ session: URLSession, …)`, `task(_ task: URLSessionTask, …)`), or a
    /// requirement (or its implementation) of a hook protocol (`…Delegate`, `…Handler`,
    /// `…Retrier`…).
    func hookDescription(_ site: FunctionSite) -> String? {
        if let hook = index.hookRequirement(owner: site.context.ownerName, name: site.name, labels: site.labels) {
            return "requirement of `\(hook)`"
        }
        let conformsToDelegate = index.selfAndSupertypes(site.context.ownerName).dropFirst().contains {
            SourceIndex.hookSuffixes.contains(where: SourceIndex.lastComponent($0).hasSuffix)
        }
        if let first = site.parameters.first, first.label == nil, let typeName = TypeText.simpleName(first.type),
            typeName.lowercased().hasSuffix(site.name.lowercased()),
            conformsToDelegate
                || site.labels.dropFirst().contains(where: { label in
                    ["did", "will", "should"].contains { label?.hasPrefix($0) ?? false }
                })
        {
            return "delegate method: `\(site.name)(_:)` receives the `\(typeName)` that calls it"
        }
        return nil
    }

    // MARK: Multi-shot handlers

    /// Why the handler is called more than once (so the function gets a stream form), or
    /// nil for a one-shot completion handler. `--one-shot` and `--multi-shot` decide first.
    func multiShotReason(_ site: FunctionSite, handlerNames: [String]) -> String? {
        var spellings: Set<String> = [site.name, site.selectorText, site.displayName]
        if let owner = site.context.ownerName { spellings.insert(SourceIndex.lastComponent(owner) + "." + site.name) }
        if !options.oneShot.isDisjoint(with: spellings) { return nil }
        if !options.multiShot.isDisjoint(with: spellings) { return "named by --multi-shot" }
        if ClosureName.isEvent(handlerNames) { return "`\(handlerNames.last!)` is called for events" }
        // A name like `streamMessages` or `downloadProgress` says many values, unless the
        // handler's own name says completion (`stream(feed:completion:)`).
        if ClosureName.registersEvents(site.name)
            || (ClosureName.namesUpdates(site.name) && !ClosureName.namesCompletion(handlerNames))
        {
            return "`\(site.name)` reports events or progress"
        }
        if let returnType = site.returnType, let name = TypeText.simpleName(returnType),
            ClosureName.isRegistration(name)
        {
            return "returns `\(name)`, which keeps the handler registered"
        }
        if let handler = site.parameters.last,
            let storage = HandlerStorage.names(storing: handler.name, in: site.decl).first(where: { name in
                // `listeners`, `progressHandlers`: a plural names the singular's events.
                ClosureName.isEvent([name]) || (name.hasSuffix("s") && ClosureName.isEvent([String(name.dropLast())]))
            })
        {
            return "its body keeps the handler in `\(storage)`"
        }
        return nil
    }

    // MARK: Documentation

    /// The attributes of a generated form: the original's availability, global actor and
    /// SPI, and `@discardableResult` when the original has it and the form returns a value.
    func attributes(_ site: FunctionSite, returnsValue: Bool) -> [String] {
        (site.hasDiscardableResult && returnsValue ? ["@discardableResult"] : []) + site.carriedAttributes
    }

    /// `- Returns:` and `- Throws:` of an async form.
    func returnsAndThrows(_ site: FunctionSite, shape: HandlerShape, scoped: Bool) -> [String] {
        var result: [String] = []
        let handler = "the handler"
        if scoped {
            result.append("- Returns: What the body returns.")
        } else if shape.valueText != nil {
            switch shape {
            case .carriedResult:
                result.append("- Returns: The success of the `result` that \(handler) receives.")
            case .carriedError:
                result.append("- Returns: The value \(handler) receives, when its `error` is `nil`.")
            default:
                result.append("- Returns: The value \(handler) receives.")
            }
        }
        var throwsText = "- Throws: "
        switch shape {
        case .carriedResult: throwsText += "The failure of the `result` that \(handler) receives; "
        case .carriedError: throwsText += "The `error` of the value \(handler) receives; "
        default: throwsText += shape.carriesError ? "The error \(handler) receives; " : ""
        }
        throwsText +=
            "`CancellationError` when the awaiting task is cancelled; `AbandonedPromiseError` when the handler is released without being called."
        result.append(throwsText)
        return result
    }

    // MARK: Handler closures

    /// A handler written as a closure, for the shapes whose value carries its error.
    func resolvingClosure(_ site: FunctionSite, shape: HandlerShape, promise: String) -> HandlerClosure? {
        switch shape {
        case .carriedResult:
            let argument = site.freshName("response", avoiding: [promise])
            return HandlerClosure(parameters: [argument], body: ["\(promise).resolve(\(argument).result)"])
        case .carriedError(let type):
            let argument = site.freshName(lowerCamel(TypeText.simpleName(type) ?? "value"), avoiding: [promise])
            return HandlerClosure(
                parameters: [argument],
                body: [
                    "if let error = \(argument).error {",
                    "    \(promise).reject(error)",
                    "} else {",
                    "    \(promise).resolve(\(argument))",
                    "}",
                ])
        default:
            return nil
        }
    }
}

/// Where a function's body keeps a handler: the names on the left of an assignment whose
/// right side is the handler (`progressHandler = handler`, `state.listener = (queue, handler)`)
/// and the collections it is appended to (`observers.append(handler)`).
enum HandlerStorage {
    static func names(storing handler: String, in decl: FunctionDeclSyntax) -> [String] {
        guard let body = decl.body else { return [] }
        let finder = StorageFinder(handler: handler)
        finder.walk(body)
        return finder.names
    }

    private final class StorageFinder: SyntaxVisitor {
        let handler: String
        var names: [String] = []

        init(handler: String) {
            self.handler = handler
            super.init(viewMode: .sourceAccurate)
        }

        /// Whether `node` is the handler, or a tuple or call that passes it on as is.
        private func passes(_ node: ExprSyntax) -> Bool {
            if let reference = node.as(DeclReferenceExprSyntax.self) { return reference.baseName.text == handler }
            if let tuple = node.as(TupleExprSyntax.self) { return tuple.elements.contains { passes($0.expression) } }
            return false
        }

        private func lastNames(_ node: ExprSyntax) -> [String] {
            var result: [String] = []
            var current: ExprSyntax? = node
            while let expression = current {
                if let member = expression.as(MemberAccessExprSyntax.self) {
                    result.append(member.declName.baseName.text)
                    current = member.base
                } else if let reference = expression.as(DeclReferenceExprSyntax.self) {
                    result.append(reference.baseName.text)
                    current = nil
                } else {
                    current = nil
                }
            }
            return result
        }

        override func visit(_ node: InfixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
            if node.operator.is(AssignmentExprSyntax.self), passes(node.rightOperand) {
                names += lastNames(node.leftOperand)
            }
            return .visitChildren
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            if let member = node.calledExpression.as(MemberAccessExprSyntax.self),
                ["append", "insert", "add"].contains(member.declName.baseName.text),
                node.arguments.contains(where: { passes($0.expression) }), let base = member.base
            {
                names += lastNames(base)
            }
            return .visitChildren
        }
    }
}

/// A closure passed as the last argument of the original, written as a trailing closure.
struct HandlerClosure {
    var parameters: [String]
    var body: [String]
    /// A second trailing closure after this one, with its label (`failure: { error in … }`).
    var following: (label: String, closure: Box)?

    /// Keeps a following closure (a struct cannot hold itself).
    final class Box {
        let closure: HandlerClosure
        init(_ closure: HandlerClosure) { self.closure = closure }
    }

    init(parameters: [String], body: [String]) {
        self.parameters = parameters
        self.body = body
    }

    /// `{ parameters in`, the body, `}` (then the following closure), after `head`.
    func lines(after head: String) -> [String] {
        let open = parameters.isEmpty ? " {" : " { " + parameters.joined(separator: ", ") + " in"
        var lines = [head + open] + body.map { "    " + $0 }
        if let (label, next) = following {
            lines += next.closure.lines(after: "} " + label + ":")
        } else {
            lines.append("}")
        }
        return lines
    }
}

/// A call as the generated code writes it, broken the way swift-format breaks it when
/// it does not fit in the line: the arguments on their own lines, then `)`, then the
/// trailing closure.
struct CallText {
    /// `try `, `let handle = `, `_ = `: what precedes the call on its first line.
    var prefix: String
    /// `self.fetch`.
    var callee: String
    var arguments: [String]
    var trailing: HandlerClosure?

    static let lineLength = 120

    /// The lines, for a call that starts at column `indent`.
    func lines(indent: Int) -> [String] {
        let arguments = self.arguments.joined(separator: ", ")
        let parenthesized = arguments.isEmpty && trailing != nil ? "" : "(" + arguments + ")"
        let oneLine = prefix + callee + parenthesized
        let head = trailing.map { $0.parameters.isEmpty ? " {" : " { " + $0.parameters.joined(separator: ", ") + " in" }
        if indent + oneLine.count + (head?.count ?? 0) <= Self.lineLength || self.arguments.isEmpty {
            return trailing?.lines(after: oneLine) ?? [oneLine]
        }
        // The arguments, filled into lines indented one level more.
        var argumentLines: [String] = []
        var current = ""
        for (offset, argument) in self.arguments.enumerated() {
            let piece = argument + (offset < self.arguments.count - 1 ? "," : "")
            if !current.isEmpty, indent + 4 + current.count + 1 + piece.count > Self.lineLength {
                argumentLines.append(current)
                current = piece
            } else {
                current += (current.isEmpty ? "" : " ") + piece
            }
        }
        argumentLines.append(current)
        var lines = [prefix + callee + "("] + argumentLines.map { "    " + $0 }
        if let trailing {
            lines += trailing.lines(after: ")")
        } else {
            lines[lines.count - 1] += ")"
        }
        return lines
    }
}
