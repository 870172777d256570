/// What every rule may read: the index of the sources (and of the other modules' symbol
/// graphs and sources), the options, and the module's own call sites.
struct RuleContext {
    let index: SourceIndex
    let options: MigrationOptions
    let callSites: CallSites

    /// The closure type of a parameter that looks like a completion handler: it returns
    /// `Void`, neither throws nor is async, and escapes, carries an error, or is named
    /// like a completion.
    func handlerType(_ parameter: Parameter) -> ClosureType? {
        guard let closure = index.closureType(parameter), closure.returnsVoid, !closure.isAsync,
            !closure.isThrowing, !closure.isAutoclosure
        else { return nil }
        if closure.isEscaping { return closure }
        if let shape = HandlerShape(closure, isError: index.isError), shape.carriesError { return closure }
        let names = [parameter.label, parameter.name].compactMap { $0 }
        return names.contains { ClosureName.words($0).contains(where: ClosureName.completionWords.contains) }
            ? closure : nil
    }
}

/// One decision of the tool, as a small unit: what it decides about its subject (a
/// function, a call), as a value that carries its reason, and the smallest sources that
/// show it, with what the tool must write or report for them.
///
/// The planners ask the rules and write text from their verdicts; the tests run every
/// rule's examples through the whole tool (``RuleCatalog``).
protocol Rule: DocumentedRule {
    /// What the rule looks at: a function (``FunctionSite``), a function with the labels a
    /// form would keep (``FormCandidate``)...
    associatedtype Subject
    /// What it decides, with the reason (nil: the rule has nothing to say).
    associatedtype Verdict

    func decide(_ subject: Subject, in context: RuleContext) -> Verdict
}

/// A rule's name and examples, without its types: what the catalog lists.
public protocol DocumentedRule {
    /// What the rule decides, in a sentence.
    static var summary: String { get }
    /// Sources before, and what the tool writes or reports after.
    static var examples: [RuleExample] { get }
}

/// A function and the labels of the form the tool would write for it (the handlers and
/// callback queues dropped, or all of them for a scoped form).
struct FormCandidate {
    var site: FunctionSite
    var labels: [String?]
    /// For each kept parameter, whether it has a default value (empty: not known).
    var defaulted: [Bool] = []
}

/// The smallest sources that show a rule, and what the tool must do with them.
public struct RuleExample: Sendable, CustomStringConvertible {
    public enum Expectation: Sendable {
        /// The function's form contains each of these texts (and none of `absent`).
        case generated([String], absent: [String] = [])
        /// The function is skipped for this reason, with this in the detail.
        case skipped(SkipReason, String)
    }

    public var name: String
    /// The sources, as one file.
    public var before: String
    /// The function the example is about, as the report names it (`Owner.name(labels:)`).
    public var function: String
    /// What the tool writes or reports for it.
    public var after: Expectation
    public var options: MigrationOptions

    public init(
        _ name: String, before: String, function: String, after: Expectation,
        options: MigrationOptions = MigrationOptions()
    ) {
        self.name = name
        self.before = before
        self.function = function
        self.after = after
        self.options = options
    }

    public var description: String { name }
}

/// Every rule of the tool, for the tests and the documentation.
public enum RuleCatalog {
    public static var all: [any DocumentedRule.Type] {
        [
            AccessRule.self, ParameterRule.self, HookRule.self, MultiShotRule.self, ObserverRule.self,
            CounterpartRule.self,
            CallClashRule.self, CaptureRule.self, CancellationRule.self, ValuesAndCompletionRule.self, ShapeRule.self,
            IsolationRule.self, FutureRule.self, ForeignFutureRule.self, DocumentationRule.self, SubscriptionRule.self,
            FinishEventRule.self, MappedStreamRule.self,
        ]
    }

    /// Every rule's examples, with the rule's name before each.
    public static var examples: [(rule: String, example: RuleExample)] {
        all.flatMap { rule in rule.examples.map { (String(describing: rule), $0) } }
    }
}
