import Foundation

/// The package's tests run before and after the tool's edits, compared test by test: how a
/// team knows the migration kept behaviour.
public struct TestRun: Sendable, Equatable {
    /// What happened to one test.
    public enum Status: String, Sendable, Equatable {
        case passed, failed, skipped
    }

    /// Each test's status, by the name its runner prints (XCTest's `Suite.testName`, or
    /// `-[Module.Suite testName]` on Apple platforms; Swift Testing's `name()` or display name).
    public var results: [String: Status]
    /// The command's own exit status was 0.
    public var succeeded: Bool

    public init(results: [String: Status], succeeded: Bool) {
        self.results = results
        self.succeeded = succeeded
    }

    /// The tests a build's output reports: XCTest's `Test Case '…' passed (…)` lines and
    /// Swift Testing's `✔ Test … passed` / `✘ Test … failed` lines. A test reported failed
    /// anywhere is failed; a test reported twice (a parameterized one) keeps its worst status.
    public init(output: String, succeeded: Bool) {
        var results: [String: Status] = [:]
        for line in output.split(separator: "\n") {
            guard let (name, status) = Self.result(Substring(line)) else { continue }
            if results[name] != .failed { results[name] = status }
        }
        self.init(results: results, succeeded: succeeded)
    }

    private static func result(_ line: Substring) -> (String, Status)? {
        // XCTest: Test Case 'Suite.testName' passed (0.001 seconds).
        if let start = line.range(of: "Test Case '"), let end = line[start.upperBound...].range(of: "' ") {
            let name = String(line[start.upperBound..<end.lowerBound])
            let rest = line[end.upperBound...]
            for status in [Status.passed, .failed, .skipped] where rest.hasPrefix(status.rawValue) {
                return (name, status)
            }
            return nil
        }
        // Swift Testing: ✔ Test name() passed after 0.001 seconds. / ✘ Test "Name" failed after …
        // (a symbol first: ✔ ✘ ➜ here, SF Symbols on Apple platforms).
        guard let start = line.range(of: "Test ") else { return nil }
        let marker = line[..<start.lowerBound].trimmingCharacters(in: .whitespaces)
        guard (1...2).contains(marker.count), !marker.contains(where: \.isLetter) else { return nil }
        let rest = line[start.upperBound...]
        guard !rest.hasPrefix("run with ") else { return nil }
        for (word, status) in [(" passed after ", Status.passed), (" failed after ", .failed), (" skipped", .skipped)] {
            if let found = rest.range(of: word) {
                return (String(rest[..<found.lowerBound]), status)
            }
        }
        return nil
    }

    /// The tests whose status differs between `before` and `after`, by name (a test that
    /// exists on one side only is `missing` on the other).
    public static func differences(before: TestRun, after: TestRun) -> [(name: String, before: String, after: String)] {
        Set(before.results.keys).union(after.results.keys).sorted().compactMap { name in
            let old = before.results[name]?.rawValue ?? "missing"
            let new = after.results[name]?.rawValue ?? "missing"
            return old == new ? nil : (name, old, new)
        }
    }

    /// The report's lines: the differences first, then the counts on each side. `again` is a
    /// second run after the edits, made when the first differed: a test whose result differs
    /// between the two is flaky. Without `edited`, no edit was kept, and every difference is the
    /// tests' own.
    public static func report(
        before: TestRun, after: TestRun, again: TestRun? = nil, edited: Bool = true, command: BuildCommand
    ) -> String {
        let changed = differences(before: before, after: after)
        var lines = [
            "tests (\(command)): \(changed.count) of \(Set(before.results.keys).union(after.results.keys).count) "
                + "changed their result" + (edited ? "" : " (no edit was kept: each difference is the tests' own)")
        ]
        for (name, old, new) in changed {
            let second = again.map { $0.results[name]?.rawValue ?? "missing" }
            let flaky = second.map { $0 == new ? "" : " (flaky: \($0) on a second run after the edits)" } ?? ""
            lines.append("  changed  \(name): \(old) before, \(new) after" + flaky)
        }
        for (side, run) in [("before", before), ("after", after)] {
            let counts = [TestRun.Status.passed, .failed, .skipped].map { status in
                "\(run.results.values.filter { $0 == status }.count) \(status.rawValue)"
            }
            lines.append("  \(side): " + counts.joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
