/// `futurebridge-migrate calls …` rewrites call sites; `futurebridge-migrate rules` prints the
/// rule reference; anything else writes async forms (or legacy shims), as the tool always has.
@main
enum EntryPoint {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "calls": CallsCommand.main(Array(arguments.dropFirst()))
        case "rules": RulesCommand.main(Array(arguments.dropFirst()))
        default: FutureBridgeMigrate.main(arguments)
        }
    }
}
