import Foundation
import TodoTerminal
import TodoViewModel

extension JournaledChange {
    /// `edited   title "Call plumber" → "Call the plumber"`: what the change did, escaped.
    var what: String {
        let verb = kind.verb.padding(toLength: 9, withPad: " ", startingAt: 0)
        let details: String
        switch kind {
        case .created: details = "\"\(todo.title)\"" + (imported == true ? " (imported)" : "")
        // An undo that found its changes taken back already changes no field, and says so.
        case .updated: details = before == nil || !fieldChanges.isEmpty ? fieldChanges.joined(separator: ", ") : "no field left to change"
        default: details = fieldChanges.filter { !$0.hasPrefix("completedAt") && !$0.hasPrefix("deletedAt") }.joined(separator: ", ")
        }
        let undo = undoes.map { " (\(redo == true ? "redo" : "undo") of \($0))" } ?? ""
        return TerminalText.escaped(verb + details + undo)
    }

    /// `2026-11-21 14:02  edited   title …   todoctl (client 3)`, for history.
    var historyLine: String {
        "\(ShowCommand.format(at))  \(what)   \(Terminal.styled(TerminalText.escaped(author), .dim))"
    }

    /// `12  2026-11-21 14:02  #3  edited   title …   todoctl (client 3)`, for the log; a
    /// change that goes with an earlier one (the same command, taken back by the same undo)
    /// says which: `14  …  #4  edited   tags +x (step 12)   todoctl (client 3)`.
    var logLine: String {
        "\(sequence)  \(ShowCommand.format(at))  \(todo.numberText)  \(what)\(stepMark)   \(Terminal.styled(TerminalText.escaped(author), .dim))"
    }

    /// ` (step 12)` on a change that goes with change 12 (one command, one undo); empty on a step's first.
    var stepMark: String { step == sequence ? "" : " (step \(step))" }
}
