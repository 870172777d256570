import SwiftSyntax

/// A function of the module whose last parameter is a completion handler, as the function
/// rules see it while they settle whether it gets an async version and a shim.
struct FunctionRewrite {
    var decl: FunctionDeclSyntax
    var site: FunctionSite
    var file: String
    var line: Int
    /// The handler's parameter name.
    var completion: String
    var shape: HandlerShape
    /// What the async version returns; nil for nothing.
    var valueType: String?
    /// The isolation of a shim that calls a handler that is not `@Sendable` from a task
    /// inheriting it (`@MainActor`); nil for a shim that delivers through a `Future`.
    var taskIsolation: String?

    /// Settled by ``CompletionPathRule``: for each call of the handler, whether it was made
    /// from a hop to the main queue (``CompletionHopRule``).
    var hops: [Bool] = []
    /// The functions the async version awaits.
    var awaited: [AsyncCounterparts.Entry] = []
    /// The async version's body, at the function's indentation plus one level.
    var body: [String] = []
    /// What changes in behaviour, for the report.
    var notes: [String] = []

    /// Where the shim delivers: on the main queue when every call of the handler was made there.
    var deliversOnMain: Bool { !hops.isEmpty && hops.allSatisfy { $0 } }
}

/// Why a function is left alone: the reason, the line it is about, and what was found there.
struct FunctionLeave: Error {
    var reason: LeaveReason
    var line: Int
    var detail: String
}

/// A function rule's name and examples: each example's program holds the function and a
/// caller; its "after" is the whole program the tool writes (the function, its shim, and
/// the calls converted with it), or the reason the function is left alone.
public protocol DocumentedFunctionRule {
    static var summary: String { get }
    static var examples: [CallExample] { get }
}

/// Every function rule, in the order the planner asks them.
public enum FunctionRuleCatalog {
    /// The rules, in that order.
    public static var all: [any DocumentedFunctionRule.Type] {
        [
            PyramidFunctionRule.self, CompletionPathRule.self, CompletionCallRule.self, CompletionHopRule.self,
            PropagationRule.self,
        ]
    }

    /// Every function rule's examples, with the rule's name before each.
    public static var examples: [(rule: String, example: CallExample)] {
        all.flatMap { rule in rule.examples.map { (String(describing: rule), $0) } }
    }
}
