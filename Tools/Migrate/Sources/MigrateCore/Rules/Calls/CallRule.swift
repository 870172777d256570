import SwiftSyntax

/// A call of a completion-handler function, as the call-site rules see it while they
/// settle, one after the other, whether and how it becomes straight-line async code.
struct CallRewrite {
    var call: FunctionCallExprSyntax
    var file: String
    var line: Int
    /// The function, accessor, initializer or closure the call is in (nil at file scope).
    var context: CallContext?
    /// The functions the call may reach, each with the parameter each argument fills.
    var matches: [(AsyncCounterparts.Entry, [Int])]
    /// The owners of every function taking a handler that the call reaches by name and
    /// labels, with a counterpart or not (nil for a free function).
    var declaringOwners: [String?] = []
    /// Settled by ``ExpectationTestRule``: the test method's expectation, whose lines go.
    var expectation: ExpectationTest?
    /// Settled by ``ConfirmationTestRule``: the test's `confirmation { }`, which the call's code replaces.
    var confirmation: ConfirmationTest?

    /// Settled by ``CounterpartCallRule``: the function called and its counterpart...
    var entry: AsyncCounterparts.Entry?
    /// ...the parameter each argument fills...
    var argumentParameters: [Int] = []
    /// ...and the handler, a closure written at the call.
    var handler: ClosureExprSyntax?
    /// Settled by ``KeptHandleRule``: the statement the call is (`f { }` or `_ = f { }`).
    var statement: CodeBlockItemSyntax?
    /// The handler's statements, as the rules peel them (a hop to the main queue, a
    /// `guard let self`).
    var body: [CodeBlockItemSyntax] = []
    /// The handler's code ran on the main queue: the rewritten code must run there too.
    var hopsToMain = false
    /// The local `var`s that code reads, captured by value by `MainActor.run`'s closure.
    var hopCaptures: [String] = []
    /// The local `var`s declared `T!` it reads, copied by `let v: T! = v` before the closure.
    var hopCopies: [(name: String, type: String)] = []
    /// Settled by the shape rules: the code to run on success and on failure.
    var branches: HandlerBranches?
    /// What changes in behaviour, for the report.
    var notes: [String] = []
    /// Settled by ``StreamCallRule``: a multi-shot handler that becomes `for try await`.
    var stream: StreamCall?
    /// Set before planning for a call after `group.enter()` (``DispatchGroupRule``).
    var fanOut: FanOut?
    /// Settled by ``ContinuationCallRule`` and ``KeptHandleRule``: a continuation the handler
    /// only resumes, which the awaited call replaces where it stands.
    var resumed: ResumedContinuation?
    /// Settled last (``TestFailureRule``): in a throwing test, the failure code only records a
    /// failure, so the awaited call's error is left to end the test: no `do`/`catch`.
    var propagates = false
    /// Set by ``CompletionPathRule`` for a call that passes the function's own completion on by
    /// name (`client.get(url, completion: completion)`): no closure, the awaited value is returned.
    var passesCompletionOn = false
    /// Settled by ``WeakSelfRule``: text written in place of these bytes of the file (the `?`
    /// of `self?.`, a name bound to `self`) wherever the handler's code is written.
    var replacements: [(Range<Int>, String)] = []
    /// Settled by ``ResultHandlerRule``: a handler that uses its `Result` whole (stores it,
    /// passes it on) gets it back, `name` of type `type`, from a `do`/`catch` around the await.
    var wholeResult: (name: String, type: String)?
    /// The whole result and the handler's code go in a `do { }` of their own: a name they
    /// declare is declared beside the call too, or read before it.
    var scopesWholeResult = false

    /// The handler's parameter names (`_` for an unnamed one); nil for `$0`.
    var parameterNames: [String]? {
        handler.flatMap(Self.parameterNames(of:))
    }

    /// A closure's parameter names (`_` for an unnamed one); nil for `$0`.
    static func parameterNames(of handler: ClosureExprSyntax) -> [String]? {
        guard let clause = handler.signature?.parameterClause else {
            // No names: none are used, unless as `$0`.
            let anonymous = handler.statements.tokens(viewMode: .sourceAccurate).contains {
                if case .dollarIdentifier = $0.tokenKind { true } else { false }
            }
            return anonymous ? nil : []
        }
        switch clause {
        case .simpleInput(let list): return list.map(\.name.text)
        case .parameterClause(let parameters): return parameters.parameters.map { ($0.secondName ?? $0.firstName).text }
        }
    }
}

