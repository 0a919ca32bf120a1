import Foundation
import TodoTerminal
import TodoViewModel

extension JournaledChange {
    /// `edited   title "Call plumber" → "Call the plumber"`: what the change did, escaped,
    /// its verb padded to 9 columns so that the details line up in a column of changes.
    var what: String { what(verbColumns: 9) }

    /// `edited title "Call plumber" → "Call the plumber"`: `what` inside a sentence (watch's
    /// status line, undo naming another program's change), where the log's padding left
    /// a gap after the verb (outside probe).
    var whatInWords: String { what(verbColumns: 0) }

    private func what(verbColumns: Int) -> String {
        let details: String
        switch kind {
        case .created: details = "\"\(todo.title)\"" + (imported == true ? " (imported)" : "")
        // An undo that found its changes taken back already changes no field, and says so.
        case .updated: details = before == nil || !fieldChanges.isEmpty ? fieldChanges.joined(separator: ", ") : "no field left to change"
        default: details = fieldChanges.filter { !$0.hasPrefix("completedAt") && !$0.hasPrefix("deletedAt") }.joined(separator: ", ")
        }
        let undo = undoes.map { " (\(redo == true ? "redo" : "undo") of \($0))" } ?? ""
        // In words, a verb with nothing after it (`deleted`) takes no space either.
        let gap = verbColumns == 0 && details.isEmpty ? 0 : max(1, verbColumns - kind.verb.count)
        return TerminalText.escaped(kind.verb + String(repeating: " ", count: gap) + details + undo)
    }

    /// `2026-11-21 14:02  edited   title …   todoctl (client 3)`, for history.
    var historyLine: String {
        "\(ShowCommand.format(at))  \(what)   \(Terminal.styled(TerminalText.escaped(author), .dim))"
    }

    /// `12  2026-11-21 14:02  #3  edited   title …   todoctl (client 3)`, for the log; a
    /// change that goes with an earlier one (the same command, taken back by the same undo)
    /// says which: `14  …  #4  edited   tags +x (step 12)   todoctl (client 3)`. The seq is
    /// right-aligned in `widths.seq` columns and the number left-aligned in `widths.number`,
    /// so that each column starts where the one above does (past seq 99 they wandered).
    func logLine(_ widths: (seq: Int, number: Int)) -> String {
        "\(padded(String(sequence), widths.seq))  \(ShowCommand.format(at))  \(numberColumn(widths.number))  \(what)\(stepMark)   \(Terminal.styled(TerminalText.escaped(author), .dim))"
    }

    /// `  9  #3 ` beside ` 12  #10`: the seq and the todo's number in columns as wide as
    /// `widths` (`widths(of:)`), for undo's and redo's lines.
    func seqAndNumber(_ widths: (seq: Int, number: Int)) -> String {
        padded(String(sequence), widths.seq) + "  " + numberColumn(widths.number)
    }

    /// The widest seq and todo number of `changes`, in columns (both are ASCII).
    static func widths(of changes: [JournaledChange]) -> (seq: Int, number: Int) {
        (changes.map { String($0.sequence).count }.max() ?? 0, changes.map { $0.todo.numberText.count }.max() ?? 0)
    }

    private func numberColumn(_ width: Int) -> String {
        todo.numberText + String(repeating: " ", count: max(0, width - todo.numberText.count))
    }

    private func padded(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// ` (step 12)` on a change that goes with change 12 (one command, one undo); empty on a step's first.
    var stepMark: String { step == sequence ? "" : " (step \(step))" }
}
