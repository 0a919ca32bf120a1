/// Every key of `todoctl watch` and what it does: the `?` page lists them all, the help
/// line shows as many as fit, and `todoctl watch --help` prints them.
public enum WatchKeys {
    public struct Entry: Sendable, Equatable {
        public let keys: String
        public let action: String
        /// The help line's short word; nil keeps the key off the help line.
        public let short: String?
    }

    public static let all: [Entry] = [
        Entry(keys: "↑↓ j k", action: "move the selection", short: "move"),
        Entry(keys: "PgUp PgDn g G", action: "page up and down, first, last", short: nil),
        Entry(keys: "x space", action: "toggle done", short: "done"),
        Entry(keys: "a", action: "add: title, -d DATE -p H -t TAG or due: pri: +tag (add's)", short: "add"),
        Entry(keys: "Enter", action: "show or hide the selected todo in full", short: "detail"),
        Entry(keys: "h", action: "show or hide the selected todo's history", short: "history"),
        Entry(keys: "U R", action: "undo the last change (anyone's; again: one before); R: redo", short: "undo"),
        Entry(keys: "e", action: "edit the title", short: "title"),
        Entry(keys: "D", action: "edit the due date (fri, +3d, 2026-12-24; empty: none)", short: "due"),
        Entry(keys: "p", action: "cycle the priority", short: "priority"),
        Entry(keys: "T", action: "edit the tags (space between; empty: none)", short: "tags"),
        Entry(keys: "r P w", action: "edit repeat (1w, after 3d), parent (a number), wait (fri, +3d)", short: "plan"),
        Entry(keys: "E", action: "edit the notes in $VISUAL or $EDITOR", short: "notes"),
        Entry(keys: "d", action: "delete", short: "delete"),
        Entry(keys: "u", action: "restore (in the deleted list)", short: "restore"),
        Entry(keys: "/", action: "search as you type: words, #tag", short: "search"),
        Entry(keys: "t", action: "filter by a tag (Tab completes; empty: all)", short: "tag"),
        Entry(keys: "f", action: "cycle open, all, completed, deleted", short: "filter"),
        Entry(keys: "z Z", action: "fold or unfold the selected parent's subtasks; Z: all", short: "fold"),
        Entry(keys: "Esc", action: "back to the filter watch started with, or leave a prompt", short: nil),
        Entry(keys: "?", action: "this list of keys", short: "keys"),
        Entry(keys: "q Ctrl-C", action: "quit (Ctrl-C in a prompt leaves it)", short: "quit"),
    ]

    /// The keys of a prompt, which edits its line as readline does. A field's old value
    /// starts selected: typing replaces it, Backspace empties it, a movement keeps it to edit.
    public static let prompt: [Entry] = [
        Entry(keys: "Ctrl-A Home", action: "to the start of the line", short: "start"),
        Entry(keys: "Ctrl-E End", action: "to the end of the line", short: "end"),
        Entry(keys: "← → Ctrl-B Ctrl-F", action: "a character back, forward", short: nil),
        Entry(keys: "Alt-B Alt-F", action: "a word back, forward", short: "word"),
        Entry(keys: "Ctrl-W", action: "delete the word before the cursor", short: "delete word"),
        Entry(keys: "Alt-D Alt-Bksp", action: "delete the word after, before the cursor", short: nil),
        Entry(keys: "Ctrl-U Ctrl-K", action: "delete to the start, to the end", short: "delete to start"),
        Entry(keys: "Bksp Del Ctrl-D", action: "delete before the cursor, under it", short: nil),
        Entry(keys: "Enter", action: "send the line (an old value unchanged too)", short: nil),
        Entry(keys: "Esc Ctrl-C", action: "leave the prompt", short: "leave"),
    ]

    /// The help line while a prompt is open: its editing keys that fit, ending with `Esc leave`.
    public static func promptLine(columns: Int) -> String {
        helpLine(of: prompt, last: "Esc leave", columns: columns)
    }

    /// As many `key word` pairs as fit in `columns`, always ending with `? keys`.
    public static func helpLine(columns: Int) -> String {
        helpLine(of: all, last: "? keys", columns: columns)
    }

    /// As many `key word` pairs of `entries` as fit in `columns`, always ending with `last`.
    private static func helpLine(of entries: [Entry], last: String, columns: Int) -> String {
        var line = ""
        for entry in entries {
            guard let short = entry.short else { continue }
            let key = entry.keys.split(separator: " ").first.map(String.init) ?? entry.keys
            let item = "\(key) \(short)"
            // The last item comes last, whatever its place in the list.
            if item == last { continue }
            let candidate = line.isEmpty ? item : line + "  " + item
            guard TerminalText.width(candidate) + 2 + TerminalText.width(last) <= columns else { break }
            line = candidate
        }
        return line.isEmpty ? last : line + "  " + last
    }

    /// The `?` page: one key a line, `keys  what it does`; each fits 80 columns with the
    /// indent `watch --help` gives it (a test holds them to it).
    public static var page: [String] { lines(of: all) }

    /// The prompt's keys, as the page lists them.
    public static var promptPage: [String] { lines(of: prompt) }

    private static func lines(of entries: [Entry]) -> [String] {
        let width = entries.map { TerminalText.width($0.keys) }.max() ?? 0
        return entries.map { $0.keys + String(repeating: " ", count: width - TerminalText.width($0.keys)) + "  " + $0.action }
    }
}
