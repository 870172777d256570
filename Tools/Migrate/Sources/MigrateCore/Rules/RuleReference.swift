import SwiftParser
import SwiftSyntax

/// The rule reference (`Tools/Migrate/Rules.md`), written from the rules' own summaries and
/// examples: each rule a heading, its summary, and each example's sources before and what
/// the tool writes or reports after. A generated form is shown as the tool writes it (the
/// example is run through ``Migrator``); a call-site or function example's "after" is the
/// whole program the tests compare with the tool's output.
///
/// `futurebridge-migrate rules` prints it; `RuleReferenceTests` compares it with the
/// checked-in page.
public enum RuleReference {
    /// The page, in Markdown.
    public static func markdown() -> String {
        var page = [header]
        page.append(section(Self.forms))
        page += RuleCatalog.all.map { formRule($0) }
        page.append(section(Self.calls))
        page += CallRuleCatalog.all.map { callRule(String(describing: $0), summary: $0.summary, examples: $0.examples) }
        page.append(section(Self.functions))
        page += FunctionRuleCatalog.all.map {
            callRule(String(describing: $0), summary: $0.summary, examples: $0.examples)
        }
        page.append(reasons())
        return page.joined(separator: "\n\n") + "\n"
    }

    private static let header = """
        # futurebridge-migrate: the rules

        Every decision of the tool is a rule with a summary and examples (`Sources/MigrateCore/Rules`);
        the tests run every example through the whole tool. This page is generated from them by
        `RuleReference.markdown()` (`futurebridge-migrate rules` prints it), and a test fails when it
        differs from the rules. After changing a rule, regenerate it and review the diff:

        ```sh
        FUTUREBRIDGE_MIGRATE_UPDATE_GOLDEN=1 swift test --package-path Tools/Migrate --filter RuleReference
        ```

        - [Async forms](#async-forms): \(links(RuleCatalog.all.map { String(describing: $0) }))
        - [Call sites](#call-sites) (`calls`): \(links(CallRuleCatalog.all.map { String(describing: $0) }))
        - [Callback pyramids](#callback-pyramids) (`calls`): \
        \(links(FunctionRuleCatalog.all.map { String(describing: $0) }))
        - [Skip reasons](#skip-reasons) and [reasons a call is left alone](#reasons-a-call-is-left-alone)
        """

    private static let forms = (
        "Async forms",
        """
        What `futurebridge-migrate DIR` decides for each function that takes a completion handler. \
        Each example is one source file, and the new file the tool writes from it (without its \
        imports and the private helpers every such file declares), or why it skips the function.
        """
    )

    private static let calls = (
        "Call sites",
        """
        What `futurebridge-migrate calls DIR` decides for each call of a function that has an async \
        counterpart, in the order the planner asks. Each example is a program against the fake API \
        of the tests ([`Tests/CallSiteTraces/FakeAPI.swift`](Tests/CallSiteTraces/FakeAPI.swift)), \
        and the whole program the tool writes from it (the tests compile both and compare their \
        traces), or why it leaves the call alone.
        """
    )

    private static let functions = (
        "Callback pyramids",
        """
        What `calls` decides for each function of the module whose last parameter is a completion \
        handler: an async version, and its old signature a shim over it. Each example holds the \
        function and a caller; the "after" is the whole program (the function, its shim and the calls \
        converted with it).
        """
    )

    private static func section(_ section: (title: String, text: String)) -> String {
        "## \(section.title)\n\n\(section.text)"
    }

    private static func links(_ names: [String]) -> String {
        names.map { "[\($0)](#\($0.lowercased()))" }.joined(separator: ", ")
    }

    private static func formRule(_ rule: any DocumentedRule.Type) -> String {
        var lines = ["### \(String(describing: rule))", "", rule.summary]
        for example in rule.examples {
            lines += ["", "#### \(example.name)", ""]
            lines += flags(example.options)
            lines += ["Before (`API.swift`):", "", fenced(example.before), ""]
            lines += generated(example)
        }
        return lines.joined(separator: "\n")
    }

    private static func callRule(_ name: String, summary: String, examples: [CallExample]) -> String {
        var lines = ["### \(name)", "", summary]
        for example in examples {
            lines += ["", "#### \(example.name)", ""]
            lines += flags(example.options)
            lines += ["Before:", "", fenced(example.before), ""]
            switch example.after {
            case .rewritten(let program):
                lines += ["After:", "", fenced(program)]
            case .leftAlone(let reason, let detail):
                lines.append("Left alone: \(reason.rawValue)\(mentioning(detail)).")
            }
            if !example.notes.isEmpty {
                lines += [
                    "",
                    "The report's behaviour notes mention "
                        + example.notes.map { "\u{201C}\($0)\u{201D}" }.joined(separator: ", ") + ".",
                ]
            }
        }
        return lines.joined(separator: "\n")
    }

