import Foundation
import TodoViewModel
import TodoWire

/// Where todoctl writes, and whether it may colour it: only on a terminal, never with
/// `NO_COLOR` set, never on a dumb terminal.
enum Terminal {
    static let colours: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }()

    /// One line on stdout, flushed at once so that a pipe (`todoctl events | …`) sees it.
    static func print(_ line: String) {
        Swift.print(line)
        fflush(nil)
    }

    static func error(_ message: String) {
        FileHandle.standardError.write(Data("todoctl: \(message)\n".utf8))
    }

    /// Any value as indented JSON on stdout.
    static func printJSON<T: Encodable>(_ value: T) throws {
        print(try WireCodec.json(value, pretty: true))
    }

    enum Style: String {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", cyan = "36"
    }

    static func styled(_ text: String, _ style: Style?) -> String {
        guard colours, let style, !text.isEmpty else { return text }
        return "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
    }
}

/// Todos as a table for people: number, done box, priority mark, title, due, tags.
struct TodoTable {
    let rows: [TodoViewModel]

    func render() -> [String] {
        let numberWidth = rows.map(\.numberText.count).max() ?? 2
        let titleWidth = min(max(rows.map(\.title.count).max() ?? 5, 5), 60)
        let dueWidth = rows.compactMap(\.dueText?.count).max() ?? 0
        return rows.map { row in
            let number = String(repeating: " ", count: numberWidth - row.numberText.count) + row.numberText
            let mark = row.priorityMark.padding(toLength: 1, withPad: " ", startingAt: 0)
            var title = row.title.count > titleWidth ? String(row.title.prefix(titleWidth - 1)) + "…" : row.title
            title = title.padding(toLength: titleWidth, withPad: " ", startingAt: 0)
            let due = (row.dueText ?? "").padding(toLength: dueWidth, withPad: " ", startingAt: 0)
            let cells = [
                Terminal.styled(number, .dim),
                Terminal.styled(row.doneBox, row.isCompleted ? .green : nil),
                Terminal.styled(mark, row.todo.priority == .high ? .red : .dim),
                Terminal.styled(title, row.isCompleted || row.isDeleted ? .dim : nil),
                Terminal.styled(due, row.isOverdue ? .red : .yellow),
                Terminal.styled(row.tagsLine, .cyan),
            ]
            return cells.joined(separator: " ").trimmingTrailingSpaces()
        }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return String(self[..<end])
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
    /// `done #3 Buy milk`
    var line: String { "\(kind.verb) \(todo.numberText) \(todo.title)" }
}
