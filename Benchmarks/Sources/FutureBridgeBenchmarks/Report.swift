import Foundation

/// Prints measurements as a table with a ratio column, or as TSV.
enum Report {
    static func tsv(_ rows: [Measurement]) {
        for row in rows {
            let median = row.median.map { format($0) } ?? "missing"
            print("\(row.benchmark)\t\(row.library)\t\(median)\t\(row.unit)")
        }
    }

    static func table(_ rows: [Measurement]) {
        let header = ["benchmark", "library", "median", "min", "unit", "FB / best peer (medians, minimums)"]
        var lines: [[String]] = [header]
        // A group is one benchmark in one unit (S1 rows carry two units).
        var groups: [String] = []
        func key(_ row: Measurement) -> String { row.benchmark + "\t" + row.unit }
        for row in rows where !groups.contains(key(row)) { groups.append(key(row)) }
        for groupKey in groups {
            let group = rows.filter { key($0) == groupKey }
            let ours = group.first { $0.library == "futurebridge" }?.median
            let peers = group.filter { $0.library != "futurebridge" && $0.library != "continuation" }
            let bestPeer = peers.compactMap(\.median).min()
            let ourMinimum = group.first { $0.library == "futurebridge" }?.minimum
            let bestPeerMinimum = peers.compactMap(\.minimum).min()
            let continuation = group.first { $0.library == "continuation" }?.median
            for row in group {
                var ratio = ""
                if row.library == "futurebridge" {
                    if let ours, let bestPeer {
                        ratio = format(ours / bestPeer) + "x"
                    }
                    if let ourMinimum, let bestPeerMinimum {
                        ratio += (ratio.isEmpty ? "" : ", ") + "min " + format(ourMinimum / bestPeerMinimum) + "x"
                    }
                    if let ours, let continuation {
                        ratio += (ratio.isEmpty ? "" : ", ") + format(ours / continuation) + "x raw continuation"
                    }
                }
                lines.append([
                    row.benchmark, row.library,
                    row.median.map { format($0) } ?? "missing",
                    row.minimum.map { format($0) } ?? "-",
                    row.unit, ratio,
                ])
            }
        }
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        for (index, line) in lines.enumerated() {
            print(
                line.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                    .joined(separator: "  "))
            if index == 0 { print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        }
    }

    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        if abs(value) >= 100 { return String(format: "%.0f", value) }
        if abs(value) >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }
}
