import ArgumentParser
import Foundation
import TodoClient
import TodoClock
import TodoModel
import TodoTerminal
import TodoViewModel

struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one todo in full.",
        discussion: """
            Due, wait and scheduled are shown with their times of day: due 2026-11-23 08:00 (1 h \
            overdue; due now in its minute), waits until 2026-11-28 23:00 (hidden from the list \
            till then; over once that minute has come), scheduled 2026-11-30 10:15, and a \
            repeating todo's next one: the next is due 2026-11-30 09:30.
            """)

    @Argument(help: "The todo: its number, id, or id prefix.", transform: TodoRef.checked) var ref: TodoRef
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws { try Self.show(ref, socketPath: connection.socketPath, json: output.json) }

    static func show(_ ref: TodoRef, socketPath: String, json: Bool) throws {
        let (detail, spent) = try Session.run(socketPath: socketPath) { client in
            let detail = try client.detail(ref)
            return (detail, try spentSeconds(detail.todo, client))
        }
        if json { return try Terminal.printJSON(ShownTodo(detail: detail, spent: spent)) }
        let summary = detail.summary
        Terminal.print(Terminal.styled("\(summary.numberText) \(TerminalText.escaped(detail.title))", .bold))
        var fields = [
            ("state", detail.stateText), ("priority", detail.priority.rawValue),
            ("due", detail.due.map { day in
                let due = day.described(at: detail.todo.dueTime)
                return summary.dueText.map { $0 == "\(day)" || $0 == due ? due : "\(due) (\($0))" } ?? due
            } ?? "-"),
            ("tags", summary.tagsLine.isEmpty ? "-" : TerminalText.escaped(summary.tagsLine)),
        ]
        if let project = detail.todo.project { fields.append(("project", TerminalText.escaped(project))) }
        fields += [("created", format(detail.todo.createdAt)), ("updated", format(detail.todo.updatedAt))]
        fields += PlanningLines(detail, now: LocalMinute(WallClock.now())).fields
        if let started = detail.todo.started { fields.append(("started", format(started))) }
        if let spent { fields.append(("spent", StatusCommand.describe(seconds: spent))) }
        if let completed = detail.todo.completedAt { fields.append(("completed", format(completed))) }
        if let deleted = detail.todo.deletedAt { fields.append(("deleted", format(deleted))) }
        fields += [("revision", "\(detail.revision)"), ("id", detail.todo.id.uuidString.lowercased())]
        // Padded by hand: Foundation's padding(toLength:) goes through NSString.
        for (name, value) in fields { Terminal.print("  " + name + String(repeating: " ", count: max(1, 10 - name.count)) + value) }
        if !detail.subtasks.isEmpty {
            Terminal.print("  subtasks  \(detail.progress.map { "\($0) done" } ?? "")")
            let table = TodoTable(rows: detail.subtasks, styler: Terminal.styler)
            for row in detail.subtasks { Terminal.print("    " + table.line(row)) }
        }
        if !detail.notes.isEmpty { Terminal.print("\n" + TerminalText.escapedNotes(detail.notes)) }
        // After the notes, oldest first, as `task info` lists them: each its time and text.
        if !detail.todo.annotations.isEmpty {
            Terminal.print("")
            for annotation in detail.todo.annotations {
                Terminal.print("  " + format(annotation.entry) + "  " + TerminalText.escaped(annotation.description))
            }
        }
    }

    /// The time spent on `todo`, summed from its history; nil when it was never started. A
    /// todo never changed since it was made (revision 1) and not started has no start in its
    /// history: the history is not asked for then, so a plain `show` stays one round trip.
    private static func spentSeconds(_ todo: Todo, _ client: TodoConnection) throws -> TimeInterval? {
        guard todo.revision > 1 || todo.started != nil else { return nil }
        var history: [JournaledChange] = []
        try client.forEachChange(of: .id(todo.id)) { history.append($0) }
        guard history.contains(where: { $0.todo.todo.started != nil }) else { return nil }
        return TimeSpent.seconds(in: history, now: WallClock.now())
    }

    /// `2026-11-22 14:05`, in local time.
    static func format(_ date: Date) -> String { LocalMinute(date).description }
}

/// What `show --json` prints: the detail's members, `spent`, the seconds worked on it
/// (`TimeSpent`), when it was ever started, and `blocked: true` when it waits for an open
/// todo, as `list --json` says (`JSONRow`).
private struct ShownTodo: Encodable {
    let detail: TodoDetailViewModel
    let spent: TimeInterval?

    private enum CodingKeys: String, CodingKey { case spent, blocked }

    func encode(to encoder: any Encoder) throws {
        try detail.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(spent.map { $0.rounded() }, forKey: .spent)
        if detail.isBlocked { try c.encode(true, forKey: .blocked) }
    }
}
