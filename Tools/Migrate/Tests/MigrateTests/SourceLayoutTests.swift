import Foundation
import MigrateCore
import Testing

/// The tool's sources read like the library's: one concept per file, no file over 400 lines
/// (a longer one is split along its seams, as `Type+Aspect.swift`).
@Suite("Source layout")
struct SourceLayoutTests {
    static let maximumLines = 400

    @Test("No source file is longer than 400 lines")
    func fileLengths() throws {
        let files = try sourceInputs(under: Paths.package.appendingPathComponent("Sources"))
        #expect(!files.isEmpty)
        for file in files {
            let lines = file.text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
            let advice = "split it along a seam (a rule's decision, its writer, its examples) as `Type+Aspect.swift`"
            #expect(lines <= Self.maximumLines, "Sources/\(file.path) has \(lines) lines: \(advice)")
        }
    }
}
