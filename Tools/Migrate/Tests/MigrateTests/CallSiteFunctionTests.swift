import MigrateCore
import Testing

/// The function rules' examples through the whole tool: callback pyramids converted to
/// async with a shim, or left alone with the reason and the line.
@Suite("Call sites: functions")
struct CallSiteFunctionTests {
    @Test("Every function rule carries examples")
    func everyRuleHasExamples() {
        for rule in FunctionRuleCatalog.all {
            #expect(!rule.examples.isEmpty, "\(rule) has no example")
            #expect(!rule.summary.isEmpty, "\(rule) has no summary")
        }
    }

    @Test("Each function rule's examples", arguments: FunctionRuleCatalog.examples.map(\.example))
    func example(_ example: CallExample) throws {
        let (text, result) = try CallSiteFixtures.rewrite(example.before)
        let entry = try #require(result.functions.first, "no function found")
        CallSiteFixtures.check(example, text: text, result: result, outcome: entry.outcome, entry.description)
    }
}
