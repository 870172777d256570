/// `futurebridge-migrate calls …` rewrites call sites; anything else writes async forms
/// (or legacy shims), as the tool always has.
@main
enum EntryPoint {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "calls" {
            CallsCommand.main(Array(arguments.dropFirst()))
        } else {
            FutureBridgeMigrate.main(arguments)
        }
    }
}
