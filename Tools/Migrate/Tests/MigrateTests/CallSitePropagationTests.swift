import Testing

@testable import MigrateCore

/// Synchronous functions made async for the callback call they end with, with their callers
/// up to a root: an async caller or a test awaits, a synchronous caller of the module
/// follows, other synchronous code starts a task.
@Suite("Call sites: synchronous functions made async with their callers; Swift 5 mode modules")
struct CallSitePropagationTests {
    static let model = """
        import Dispatch

        final class ViewModel {
            let api: FakeAPI
            var text = ""

            init(api: FakeAPI) { self.api = api }

            func refresh() {
                api.load(id: 1) { [weak self] result in
                    guard let self else { return }
                    switch result {
                    case .success(let text):
                        self.text = text
                    case .failure:
                        self.text = "failed"
                    }
                }
            }

            func reload() {
                text = ""
                refresh()
            }

            func start() {
                DispatchQueue.main.async {
                    self.reload()
                }
            }
        }
        """

    static let tests = """
        import XCTest

        final class ViewModelTests: XCTestCase {
            func testReload() {
                let model = ViewModel(api: FakeAPI(outcome: .value, trace: Trace()))
                model.reload()
                XCTAssertEqual(model.text, "v")
            }

            static var allTests = [
                ("testReload", testReload),
            ]
        }
        """

    static func migrate(_ files: [(String, String)], options: MigrationOptions = MigrationOptions()) throws
        -> CallMigrationResult
    {
        CallMigrator(options: options).migrate(
            files.map { SourceInput(path: $0.0, text: $0.1) }, context: try CallSiteFixtures.api())
    }

