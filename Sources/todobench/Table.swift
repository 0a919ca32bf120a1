import Foundation

/// The results, printed as a Markdown table.
final class Table: @unchecked Sendable {
    enum Goal {
        case atLeast(Double, String)
        case atMost(UInt64, String, p50: Bool = false)
        case custom(Bool, String)
    }

    private var rows: [[String]] = []
    private var notes: [String] = []

    func add(_ scenario: String, _ name: String, _ summary: Summary, goal: Goal? = nil, note: String = "") {
        var goalText = ""
        switch goal {
        case .atLeast(let rate, let text)?: goalText = "\(text) \(summary.perSecond >= rate ? "✓" : "✗")"
        case .atMost(let limit, let text, let p50)?: goalText = "\(text) \((p50 ? summary.p50 : summary.p99) <= limit ? "✓" : "✗")"
        case .custom(let met, let text)?: goalText = "\(text) \(met ? "✓" : "✗")"
        case nil: break
        }
        let p50 = formatDuration(summary.p50)
        let p99 = formatDuration(summary.p99)
        let max = formatDuration(summary.max)
        let rate = formatRate(summary.perSecond)
        let row: [String] = [scenario, name, p50, p99, max, rate, goalText, note]
        rows.append(row)
    }

    func add(_ scenario: String, _ name: String, rate: Double, note: String = "") {
        rows.append([scenario, name, "", "", "", formatRate(rate), "", note])
    }

    func add(_ scenario: String, _ name: String, value: String, goal: Goal, note: String = "") {
        var goalText = ""
        if case .custom(let met, let text) = goal { goalText = "\(text) \(met ? "✓" : "✗")" }
        rows.append([scenario, name, value, "", "", "", goalText, note])
    }

    func note(_ scenario: String, _ text: String) {
        notes.append("\(scenario). \(text)")
    }

    func print() {
        let header = ["#", "scenario", "p50", "p99", "max", "per s", "goal", "notes"]
        Swift.print("| " + header.joined(separator: " | ") + " |")
        Swift.print("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
        for row in rows { Swift.print("| " + row.joined(separator: " | ") + " |") }
        if !notes.isEmpty { Swift.print(""); notes.forEach { Swift.print($0) } }
    }
}
