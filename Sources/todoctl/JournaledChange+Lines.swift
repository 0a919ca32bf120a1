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
        Self.fitted(ShowCommand.format(at) + "  ", what, author: authorAndState, width: Terminal.knownWidth)
    }

    /// A change's line: `lead` (its seq, time, number), what it did, and `author` (dim),
    /// cut at `width` as list cuts its rows, so that a narrow terminal does not wrap it
    /// into the next (at 40 columns every line of log and undo did; outside probe). What it
    /// did is cut with `…` first, the author kept while that leaves it `keptWhat` columns;
    /// then the author goes and what it did is cut at the edge. Nil `width` (a pipe): whole.
    static func fitted(_ lead: String, _ what: String, author: String?, width: Int?) -> String {
        let name = author.map { TerminalText.escaped($0) } ?? ""
        let styled = { (what: String) in lead + what + (author == nil ? "" : "   " + Terminal.styled(name, .dim)) }
        guard let width else { return styled(what) }
        let room = width - TerminalText.width(lead)
        let named = author == nil ? 0 : 3 + TerminalText.width(name)
        let keptWhat = 12
        if TerminalText.width(what) + named <= room { return styled(what) }
        if room - named >= keptWhat { return styled(TerminalText.truncated(what, toWidth: room - named)) }
        guard room > 0 else { return TerminalText.truncated(lead, toWidth: width) }
        // Without the author, a verb's padding (`done     `) would end the line in spaces.
        return (lead + TerminalText.truncated(what, toWidth: room)).trimmingTrailingSpaces()
    }

    /// `12  2026-11-21 14:02  #3  edited   title …   todoctl (client 3)`, for the log; a
    /// change that goes with an earlier one (the same command, taken back by the same undo)
    /// says which: `14  …  #4  edited   tags +x (step 12)   todoctl (client 3)`. The seq is
    /// right-aligned in `widths.seq` columns and the number left-aligned in `widths.number`,
    /// so that each column starts where the one above does (past seq 99 they wandered).
    func logLine(_ widths: (seq: Int, number: Int)) -> String {
        Self.fitted("\(padded(String(sequence), widths.seq))  \(ShowCommand.format(at))  \(numberColumn(widths.number))  ", what + stepMark, author: authorAndState, width: Terminal.knownWidth)
    }

    /// ` 9  #3   edited   title …   todoctl (client 3)`: a line of what `undo --since` would
    /// take back, within `width` (the confirmation's two spaces of indent left out).
    func undoLine(_ widths: (seq: Int, number: Int), width: Int?) -> String {
        Self.fitted(seqAndNumber(widths) + "  ", what + stepMark, author: authorAndState, width: width)
    }

    /// `  9  #3  edited   title …`: what an undo or a redo changed, within `width`.
    func changedLine(_ widths: (seq: Int, number: Int), width: Int?) -> String {
        Self.fitted(seqAndNumber(widths) + "  ", what, author: nil, width: width)
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
