import MigrateCore
import Testing

/// `DispatchGroupRule` beyond its examples: every call of a fan-out goes together, and a
/// group used in other ways leaves the fan-out alone.
@Suite("Call sites: DispatchGroup fan-outs")
struct CallSiteFanOutTests {
    static func outcomes(_ program: String) throws -> (files: Int, outcomes: [CallOutcome]) {
        let (_, result) = try CallSiteFixtures.rewrite(program)
        return (result.files.count, result.entries.map(\.outcome))
    }

    @Test("One call left alone leaves every call of its fan-out alone")
    func oneLeftAlone() throws {
        let (files, outcomes) = try Self.outcomes(
            """
            func run(api: FakeAPI, trace: Trace) async {
                let group = DispatchGroup()
                group.enter()
                api.save("a") { error in
                    if let error {
                        trace.failed(error)
                    } else {
                        trace.log("saved")
                    }
                    group.leave()
                }
                group.enter()
                api.save("b") { [trace] error in
                    if let error {
                        trace.failed(error)
                    } else {
                        trace.log("saved")
                    }
                    group.leave()
                }
                group.notify(queue: .main) {
                    trace.log("done")
                }
            }
            """)
        #expect(files == 0)
        #expect(
            outcomes == [
                .leftAlone(.dispatchGroup, "another call of the `group` fan-out is left alone"),
                .leftAlone(.captureList, "`[trace]` captures values at the call"),
            ])
    }

    @Test("A group passed on, waited for with a timeout, or not ended by a notify or a wait: left alone")
    func otherUses() throws {
        let handler = """
                group.enter()
                api.save("a") { error in
                    trace.log("saved \\(error == nil)")
                    group.leave()
                }
            """
        let cases: [(String, String)] = [
            ("    keep(group)\n    group.notify(queue: .main) {}\n", "`group` is used elsewhere (`keep(group)`)"),
            ("    group.wait(timeout: .now() + 1)\n", "`group` is used elsewhere (`group.wait(timeout: .now() + 1)`)"),
            ("", "no `group.notify(queue: .main) { }` or `group.wait()` ends the fan-out"),
            ("    group.notify(queue: .main) {}\n    trace.log(\"after\")\n", "code runs after `group.notify`"),
        ]
        for (ending, reason) in cases {
            let program =
                "func keep(_ group: DispatchGroup) {}\n\nfunc run(api: FakeAPI, trace: Trace) async {\n"
                + "    let group = DispatchGroup()\n" + handler + "\n" + ending + "}\n"
            let (files, outcomes) = try Self.outcomes(program)
            #expect(files == 0, "\(reason)")
            #expect(outcomes == [.leftAlone(.dispatchGroup, reason)])
        }
    }

    @Test("A loop with more than the call, or beside other calls, is left alone")
    func loops() throws {
        let call = """
                    api.save(text) { error in
                        if let error {
                            trace.failed(error)
                        } else {
                            trace.log("saved")
                        }
                        group.leave()
                    }
            """
        let cases: [(String, String)] = [
            (
                "    for text in [\"a\"] {\n        trace.log(text)\n        group.enter()\n" + call + "\n    }\n",
                "a loop that enters `group` is not `for x in s { group.enter(); call { … } }`"
            ),
            (
                "    for text in [\"a\"] {\n        group.enter()\n" + call + "\n    }\n    let text = \"b\"\n"
                    + "    group.enter()\n" + call.replacingOccurrences(of: "\n    ", with: "\n") + "\n",
                "a loop that enters `group` beside other calls"
            ),
        ]
        for (body, reason) in cases {
            let program =
                "func run(api: FakeAPI, trace: Trace) async {\n    let group = DispatchGroup()\n" + body
                + "    group.notify(queue: .main) {}\n}\n"
            let (files, outcomes) = try Self.outcomes(program)
            #expect(files == 0)
            #expect(outcomes.allSatisfy { $0 == .leftAlone(.dispatchGroup, reason) }, "\(outcomes)")
            #expect(!outcomes.isEmpty)
        }
    }

    @Test("The comments at the end of the group's lines are kept")
    func trailingComments() throws {
        let (text, result) = try CallSiteFixtures.rewrite(
            """
            func run(api: FakeAPI, trace: Trace) async {
                let group = DispatchGroup()  // one group
                group.enter()  // the save
                api.save("a") { error in
                    if let error {
                        trace.failed(error)
                    } else {
                        trace.log("saved")
                    }
                    group.leave()
                }  // saved
                group.notify(queue: .main) {
                    trace.log("done")
                }  // done
            }
            """)
        #expect(result.convertedCount == 1)
        #expect(
            text == """
                func run(api: FakeAPI, trace: Trace) async {
                    // one group
                    // the save
                    // saved
                    async let save1: Void = api.save("a")
                    do {
                        try await save1
                        trace.log("saved")
                    } catch {
                        trace.failed(error)
                    }
                    // done
                    await MainActor.run {
                        trace.log("done")
                    }
                }
                """)
    }

    @Test("A group declared elsewhere may be shared: left alone")
    func sharedGroup() throws {
        let (files, outcomes) = try Self.outcomes(
            """
            func run(api: FakeAPI, trace: Trace, group: DispatchGroup) async {
                group.enter()
                api.save("a") { error in
                    trace.log("saved \\(error == nil)")
                    group.leave()
                }
                group.notify(queue: .main) {}
            }
            """)
        #expect(files == 0)
        #expect(
            outcomes == [
                .leftAlone(
                    .dispatchGroup, "`group` is not a `DispatchGroup()` declared in this block (it may be shared)")
            ])
    }
}
