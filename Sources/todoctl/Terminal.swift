import Foundation
import TodoPaths
import TodoTerminal
import TodoViewModel
import TodoWire

/// Where todoctl writes, and whether it may colour it: only on a terminal, never with
/// `NO_COLOR` set, never on a dumb terminal.
enum Terminal {
    static let colours: Bool = {
        isatty(STDOUT_FILENO) == 1 && Environment.value("NO_COLOR") == nil && Environment.value("TERM") != "dumb"
    }()

    /// One line on stdout, flushed at once so that a pipe (`todoctl events | …`) sees it.
    static func print(_ line: String) {
        Swift.print(line)
        fflush(nil)
    }

    /// A message on stderr; whatever it quotes (a title, a tag) is escaped, its line breaks kept.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("todoctl: \(TerminalText.escaped(message, keeping: ["\n"]))\n".utf8))
    }

    /// A write's answer: its line (or its todo as JSON) on stdout; on stderr, when the daemon
    /// kept it on its machine alone (its shared store away), that it is shared later.
    static func answer(_ change: TodoChange, json: Bool) throws {
        if json { try printJSON(change.todo) } else { print(change.line) }
        if let reason = change.unshared { error(unsharedNote(reason)) }
    }

    /// Said once a command when the daemon kept a change on its machine alone, the store away for `reason`.
    static func unsharedNote(_ reason: String) -> String {
        "saved on this machine; shared when the store is back (the shared store is unreachable: \(reason))"
    }

    /// Any value as indented JSON on stdout.
    static func printJSON<T: Encodable>(_ value: T) throws {
        let text = try WireCodec.json(value, pretty: true)
        // The encoder pretty-prints an empty array as `[`, a blank line and `]`: `[]`, as
        // docs/HISTORY.md promises a script comparing to it (outside probe 10).
        print(text.allSatisfy { $0 == "[" || $0 == "]" || $0.isWhitespace } && text.hasPrefix("[") ? "[]" : text)
    }

    static let styler = TextStyler(colours: colours)

    /// The columns a report may fill: $COLUMNS (so a script or a test can say), else the
    /// terminal's, else 80 (a pipe); at most `maximumWidth`.
    static var width: Int { knownWidth ?? 80 }

    /// The widest a report is drawn: a COLUMNS=99999 drew bars of 100,000 columns; no
    /// screen shows more than this.
    static let maximumWidth = 500

    /// $COLUMNS, else the terminal's width, at most `maximumWidth`; nil for a pipe without
    /// COLUMNS, where no width is known.
    static var knownWidth: Int? {
        if let text = Environment.value("COLUMNS"), let columns = Int(text), columns > 0 { return min(columns, maximumWidth) }
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else { return nil }
        return min(Int(window.ws_col), maximumWidth)
    }

    static func styled(_ text: String, _ style: TextStyler.Style?) -> String {
        styler.apply(style, to: text)
    }
}

extension TodoChange.Kind {
    /// The past tense a person reads: "added", "done", …
    var verb: String {
        switch self {
        case .created: "added"
        case .updated: "edited"
        case .completed: "done"
        case .reopened: "reopened"
        case .deleted: "deleted"
        case .restored: "restored"
        case .unchanged: "unchanged"
        }
    }
}

extension TodoChange {
    /// `done #3 Buy milk`, the title escaped.
    var line: String { line(verb: kind.verb) }

    /// `started #3 Buy milk`: the line with a command's own word for an edit it made.
    func line(verb: String) -> String { "\(verb) \(todo.numberText) \(TerminalText.escaped(todo.title))" }
}
