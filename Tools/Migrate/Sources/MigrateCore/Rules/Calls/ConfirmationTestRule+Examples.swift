extension ConfirmationTestRule {
    /// The confirmations that become an awaited call (the harness's stand-in for Swift Testing,
    /// `Tests/CallSiteTraces/FakeConfirmation.swift`, runs them).
    static let rewrittenExamples: [CallExample] = [
        CallExample(
            "a test that confirms the handler awaits the call",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    await confirmation { confirmed in
                        api.count { result in
                            switch result {
                            case .success(let count):
                                trace.log("count \\(count)")
                            case .failure(let error):
                                trace.failed(error)
                            }
                            confirmed()
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let count = try await api.count()
                        trace.log("count \\(count)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """),
            notes: ["confirmed 0 times", "AbandonedPromiseError"]),
        CallExample(
            "a comment and `expectedCount: 1`: the same confirmation",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    // Measure a text.
                    await confirmation("measured", expectedCount: 1) { confirmed in
                        api.measure("abc") { count in
                            trace.log("count \\(count)")
                            confirmed()
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    // Measure a text.
                    do {
                        let count = try await api.measure("abc")
                        trace.log("count \\(count)")
                    } catch {}
                }
                """)),
    ]

    /// The confirmations whose meaning the awaited call would change.
    static let leftExamples: [CallExample] = [
        left(
            "inverted", "an inverted confirmation (`expectedCount: 0`) checks that the handler is not called",
            arguments: "expectedCount: 0"),
        left("counted", "a counted confirmation counts the handler's calls", arguments: "expectedCount: 1...2"),
        left(
            "not the handler's last", "`confirmed()` before other code of the handler",
            handler: "confirmed()\n    trace.log(\"after\")"),
        left(
            "more than one place", "confirmed in more than one place",
            handler: "if trace.isEnabled {\n        confirmed()\n    }\n    confirmed()"),
        left(
            "a `return` in the handler", "a `return` in the handler skipped `confirmed()`",
            handler: "guard trace.isEnabled else { return }\n    confirmed()"),
        left(
            "other code than the call", "code in the confirmation after the call",
            after: "\n        trace.log(\"requested\")"),
        CallExample(
            "code after the confirmation: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    await confirmation { confirmed in
                        api.ping {
                            trace.log("pinged")
                            confirmed()
                        }
                    }
                    trace.log("after")
                }
                """,
            after: .leftAlone(.expectation, "does not end with the confirmation")),
        CallExample(
            "a continuation inside the confirmation: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    await confirmation { confirmed in
                        await withCheckedContinuation { continuation in
                            api.ping {
                                confirmed()
                                continuation.resume()
                            }
                        }
                    }
                }
                """,
            after: .leftAlone(.expectation, "resumes a continuation")),
    ]

    /// A test that confirms `api.ping`'s handler, with `arguments` to the confirmation, `handler`
    /// as the handler's code and `after` after the call, left alone for `detail`.
    private static func left(
        _ detail: String, _ name: String, arguments: String = "", handler: String = "confirmed()", after: String = ""
    ) -> CallExample {
        let code = handler.replacingOccurrences(of: "\n", with: "\n            ")
        return CallExample(
            name + ": left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    await confirmation\(arguments.isEmpty ? "" : "(" + arguments + ")") { confirmed in
                        api.ping {
                            trace.log("pinged")
                            \(code)
                        }\(after)
                    }
                }
                """,
            after: .leftAlone(.expectation, detail))
    }
}
