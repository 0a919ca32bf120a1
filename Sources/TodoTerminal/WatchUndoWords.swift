import Foundation

/// An undo's or a redo's refusal as watch shows it. The store's reasons name todoctl's
/// commands (`todoctl redo`, `see todoctl history 1`), which watch has not, and an undo's
/// conflict advises forcing it, which U cannot: watch's status line names its own keys
/// (U, R) and leaves out advice it cannot follow, keeping what happened.
public enum WatchUndoWords {
    public static func refusal(_ message: String) -> String {
        var text = message
        for (command, key) in [("`todoctl undo`", "U"), ("`todoctl redo`", "R")] {
            text = text.replacingOccurrences(of: command, with: key)
        }
        // Asides that point at a todoctl command: "(see `todoctl log`)".
        text = text.replacingOccurrences(of: #" \([^()]*`todoctl[^()]*\)"#, with: "", options: .regularExpression)
        // Clauses of advice that only todoctl can follow: a command, a flag, or a forced undo
        // (watch's U forces nothing).
        let clauses = text.components(separatedBy: "; ").filter { !$0.contains("`todoctl") && !$0.contains("--") && !$0.contains("force the undo") }
        return clauses.isEmpty ? text : clauses.joined(separator: "; ")
    }
}
