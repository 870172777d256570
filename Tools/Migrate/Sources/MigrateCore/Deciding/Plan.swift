/// What the tool decided for a function: a generated member, or a skip with its reason.
enum Plan {
    case generated(GeneratedMember)
    case skipped(SkipReason, String)
}
