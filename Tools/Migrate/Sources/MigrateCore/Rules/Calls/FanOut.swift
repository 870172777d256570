import SwiftSyntax

/// A `DispatchGroup` fan-out in one block: `let group = DispatchGroup()`, then for each call
/// `group.enter()` and the call, whose handler ends with `group.leave()` (or starts with
/// `defer { group.leave() }`), then `group.notify(queue: .main) { … }` last, or `group.wait()`
/// (the code after it stays after it).
struct FanOut {
    var group: String
    /// `let group = DispatchGroup()` (nil when the group is not declared in this block).
    var declaration: CodeBlockItemSyntax?
    var items: [CodeBlockItemSyntax]
    /// The calls' statements, each after its `group.enter()`, in order.
    var members: [CodeBlockItemSyntax] = []
    var enters: [CodeBlockItemSyntax] = []
    /// Each member's `group.leave()` (or `defer { group.leave() }`), in its handler.
    var leaves: [CodeBlockItemSyntax] = []
    /// `group.notify(queue: .main) { … }` or `group.wait()`, and the notify's body.
    var end: CodeBlockItemSyntax?
    var notifyBody: ClosureExprSyntax?
    /// The `for` loop whose body is `group.enter()` and the fan-out's only call (a task group).
    var loop: (item: CodeBlockItemSyntax, statement: ForStmtSyntax)?
    /// Why the fan-out is not rewritten (nil: its shape is one this tool rewrites).
    var problem: String?

    /// Identifies the fan-out: the statement the group is declared or first entered in.
    var id: SyntaxIdentifier { (declaration ?? enters.first ?? items[0]).id }

    /// The fan-out `call` is a member of: its statement follows `group.enter()`; nil otherwise.
    static func enclosing(_ call: FunctionCallExprSyntax) -> FanOut? {
        guard let item = call.parent?.as(CodeBlockItemSyntax.self),
            let list = item.parent?.as(CodeBlockItemListSyntax.self)
        else { return nil }
        let items = Array(list)
        guard let position = items.firstIndex(where: { $0.id == item.id }), position > 0,
            let group = groupCall(items[position - 1], "enter")
        else { return nil }
        // `for x in s { group.enter(); call { … } }`: the fan-out is the loop's block.
        if let loop = list.parent?.parent?.as(ForStmtSyntax.self),
            let outer = loop.parent?.as(CodeBlockItemSyntax.self)?.parent?.as(CodeBlockItemListSyntax.self)
        {
            var fanOut = FanOut(group: group, items: Array(outer))
            fanOut.read()
            return fanOut
        }
        var fanOut = FanOut(group: group, items: items)
        fanOut.read()
        return fanOut
    }

    /// `group.<method>(…)` as a statement: the group's name.
    static func groupCall(_ item: CodeBlockItemSyntax, _ method: String) -> String? {
        guard let call = item.item.as(FunctionCallExprSyntax.self),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.declName.baseName.text == method,
            let base = member.base?.as(DeclReferenceExprSyntax.self)
        else { return nil }
        return base.baseName.text
    }

