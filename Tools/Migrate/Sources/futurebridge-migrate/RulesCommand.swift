import ArgumentParser
import MigrateCore

/// `futurebridge-migrate rules`: prints the rule reference (`Tools/Migrate/Rules.md`), each
/// rule's summary and examples, as the tests check it.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "futurebridge-migrate rules",
        abstract: "Prints every rule of the tool, with its summary and examples, in Markdown (Rules.md).")

    func run() {
        print(RuleReference.markdown(), terminator: "")
    }
}
