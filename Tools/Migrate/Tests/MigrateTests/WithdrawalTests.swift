import Foundation
import MigrateCore
import Testing

/// What the planners do with the units the compile gate withdrew, and where they say each
/// unit lies (the lines the gate reads the compiler's errors against).
@Suite("Withdrawn edits")
struct WithdrawalTests {
    static let api = SourceInput(
        path: "API.swift",
        text: """
            final class API: Sendable {
                func load(id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                    completion(.success("v"))
                }
            }
            """)
    static let input = SourceInput(
        path: "Program.swift",
        text: """
            func measure(api: API, id: Int, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
                api.load(id: id) { result in
                    switch result {
                    case .success(let text):
                        completion(.success(text.count))
                    case .failure(let error):
                        completion(.failure(error))
                    }
                }
            }

            func show(api: API) async {
                api.load(id: 1) { result in
                    switch result {
                    case .success(let text):
                        print(text)
                    case .failure(let error):
                        print(error)
                    }
                }
            }
            """)

    static func calls(_ withdrawn: Withdrawals = [:]) -> CallMigrationResult {
        var options = MigrationOptions()
        options.withdrawn = withdrawn
        return CallMigrator(options: options).migrate([input], context: [api])
    }

    /// The lines of `text` a placement covers.
    static func lines(_ text: String, _ placement: Placement) -> [Substring] {
        Array(
            text.split(separator: "\n", omittingEmptySubsequences: false)[
                (placement.lines.lowerBound - 1)..<placement.lines.upperBound])
    }

    @Test("Each converted function and call says where its lines are in the new text")
    func placements() throws {
        let result = Self.calls()
        let file = try #require(result.files.first)
        #expect(result.functions.map(\.outcome.isConverted) == [true])
        #expect(result.entries.map(\.outcome.isConverted) == [true])
        let units = file.placements.map(\.unit)
        #expect(units.contains(.function("measure(api:id:completion:)")))
        #expect(units.contains(.call(file: "Program.swift", line: 13)))
        for placement in file.placements {
            let text = Self.lines(file.text, placement).joined(separator: "\n")
            switch placement.unit {
            case .function: #expect(text.contains("func measure(api: API, id: Int) async throws -> Int {"), "\(text)")
            case .call: #expect(text.contains("try await api.load(id: 1)"), "\(text)")
            case .form: Issue.record("no form in a calls run")
            }
        }
    }

    @Test("A withdrawn call is left alone with the compiler's message")
    func withdrawnCall() {
        let message = "Program.swift:13: error: something the compiler saw"
        let result = Self.calls([.call(file: "Program.swift", line: 13): message])
        #expect(result.entries.map(\.outcome) == [.leftAlone(.rejectedByCompiler, message)])
        #expect(result.functions.map(\.outcome.isConverted) == [true], "the function is a unit of its own")
    }

    @Test("A withdrawn function is left alone with the message; the calls that await it follow")
    func withdrawnFunction() {
        let message = "Program.swift:1: error: something the compiler saw"
        let result = Self.calls([.function("measure(api:id:completion:)"): message])
        #expect(result.functions.map(\.outcome) == [.leftAlone(.rejectedByCompiler, message)])
        #expect(!(result.files.first?.text.contains("async throws -> Int") ?? false))
    }

    @Test("A withdrawn form is skipped with the message; the function and the calls that await it are not converted")
    func withdrawnForm() throws {
        let message = "Program+Async.swift:12: error: something the compiler saw"
        var options = MigrationOptions()
        options.withdrawn = [.form(function: "API.load(id:completion:)"): message]
        let forms = Migrator(options: options).migrate([Self.api])
        let entry = try #require(forms.entries.first { $0.function == "API.load(id:completion:)" })
        #expect(entry.outcome == .skipped(.rejectedByCompiler, message))
        #expect(!forms.files.contains { $0.text.contains("func load(id: Int) async throws") })

        let calls = Self.calls(options.withdrawn)
        #expect(!calls.functions.contains { $0.outcome.isConverted })
        #expect(!calls.entries.contains { $0.outcome.isConverted })
    }

    @Test("Each generated form says where its lines are in the new file")
    func formPlacements() throws {
        let result = Migrator().migrate([Self.api, Self.input])
        let file = try #require(result.files.first { $0.path == "API+Async.swift" })
        #expect(file.placements.map(\.unit) == [.form(function: "API.load(id:completion:)")])
        let other = try #require(result.files.first { $0.path == "Program+Async.swift" })
        #expect(other.placements.map(\.unit) == [.form(function: "measure(api:id:completion:)")])
        let first = Self.lines(file.text, file.placements[0])
        #expect(
            first.first?.trimmingCharacters(in: .whitespaces).hasPrefix("/// Async form of `load(id:completion:)`")
                == true, "\(first)")
        #expect(first.last?.trimmingCharacters(in: .whitespaces) == "}")
        #expect(first.contains { $0.contains("func load(id: Int) async throws -> String {") })
    }
}

extension CallOutcome {
    var isConverted: Bool {
        if case .converted = self { true } else { false }
    }
}