    private mutating func read() {
        guard
            let start = items.firstIndex(where: {
                guard let binding = $0.item.as(VariableDeclSyntax.self)?.bindings.first,
                    $0.item.as(VariableDeclSyntax.self)?.bindingSpecifier.tokenKind == .keyword(.let),
                    binding.pattern.trimmedDescription == group
                else { return false }
                return binding.initializer?.value.trimmedDescription == "DispatchGroup()"
            })
        else {
            problem = "`\(group)` is not a `DispatchGroup()` declared in this block (it may be shared)"
            return
        }
        declaration = items[start]
        var index = start + 1
        while index < items.count {
            let item = items[index]
            if Self.groupCall(item, "enter") == group {
                guard index + 1 < items.count, let call = items[index + 1].item.as(FunctionCallExprSyntax.self),
                    let handler = call.trailingClosure, call.additionalTrailingClosures.isEmpty
                else { return fail("`\(group).enter()` is not followed by a call with a trailing closure") }
                guard let leave = leaveItem(handler) else {
                    return fail(
                        "a handler does not end with `\(group).leave()` (or start with `defer { … }` around it)")
                }
                enters.append(item)
                members.append(items[index + 1])
                leaves.append(leave)
                index += 2
                continue
            }
            if let call = item.item.as(FunctionCallExprSyntax.self), Self.groupCall(item, "notify") == group {
                guard index == items.count - 1 else { return fail("code runs after `\(group).notify`") }
                guard call.arguments.count == 1, call.arguments.first?.label?.text == "queue",
                    let queue = call.arguments.first?.expression.trimmedDescription,
                    CounterpartCallRule.isMainQueue(queue)
                else { return fail("`\(group).notify` on a queue other than the main queue") }
                guard let body = call.trailingClosure, body.signature == nil else {
                    return fail("`\(group).notify`'s body is not a closure without parameters or captures")
                }
                end = item
                notifyBody = body
                break
            }
            if let call = item.item.as(FunctionCallExprSyntax.self), Self.groupCall(item, "wait") == group,
                call.arguments.isEmpty
            {
                end = item
                break
            }
            if let loop = item.item.as(ForStmtSyntax.self), CallRewrite.uses(group, in: [item]) {
                guard let problem = readLoop(item, loop) else {
                    index += 1
                    continue
                }
                return fail(problem)
            }
            if CallRewrite.uses(group, in: [item]) {
                return fail("`\(group)` is used elsewhere (`\(item.trimmedDescription.prefix { $0 != "\n" })`)")
            }
            index += 1
        }
        if end == nil { return fail("no `\(group).notify(queue: .main) { }` or `\(group).wait()` ends the fan-out") }
        if members.isEmpty { return fail("no call enters `\(group)`") }
        if loop != nil, members.count > 1 { return fail("a loop that enters `\(group)` beside other calls") }
    }

    /// `for x in s { group.enter(); call { … } }` as the fan-out's member, or why not.
    private mutating func readLoop(_ item: CodeBlockItemSyntax, _ loop: ForStmtSyntax) -> String? {
        let body = Array(loop.body.statements)
        guard loop.pattern.is(IdentifierPatternSyntax.self), loop.whereClause == nil, loop.caseKeyword == nil,
            loop.tryKeyword == nil, loop.awaitKeyword == nil, body.count == 2,
            Self.groupCall(body[0], "enter") == group,
            let call = body[1].item.as(FunctionCallExprSyntax.self), let handler = call.trailingClosure,
            call.additionalTrailingClosures.isEmpty
        else { return "a loop that enters `\(group)` is not `for x in s { \(group).enter(); call { … } }`" }
        guard let leave = leaveItem(handler) else {
            return "a handler does not end with `\(group).leave()` (or start with `defer { … }` around it)"
        }
        self.loop = (item, loop)
        enters.append(body[0])
        members.append(body[1])
        leaves.append(leave)
        return nil
    }

    private mutating func fail(_ reason: String) {
        problem = reason
    }

    /// The handler's `group.leave()`, its last statement (with no `return` before it), or
    /// `defer { group.leave() }` first; the group used nowhere else in the handler.
    private func leaveItem(_ handler: ClosureExprSyntax) -> CodeBlockItemSyntax? {
        let statements = Array(handler.statements)
        let uses = handler.statements.tokens(viewMode: .sourceAccurate).filter { $0.tokenKind == .identifier(group) }
        guard uses.count == 1 else { return nil }
        if let first = statements.first, let deferred = first.item.as(DeferStmtSyntax.self),
            deferred.body.statements.count == 1, let only = deferred.body.statements.first,
            Self.groupCall(only, "leave") == group
        {
            return first
        }
        guard let last = statements.last, Self.groupCall(last, "leave") == group,
            StreamCall.returns(in: Array(statements.dropLast()))?.isEmpty ?? false
        else { return nil }
        return last
    }
}
