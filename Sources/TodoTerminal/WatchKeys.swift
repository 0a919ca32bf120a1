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
        Entry(keys: "a", action: "add a todo (with the tag of the filter)", short: "add"),
        Entry(keys: "Enter", action: "show or hide the selected todo in full", short: "detail"),
        Entry(keys: "h", action: "show or hide the selected todo's history", short: "history"),
        Entry(keys: "U", action: "undo the last change (any client's); again to redo", short: "undo"),
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
        Entry(keys: "Esc", action: "clear the search and tag, or leave a prompt", short: nil),
        Entry(keys: "?", action: "this list of keys", short: "keys"),
        Entry(keys: "q Ctrl-C", action: "quit", short: "quit"),
    ]

    /// As many `key word` pairs as fit in `columns`, always ending with `? keys`.
    public static func helpLine(columns: Int) -> String {
        let last = "? keys"
        var line = ""
        for entry in all where entry.keys != "?" {
            guard let short = entry.short else { continue }
            let key = entry.keys.split(separator: " ").first.map(String.init) ?? entry.keys
            let item = "\(key) \(short)"
            let candidate = line.isEmpty ? item : line + "  " + item
            guard TerminalText.width(candidate) + 2 + TerminalText.width(last) <= columns else { break }
            line = candidate
        }
        return line.isEmpty ? last : line + "  " + last
    }

    /// The `?` page: one key a line, `keys  what it does`.
    public static var page: [String] {
        let width = all.map { TerminalText.width($0.keys) }.max() ?? 0
        return all.map { $0.keys + String(repeating: " ", count: width - TerminalText.width($0.keys)) + "  " + $0.action }
    }
}
