import Foundation

/// The results, printed as one Markdown table: each of todod's figures beside what it is
/// compared with (Redis, the disk, Taskwarrior…), their ratio, and the goal it must reach.
final class Table: @unchecked Sendable {
    /// A goal and whether this run met it.
    struct Goal {
        let text: String
        let met: Bool

        init(_ text: String, met: Bool) {
            self.text = text
            self.met = met
        }

        /// A rate of at least `bound` per second.
        static func rate(atLeast bound: Double, _ measured: Double) -> Goal {
            Goal("≥ \(formatCount(Int(bound)))/s", met: measured >= bound)
        }

        /// A time of at most `bound` nanoseconds.
        static func time(atMost bound: UInt64, _ measured: UInt64) -> Goal {
            Goal("≤ \(formatDuration(bound))", met: measured <= bound)
        }

        static func ratio(atLeast bound: Double, _ measured: Double) -> Goal {
            Goal("≥ \(formatRatio(bound))", met: measured >= bound)
        }

        static func ratio(atMost bound: Double, _ measured: Double) -> Goal {
            Goal("≤ \(formatRatio(bound))", met: measured <= bound)
        }
    }

    private var rows: [[String]] = []
    private var notes: [String] = []
    /// The measures whose goal this run missed (`--check` fails on them).
    private(set) var missed: [String] = []
    private(set) var goals = 0

    /// A row. `ratio` is todod's figure over the comparison's, as the goal reads it.
    func add(_ scenario: String, _ measure: String, todod: String, comparison: String = "", ratio: Double? = nil,
             goal: Goal? = nil, notes: String = "") {
        if let goal {
            goals += 1
            if !goal.met { missed.append(measure) }
        }
        rows.append([
            scenario, measure, todod, comparison, ratio.map(formatRatio) ?? "", goal?.text ?? "",
            goal.map { $0.met ? "✓" : "✗" } ?? "", notes,
        ])
    }

    func note(_ scenario: String, _ text: String) {
        notes.append("\(scenario). \(text)")
    }

    func print() {
        let header = ["#", "measure", "todod", "comparison", "ratio", "goal", "met?", "notes"]
        Swift.print("| " + header.joined(separator: " | ") + " |")
        Swift.print("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
        for row in rows { Swift.print("| " + row.joined(separator: " | ") + " |") }
        if !notes.isEmpty { Swift.print(""); notes.forEach { Swift.print($0) } }
    }
}

/// `0.19×`, `2.1×`, `12×`.
func formatRatio(_ value: Double) -> String {
    if !value.isFinite { return "–" }
    return String(format: value < 1 ? "%.2f×" : value < 10 ? "%.1f×" : "%.0f×", value)
}

extension Summary {
    /// `6,402/s`: the rate, for the todod or comparison column.
    var rate: String { "\(formatRate(perSecond))/s" }
    /// `p50 148 µs, p99 210 µs, max 4.1 ms`: the latencies, for the notes.
    var latencies: String { "p50 \(formatDuration(p50)), p99 \(formatDuration(p99)), max \(formatDuration(max))" }
}