    @Test("A chain of two functions: the test awaits it, a closure that must stay synchronous starts a task")
    func chainToItsRoots() throws {
        let result = try Self.migrate([("ViewModel.swift", Self.model), ("ViewModelTests.swift", Self.tests)])
        let model = try #require(result.files.first { $0.path == "ViewModel.swift" }).text
        // The class is not isolated: its async methods run where their callers run, as they did.
        let refresh =
            "    nonisolated(nonsending) func refresh() async {\n        do {\n            let text = try await"
        #expect(model.contains(refresh))
        #expect(
            model.contains(
                "    nonisolated(nonsending) func reload() async {\n        text = \"\"\n        await refresh()\n    }"
            ))
        // Work the main queue ran: its task runs on the main actor.
        #expect(
            model.contains(
                "        DispatchQueue.main.async {\n            Task { @MainActor in await self.reload() }\n        }")
        )
        let tests = try #require(result.files.first { $0.path == "ViewModelTests.swift" }).text
        #expect(tests.contains("    func testReload() async throws {\n        let model"))
        #expect(tests.contains("        await model.reload()\n        XCTAssertEqual(model.text, \"v\")"))
        #expect(tests.contains("(\"testReload\", asyncTest(testReload)),"))
        #expect(result.propagated.map(\.function) == ["ViewModel.refresh()", "ViewModel.reload()"])
        let reload = try #require(result.propagated.last)
        #expect(reload.tests == ["ViewModelTests.swift:4"])
        #expect(reload.tasks == ["ViewModel.swift:28"])
        #expect(reload.awaited == ["ViewModelTests.swift:6"])
        #expect(result.summary().contains("2 synchronous functions made async"))
        #expect(result.entries.allSatisfy { $0.isConverted })
    }

    @Test("Turned off, the call is left alone as before")
    func turnedOff() throws {
        var options = MigrationOptions()
        options.propagates = false
        let result = try Self.migrate([("ViewModel.swift", Self.model)], options: options)
        #expect(result.files.isEmpty)
        #expect(result.propagated.isEmpty)
    }

    @Test(
        "What cannot follow keeps the chain synchronous, and the report says which caller",
        arguments: [
            (
                "model.reload()\n        XCTAssertEqual",
                "model.reload()\n        model.text = \"x\"\n        XCTAssertEqual",
                "is followed by `model.text = \"x\"`"
            ),
            ("func refresh() {", "public func refresh() {", "`ViewModel.refresh()` is public"),
            ("func refresh() {", "@objc func refresh() {", "`ViewModel.refresh()` is `@objc`"),
            ("        refresh()\n", "        let again = refresh\n        again()\n", "is used as a value"),
            (
                "        model.reload()\n", "        wait(for: [], timeout: 1)\n        model.reload()\n",
                "which waits for an expectation"
            ),
            (
                "    func start() {", "    func reload(force: Bool = true) {}\n\n    func start() {",
                "may reach another function"
            ),
            (
                "            self.reload()\n",
                "            [1, 2].forEach { _ in\n                self.reload()\n            }\n",
                "is in a closure passed to `[1, 2].forEach`"
            ),
            (
                "final class ViewModel {", "final class ViewModel: NSObject {",
                "conforms to `NSObject` of another module"
            ),
            (
                "let model = ViewModel(api: FakeAPI(outcome: .value, trace: Trace()))",
                "let model = [ViewModel(api: FakeAPI(outcome: .value, trace: Trace()))][0]",
                "is on a value whose type is not known"
            ),
            (
                "    func testReload() {",
                "    override func setUp() {\n        let model = ViewModel(api: FakeAPI(outcome: .value, trace: Trace()))\n"
                    + "        model.reload()\n    }\n\n    func testReload() {",
                "is in `setUp`"
            ),
        ])
    func staysSynchronous(find: String, replace: String, reason: String) throws {
        let model = Self.model.replacingOccurrences(of: find, with: replace)
        let tests = Self.tests.replacingOccurrences(of: find, with: replace)
        let result = try Self.migrate([("ViewModel.swift", model), ("ViewModelTests.swift", tests)])
        #expect(result.propagated.isEmpty)
        let entry = try #require(result.entries.first)
        guard case .leftAlone(.notAsync, let detail) = entry.outcome else {
            Issue.record("\(entry.outcome)")
            return
        }
        #expect(detail.contains(reason), "\(detail)")
    }

    @Test("A chain the compiler rejected stays synchronous, with the compiler's message")
    func withdrawn() throws {
        var options = MigrationOptions()
        options.withdrawn = [.function("ViewModel.refresh()" + SyncPropagation.unitSuffix): "error: sending 'self'"]
        let result = try Self.migrate(
            [("ViewModel.swift", Self.model), ("ViewModelTests.swift", Self.tests)], options: options)
        #expect(result.files.isEmpty)
        let entry = try #require(result.entries.first)
        #expect(entry.outcome.reason == .notAsync)
        guard case .leftAlone(.notAsync, let detail) = entry.outcome else {
            Issue.record("\(entry.outcome)")
            return
        }
        #expect(detail.contains("the compiler rejected making it async: error: sending 'self'"))
    }

    @Test("The gate withdraws the chain as one unit: its edits in every file are placed under one name")
    func oneUnit() throws {
        let result = try Self.migrate([("ViewModel.swift", Self.model), ("ViewModelTests.swift", Self.tests)])
        let unit = EditUnit.function("ViewModel.refresh()" + SyncPropagation.unitSuffix)
        let model = try #require(result.files.first { $0.path == "ViewModel.swift" })
        #expect(model.placements.map(\.unit).contains(unit))
        let tests = try #require(result.files.first { $0.path == "ViewModelTests.swift" })
        #expect(!tests.placements.isEmpty)
        #expect(tests.placements.allSatisfy { $0.unit == unit })
    }

    @Test("A test double that keeps the handler for the test to call later: a test would wait for ever, so no chain")
    func spyKeepsTheHandler() throws {
        let spy = """
            final class LoadSpy {
                var completions: [(Result<String, any Error>) -> Void] = []

                func load(id: Int, completion: @escaping (Result<String, any Error>) -> Void) {
                    completions.append(completion)
                }
            }
            """
        let result = try Self.migrate([
            ("ViewModel.swift", Self.model), ("ViewModelTests.swift", Self.tests), ("LoadSpy.swift", spy),
        ])
        #expect(result.propagated.isEmpty)
        let entry = try #require(result.entries.first { $0.file == "ViewModel.swift" })
        guard case .leftAlone(.notAsync, let detail) = entry.outcome else {
            Issue.record("\(entry.outcome)")
            return
        }
        #expect(detail.contains("named `load` keeps its handler to call later"), "\(detail)")
    }

    static let swift5Titles = """
        func run(api: FakeAPI, trace: Trace) async {
            Titles(api: api).title { result in
                switch result {
                case .success(let title):
                    trace.log("title \\(title)")
                case .failure(let error):
                    trace.failed(error)
                }
            }
        }

        final class Titles {
            let api: FakeAPI

            init(api: FakeAPI) {
                self.api = api
            }

            func title(completion: @escaping (Result<String, any Error>) -> Void) {
                api.load(id: 1) { result in
                    completion(result)
                }
            }
        }
        """

    @Test("Swift 5 mode: a handler that is not @Sendable, of a type that is not Sendable, is converted and listed")
    func swift5Mode() throws {
        var options = MigrationOptions()
        options.languageMode = 5
        let five = try CallSiteFixtures.rewrite(Self.swift5Titles, options: options).result
        let function = try #require(five.functions.first)
        guard case .converted(let notes) = function.outcome else {
            Issue.record("\(function.outcome)")
            return
        }
        #expect(
            notes.contains {
                $0.contains("for Swift 6 mode later: the handler `completion` must be `@Sendable`")
                    && $0.contains("`Titles` must be Sendable")
            })
        let six = try CallSiteFixtures.rewrite(Self.swift5Titles).result
        #expect(six.functions.first?.outcome.reason == .functionSignature)
    }

    @Test(
        "The language mode from the manifest",
        arguments: [
            ("// swift-tools-version:5.9\nlet package = Package(name: \"P\")", 5),
            ("// swift-tools-version: 5.10\nlet package = Package(name: \"P\", swiftLanguageVersions: [.v6])", 6),
            ("// swift-tools-version:6.0\nlet package = Package(name: \"P\")", 6),
            ("// swift-tools-version:6.1\n.target(name: \"P\", swiftSettings: [.swiftLanguageMode(.v5)])", 5),
            ("// swift-tools-version:6.0\nlet package = Package(name: \"P\", swiftLanguageModes: [.v5, .v6])", 6),
            ("// swift-tools-version:6.0\n// .target(name: \"P\", swiftSettings: [.swiftLanguageMode(.v5)])", 6),
            ("// swift-tools-version:6.0\n.target(name: \"P\", swiftSettings: [.swiftLanguageVersion(.v5)])", 5),
        ])
    func languageMode(manifest: String, mode: Int) {
        #expect(PackageManifest.languageMode(manifest: manifest) == mode)
    }

    @Test("A call from the package's code outside the run keeps the function synchronous")
    func calledFromOutside() throws {
        let result = CallMigrator().migrate(
            [SourceInput(path: "ViewModel.swift", text: Self.model)], context: try CallSiteFixtures.api(),
            outside: [SourceInput(path: "Tests/ViewModelTests.swift", text: Self.tests)])
        #expect(result.propagated.isEmpty)
        let entry = try #require(result.entries.first)
        guard case .leftAlone(.notAsync, let detail) = entry.outcome else {
            Issue.record("\(entry.outcome)")
            return
        }
        #expect(detail.contains("it may be called at Tests/ViewModelTests.swift:6, outside the modules given"))
    }

    @Test("A result used whole, where the handler's code would clash with the code beside the call: in a `do { }`")
    func wholeResultClash() throws {
        let program = """
            func run(api: FakeAPI, trace: Trace) async {
                let stored = 1
                api.load(id: 5) { result in
                    let stored = result
                    trace.log("\\(stored)")
                }
            }
            """
        let (text, result) = try CallSiteFixtures.rewrite(program)
        #expect(result.convertedCount == 1, "\(result.entries)")
        #expect(
            text.contains(
                """
                    let stored = 1
                    do {
                        let result: Result<String, any Error>
                        do {
                            result = .success(try await api.load(id: 5))
                        } catch {
                            result = .failure(error)
                        }
                        let stored = result
                        trace.log("\\(stored)")
                    }
                """), "\(text)")
        let clean = try CallSiteFixtures.rewrite(program.replacingOccurrences(of: "    let stored = 1\n", with: ""))
        #expect(clean.text.contains("let result: Result<String, any Error>\n    do {"))
    }
}
