import SwiftSyntax

/// In a test that throws, a call whose failure code only records a failure needs no
/// `do`/`catch`: the error the awaited call throws ends the test, which failed on that path
/// before too (XCTest and Swift Testing record a thrown error as a failure). The success
/// code follows the await at the call's own level, so a callback pyramid in a test becomes
/// one await after another, each level flat. Asked last, once the other rules have settled
/// the call's code.
///
/// The failure code must fail the test for certain: `XCTFail(…)`, or `XCTAssertNil` of the
/// error the handler received. Another assertion (`XCTAssertTrue(flag)`) may pass, and the
/// test with it, so the call keeps its `catch`. A handler that receives no error has no
/// failure code: only the bridge throws (the handler released uncalled, the task
/// cancelled), where the test timed out before; now it fails at once.
struct TestFailureRule: DocumentedCallRule {
    static let summary =
        "In a test method that throws (`test…` in XCTest, `@Test`, or one the expectation rule makes `async throws`), "
        + "a call at the method's top level whose failure code is only `XCTFail(…)` or `XCTAssertNil(error)` (or "
        + "none: a handler that receives no error) is "
        + "awaited without `do`/`catch`: its error ends the test, which failed there before too; the success code "
        + "follows at the same level, so a pyramid of such calls becomes flat."

    /// Whether the settled `rewrite` leaves its error to end the test.
    static func propagates(_ rewrite: CallRewrite) -> Bool {
        guard rewrite.stream == nil, rewrite.resumed == nil, rewrite.confirmation == nil, rewrite.fanOut == nil,
            rewrite.wholeResult == nil,
            let branches = rewrite.branches, branches.errorType == nil, !branches.ignoresError,
            Self.onlyFails(branches.failure, error: branches.errorName ?? "error"),
            // No failure code where the handler receives an error: the error was ignored (an
            // empty `catch`, a test expecting it), and thrown it would fail the test.
            !branches.failure.isEmpty || !(rewrite.entry?.shape.carriesError ?? true),
            rewrite.context?.isAsync ?? false,
            let function = rewrite.context?.body.as(FunctionDeclSyntax.self),
            let statement = rewrite.statement, let body = function.body, statement.parent?.id == body.statements.id
        else { return false }
        // Without the `do` block, what the code declares is declared in the method's own scope:
        // a name the method declares there too would be declared twice.
        let flattened = Set(
            [branches.valueName].compactMap { $0 } + rewrite.hopCopies.map(\.name)
                + CallRewrite.declared(in: branches.success))
        let others = body.statements.filter { $0.id != statement.id }.flatMap { CallRewrite.declared(in: [$0]) }
        guard flattened.isDisjoint(with: others) else { return false }
        // A test the expectation rule makes `async throws`; not a helper that waits, whose
        // callers would get an error where it recorded a failure and returned. Code after the
        // wait ran after a failure too: skipped, only assertions may be (the test failed).
        if let test = rewrite.expectation {
            return test.helper == nil && test.checks.allSatisfy(ExpectationTestRule.isAssertion)
        }
        let isTest =
            function.name.text.hasPrefix("test")
            || function.attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "Test" }
        return isTest && function.signature.effectSpecifiers?.throwsClause != nil
    }

    /// Nothing, or code that fails the test and may then fulfil an expectation (which let a
    /// wait return: the test ended there, failed).
    private static func onlyFails(_ failure: [CodeBlockItemSyntax], error: String) -> Bool {
        let fails = failure.filter { failsTheTest($0, error: error) }
        let fulfils = failure.filter {
            $0.item.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName
                .text == "fulfill"
        }
        return failure.isEmpty || (!fails.isEmpty && fails.count + fulfils.count == failure.count)
    }

    /// `XCTFail(…)`, or `XCTAssertNil(error)` of the error the `catch` binds.
    private static func failsTheTest(_ item: CodeBlockItemSyntax, error: String) -> Bool {
        let call =
            item.item.as(FunctionCallExprSyntax.self)
            ?? item.item.as(ExpressionStmtSyntax.self)?.expression.as(FunctionCallExprSyntax.self)
        guard let call, call.trailingClosure == nil else { return false }
        switch call.calledExpression.trimmedDescription {
        case "XCTFail": return true
        case "XCTAssertNil": return call.arguments.first?.expression.trimmedDescription == error
        default: return false
        }
    }

    static let examples: [CallExample] = [
        CallExample(
            "a pyramid in a test becomes one await after another; a failure throws out of the test",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "save, then load")
                    api.save("a") { error in
                        XCTAssertNil(error)
                        api.load(id: 1) { result in
                            switch result {
                            case .success(let text):
                                trace.log("loaded \\(text)")
                            case .failure(let error):
                                XCTFail("load failed: \\(error)")
                            }
                            done.fulfill()
                        }
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    try await api.save("a")
                    let text = try await api.load(id: 1)
                    trace.log("loaded \\(text)")
                }
                """),
            notes: ["throws out of the test"]),
        CallExample(
            "a six-level pyramid: six awaits in order, each failure throws out of the test",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "six steps")
                    api.save("a") { error in
                        XCTAssertNil(error)
                        api.load(id: 1) { result in
                            switch result {
                            case .success(let first):
                                trace.log("first \\(first)")
                                api.save("b") { error in
                                    XCTAssertNil(error)
                                    api.load(id: 2) { result in
                                        switch result {
                                        case .success(let second):
                                            trace.log("second \\(second)")
                                            api.save("c") { error in
                                                XCTAssertNil(error)
                                                api.load(id: 3) { result in
                                                    switch result {
                                                    case .success(let third):
                                                        trace.log("third \\(third)")
                                                    case .failure(let error):
                                                        XCTFail("\\(error)")
                                                    }
                                                    done.fulfill()
                                                }
                                            }
                                        case .failure(let error):
                                            XCTFail("\\(error)")
                                            done.fulfill()
                                        }
                                    }
                                }
                            case .failure(let error):
                                XCTFail("\\(error)")
                                done.fulfill()
                            }
                        }
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    try await api.save("a")
                    let first = try await api.load(id: 1)
                    trace.log("first \\(first)")
                    try await api.save("b")
                    let second = try await api.load(id: 2)
                    trace.log("second \\(second)")
                    try await api.save("c")
                    let third = try await api.load(id: 3)
                    trace.log("third \\(third)")
                }
                """)),
        CallExample(
            "failure code that may pass (`XCTAssertTrue`) keeps its `catch`",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let text):
                            trace.log("loaded \\(text)")
                        case .failure(let error):
                            XCTAssertTrue(trace.isEnabled, "\\(error)")
                        }
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    do {
                        let text = try await api.load(id: 1)
                        trace.log("loaded \\(text)")
                    } catch {
                        XCTAssertTrue(trace.isEnabled, "\\(error)")
                    }
                }
                """)),
    ]
}
