import Foundation
import MigrateCore
import Testing

/// The rule reference (`Tools/Migrate/Rules.md`) is generated from the rules' summaries and
/// examples: it cannot drift from them. After a change to a rule, regenerate it with
/// `FUTUREBRIDGE_MIGRATE_UPDATE_GOLDEN=1 swift test --package-path Tools/Migrate --filter RuleReference`
/// and review the diff.
@Suite("Rule reference")
struct RuleReferenceTests {
    @Test("Rules.md is the rules' own summaries and examples")
    func checkedIn() throws {
        try Golden.check(RuleReference.markdown(), against: Paths.package.appendingPathComponent("Rules.md"))
    }

    @Test(
        "`futurebridge-migrate rules` prints the page",
        .enabled(if: migrateExecutable != nil, "the futurebridge-migrate executable was not found"))
    func command() throws {
        let rules = try run(["rules"], noBuild: false)
        #expect(rules.status == 0)
        #expect(rules.output == RuleReference.markdown())
    }

    @Test("Every rule and every example has its heading")
    func headings() {
        let page = RuleReference.markdown()
        let rules: [String] =
            RuleCatalog.all.map { "\($0)" } + CallRuleCatalog.all.map { "\($0)" }
            + FunctionRuleCatalog.all.map { "\($0)" }
        for rule in rules {
            #expect(page.contains("\n### \(rule)\n"), "no heading for \(rule)")
        }
        let examples =
            RuleCatalog.examples.map(\.example.name) + CallRuleCatalog.examples.map(\.example.name)
            + FunctionRuleCatalog.examples.map(\.example.name)
        for name in examples {
            #expect(page.contains("\n#### \(name)\n"), "no heading for \(name)")
        }
    }
}
