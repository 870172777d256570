/// The unified diff that creates a new file (against `/dev/null`), as `git apply` and
/// `patch -p0` read it.
public func unifiedDiff(creating path: String, text: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let endsWithNewline = lines.last == ""
    if endsWithNewline { lines.removeLast() }
    var result = "--- /dev/null\n+++ \(path)\n@@ -0,0 +1,\(lines.count) @@\n"
    for line in lines { result += "+" + line + "\n" }
    if !endsWithNewline { result += "\\ No newline at end of file\n" }
    return result
}