/// The handler's code split by outcome: what runs after `try await` succeeds, and what
/// runs in the `catch` that only the awaited call's errors reach.
struct HandlerBranches {
    /// The value's name (`let value = try await …`); nil when the code does not use it.
    var valueName: String?
    var success: [CodeBlockItemSyntax]
    /// The error's name; nil for `catch`'s own `error`.
    var errorName: String?
    var failure: [CodeBlockItemSyntax]
    /// The error's type, when the `catch` is for that type only (`catch let error as ParseError`).
    var errorType: String? = nil
    /// The code after the `switch` (or `if`) in the handler, which ran on both paths: it
    /// follows the `do`/`catch`.
    var tail: [CodeBlockItemSyntax] = []
    /// The handler ignores the error: `try? await`, the success code (all of it) after it.
    var ignoresError = false
}

/// What a call-site rule decides: go on with what it settled, or leave the call alone.
enum CallStep {
    case proceed(CallRewrite)
    case leave(LeaveReason, String)
}

/// One decision about a call site, as a small unit with its examples (the call-site
/// counterpart of ``Rule``).
protocol CallRule: DocumentedCallRule {
    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep
}

/// A call-site rule's name and examples.
public protocol DocumentedCallRule {
    static var summary: String { get }
    static var examples: [CallExample] { get }
}

/// The smallest program that shows a call-site rule, and what the tool makes of it.
///
/// The programs call the fake API of the tests (`Tests/CallSiteTraces/FakeAPI.swift`):
/// `load(id:completion:)` (a `Result` handler, returns a cancellable `FakeTask`),
/// `request(id:completion:)` (the same, its `cancel()` calls the handler with `CancellationError`),
/// `fetch(id:completion:)` (`(String?, Error?)`), `save(_:completion:)` (`(Error?)`),
/// `count(completion:)` (renamed to its own async `count()`), `watch(onChange:)`
/// (multi-shot, no stream form) and `events(id:onEvent:completion:)` (multi-shot, with a
/// stream form). Each program is a type with `func run(api:trace:) async`; the tests
/// compile the before and after programs and run them through the same outcomes.
public struct CallExample: Sendable, CustomStringConvertible {
    public enum Expectation: Sendable {
        /// The whole program after the rewrite.
        case rewritten(String)
        /// The call is left alone for this reason, with this in the detail.
        case leftAlone(LeaveReason, String)
    }

    public var name: String
    public var before: String
    public var after: Expectation
    /// Texts the report's behaviour notes contain.
    public var notes: [String]
    /// The options the example runs with (`defaultIsolation`: a module built with
    /// `-default-isolation MainActor`).
    public var options: MigrationOptions

    public init(
        _ name: String, before: String, after: Expectation, notes: [String] = [],
        options: MigrationOptions = MigrationOptions()
    ) {
        self.name = name
        self.before = before
        self.after = after
        self.notes = notes
        self.options = options
    }

    public var description: String { name }
}

/// Every call-site rule, in the order the planner asks them.
public enum CallRuleCatalog {
    public static var all: [any DocumentedCallRule.Type] {
        [
            ExpectationTestRule.self, ContinuationCallRule.self, ConfirmationTestRule.self, AsyncContextRule.self,
            ReceiverTypeRule.self,
            CounterpartCallRule.self,
            KeptHandleRule.self, DispatchGroupRule.self, StatementOrderRule.self, MainQueueHopRule.self,
            WeakSelfRule.self, StreamCallRule.self, ResultHandlerRule.self, OptionalValueErrorRule.self,
            ErrorOnlyRule.self, ValueHandlerRule.self, TestFailureRule.self,
        ]
    }

    /// Every call-site rule's examples, with the rule's name before each.
    public static var examples: [(rule: String, example: CallExample)] {
        all.flatMap { rule in rule.examples.map { (String(describing: rule), $0) } }
    }
}

// MARK: - What the rules share