    /// An example's expected detail, a part of what the report says.
    private static func mentioning(_ detail: String) -> String {
        detail.isEmpty ? "" : "; the report's detail mentions \u{201C}\(detail)\u{201D}"
    }

    /// The options an example runs with, as the command's flags (none for the defaults).
    private static func flags(_ options: MigrationOptions) -> [String] {
        var flags: [String] = []
        if options.mode == .legacyShims { flags.append("--legacy-shims") }
        if options.publicOnly { flags.append("--public-only") }
        flags += options.imports.map { "--import \($0)" }
        flags += options.oneShot.sorted().map { "--one-shot \($0)" }
        flags += options.multiShot.sorted().map { "--multi-shot \($0)" }
        flags += options.cancelMethods.map { "--cancel-method \($0)" }
        if let isolation = options.defaultIsolation {
            flags.append("--default-isolation \(isolation.drop { $0 == "@" })")
        }
        return flags.isEmpty ? [] : ["With `\(flags.joined(separator: " "))`.", ""]
    }

    /// What the tool writes or reports for a form example, as it does it.
    private static func generated(_ example: RuleExample) -> [String] {
        let result = Migrator(options: example.options).migrate([SourceInput(path: "API.swift", text: example.before)])
        let outcome = result.entries.first { $0.function == example.function }?.outcome
        switch (example.after, outcome) {
        case (.generated, .generated):
            guard let file = result.files.first else { return ["Generated."] }
            return ["After (`\(file.path)`):", "", fenced(declarations(file.text))]
        case (.skipped(_, _), .skipped(let reason, let detail)):
            return ["`\(example.function)` skipped: \(reason.rawValue)" + (detail.isEmpty ? "." : " (\(detail)).")]
        case (.generated(let texts, _), _):
            return ["The generated form contains:", ""] + texts.map { fenced($0) }
        case (.skipped(let reason, let detail), _):
            return ["`\(example.function)` skipped: \(reason.rawValue)\(mentioning(detail))."]
        }
    }

    /// A generated file's declarations: without its header comment, its imports, and the
    /// private helper types every generated file that needs them declares.
    private static func declarations(_ text: String) -> String {
        let file = parseSwift(text)
        let kept = file.statements.filter { item in
            if item.item.is(ImportDeclSyntax.self) { return false }
            let modifiers =
                item.item.as(ClassDeclSyntax.self)?.modifiers ?? item.item.as(StructDeclSyntax.self)?.modifiers
            return !(modifiers?.contains { $0.name.tokenKind == .keyword(.private) } ?? false)
        }
        return kept.map { item in
            // The header comment is the first item's leading trivia; a doc comment stays.
            let lines = item.description.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.drop { $0.hasPrefix("// ") || $0.allSatisfy(\.isWhitespace) }.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    private static func fenced(_ code: String) -> String {
        "```swift\n\(code.trimmingTrailingNewlines)\n```"
    }

    /// Every skip reason with what it means, and every reason a call is left alone with the
    /// rules whose examples show it.
    private static func reasons() -> String {
        var lines = [
            "## Skip reasons", "",
            "Why `futurebridge-migrate DIR` writes no form for a function (the report's reasons, in its order).", "",
            "| Reason | Meaning |", "|---|---|",
        ]
        lines += SkipReason.allCases.map { "| \($0.rawValue) | \($0.explanation) |" }
        lines += [
            "", "## Reasons a call is left alone", "",
            "Why `calls` leaves a call or a function as it is, and the rules whose examples show it.", "",
            "| Reason | Shown by |", "|---|---|",
        ]
        let shown = (CallRuleCatalog.examples + FunctionRuleCatalog.examples).compactMap { rule, example in
            if case .leftAlone(let reason, _) = example.after { (reason, rule) } else { nil }
        }
        for reason in LeaveReason.allCases {
            let rules = shown.filter { $0.0 == reason }.map(\.1).reduce(into: [String]()) { rules, rule in
                if !rules.contains(rule) { rules.append(rule) }
            }
            lines.append("| \(reason.rawValue) | \(rules.isEmpty ? "(no example)" : links(rules)) |")
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate var trimmingTrailingNewlines: Substring {
        self[..<(lastIndex { $0 != "\n" }.map(index(after:)) ?? startIndex)]
    }
}