extension CallRewrite {
    /// Whether `name` is used in `nodes` (as an identifier, not as a member's name, nor in a
    /// closure of theirs that takes a parameter of that name, which is another value).
    static func uses(_ name: String, in nodes: [some SyntaxProtocol]) -> Bool {
        nodes.contains { node in
            node.tokens(viewMode: .sourceAccurate).contains { token in
                guard token.tokenKind == .identifier(name) || (name == "self" && token.tokenKind == .keyword(.self)),
                    token.previousToken(viewMode: .sourceAccurate)?.tokenKind != .period
                else { return false }
                // A new binding, unless the shorthand `if let x`/`guard let x`, which reads `x` too.
                if let pattern = token.parent?.as(IdentifierPatternSyntax.self),
                    pattern.parent?.as(OptionalBindingConditionSyntax.self)?.initializer != nil
                        || !(pattern.parent?.is(OptionalBindingConditionSyntax.self) ?? false)
                {
                    return false
                }
                var current = token.parent
                var child = Syntax(token)
                while let syntax = current, syntax.id != node.id {
                    if binds(name, syntax, around: child) { return false }
                    child = syntax
                    current = syntax.parent
                }
                return true
            }
        }
    }

    /// Whether `scope` binds another value named `name` for `child`, its part: a closure's
    /// parameter, a `case` pattern's `let`, an `if let`/`while let` for its body, a `catch`'s
    /// error.
    private static func binds(_ name: String, _ scope: Syntax, around child: Syntax) -> Bool {
        let declares = { (node: any SyntaxProtocol) in
            node.tokens(viewMode: .sourceAccurate).contains {
                $0.tokenKind == .identifier(name) && $0.parent?.is(IdentifierPatternSyntax.self) ?? false
            }
        }
        if let closure = scope.as(ClosureExprSyntax.self) {
            return parameterNames(of: closure)?.contains(name) ?? false
        }
        if let switchCase = scope.as(SwitchCaseSyntax.self) { return declares(switchCase.label) }
        if let ifExpr = scope.as(IfExprSyntax.self) {
            return child.id == ifExpr.body.id
                && ifExpr.conditions.contains { condition in
                    condition.condition.as(OptionalBindingConditionSyntax.self).map {
                        $0.pattern.trimmedDescription == name
                    } ?? declares(condition)
                }
        }
        if let whileStmt = scope.as(WhileStmtSyntax.self) {
            return child.id == whileStmt.body.id && declares(whileStmt.conditions)
        }
        if let catchClause = scope.as(CatchClauseSyntax.self) {
            return child.id == catchClause.body.id
                && (catchClause.catchItems.isEmpty ? name == "error" : declares(catchClause.catchItems))
        }
        return false
    }

    /// The names `items` declare at their own level (`let`, `var`, a `func`, a type).
    static func declared(in items: [CodeBlockItemSyntax]) -> [String] {
        items.flatMap { item -> [String] in
            if let variable = item.item.as(VariableDeclSyntax.self) {
                return variable.bindings.flatMap { binding in
                    binding.pattern.tokens(viewMode: .sourceAccurate).compactMap { token in
                        if case .identifier(let name) = token.tokenKind { name } else { nil }
                    }
                }
            }
            if let function = item.item.as(FunctionDeclSyntax.self) { return [function.name.text] }
            if let type = item.item.asProtocol(NamedDeclSyntax.self) { return [type.name.text] }
            return []
        }
    }

    /// `return` as the last statement of `items` (a bare one).
    static func endsWithReturn(_ items: [CodeBlockItemSyntax]) -> Bool {
        guard let last = items.last, let statement = last.item.as(ReturnStmtSyntax.self) else { return false }
        return statement.expression == nil
    }

    /// `if let name`, `if let name = name`, `if let other = name` (one condition): the bound name.
    static func optionalBinding(_ condition: ConditionElementListSyntax, of name: String) -> String? {
        guard condition.count == 1, let binding = condition.first?.condition.as(OptionalBindingConditionSyntax.self),
            binding.bindingSpecifier.tokenKind == .keyword(.let),
            let bound = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        else { return nil }
        let source = binding.initializer?.value.trimmedDescription ?? bound
        return source == name ? bound : nil
    }
}
