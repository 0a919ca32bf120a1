import ArgumentParser
import Foundation
import TodoClient
import TodoEvents
import TodoModel
import TodoViewModel

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a todo's fields.",
        discussion: """
            With field options, changes just those fields. Without any, opens $VISUAL or
            $EDITOR on a small form and applies what you changed, if nobody changed the todo
            meanwhile; if somebody did, nothing is applied and your form is kept.
            """)

    @Argument(help: "The todo: its number, id, or id prefix.") var ref: TodoRef
    @Option(help: "A new title.") var title: String?
    @Option(help: "New notes (replacing the old).") var notes: String?
    @Option(help: "low, normal or high.") var priority: Priority?
    @Option(help: ArgumentHelp("A new due date: \(DueDateParser.accepted).", valueName: "date")) var due: DueDateArgument?
    @Flag(help: "Remove the due date.") var noDue = false
    @Option(name: .customLong("tag"), help: "Add a tag; repeat for more.") var addTags: [String] = []
    @Option(name: .customLong("untag"), help: "Remove a tag; repeat for more.") var removeTags: [String] = []
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if due != nil && noDue { throw ValidationError("--due and --no-due contradict each other: give one") }
    }

    private var fieldEdit: TodoEdit? {
        let edit = TodoEdit(
            title: title, notes: notes, priority: priority, due: due?.date, clearDue: noDue,
            addTags: addTags, removeTags: removeTags)
        return edit == TodoEdit() ? nil : edit
    }

    func run() async throws {
        let change = try await Session.run(connection) { client -> TodoChange? in
            if let fieldEdit {
                return try client.change(.requestUpdateTodoDetail(TodoDetailUpdate(ref: ref, edit: fieldEdit)))
            }
            return try await editInEditor(client)
        }
        guard let change else { return }
        if output.json { try Terminal.printJSON(change.todo) } else { Terminal.print(change.line) }
    }

    /// The editor round: the form, the edit it gives, and the update at the revision
    /// the form was made from.
    private func editInEditor(_ client: TodoConnection) async throws -> TodoChange? {
        let detail = try client.detail(ref)
        let form = try FormFile(text: detail.editForm, number: detail.todo.number)
        try form.edit()
        guard let edit = try detail.edit(fromForm: form.read()) else {
            Terminal.print("cancelled: the title was empty, nothing changed")
            form.remove()
            return nil
        }
        guard edit != TodoEdit() else {
            Terminal.print("\(detail.summary.numberText) \(detail.title): nothing to change")
            form.remove()
            return nil
        }
        let update = TodoDetailUpdate(ref: .id(detail.todo.id), revision: detail.revision, edit: edit)
        let change: TodoChange
        do {
            change = try client.change(.requestUpdateTodoDetail(update))
        } catch {
            throw conflictExplained(error, before: detail.todo, form: form)
        }
        form.remove()
        return change
    }

    /// A conflict, told with what changed meanwhile and where the person's form is kept.
    private func conflictExplained(_ error: TodoClientError, before: Todo, form: FormFile) -> TodoClientError {
        guard case .refused(let refusal) = error, refusal.code == .conflict else { return error }
        let meanwhile = refusal.todo.map { "\n" + ConflictReport(before: before, after: $0.todo).text } ?? ""
        return .refused(TodoError(
            .conflict,
            "\(refusal.message); nothing was applied.\(meanwhile)\nYour form is kept in \(form.path): run `todoctl edit \(before.number)` again and copy your changes over."))
    }
}

/// What changed in a todo between two revisions, line by line.
struct ConflictReport {
    let before: Todo
    let after: Todo

    var text: String {
        var lines: [String] = []
        func compare(_ name: String, _ old: String, _ new: String) {
            if old != new { lines.append("  \(name): \"\(old)\" → \"\(new)\"") }
        }
        compare("title", before.title, after.title)
        compare("notes", before.notes, after.notes)
        compare("priority", before.priority.rawValue, after.priority.rawValue)
        compare("due", before.due?.description ?? "", after.due?.description ?? "")
        compare("tags", before.tags.joined(separator: " "), after.tags.joined(separator: " "))
        compare("state", state(of: before), state(of: after))
        return "Meanwhile:\n" + (lines.isEmpty ? "  (no field you can edit)" : lines.joined(separator: "\n"))
    }

    private func state(of todo: Todo) -> String {
        todo.isDeleted ? "deleted" : (todo.isCompleted ? "done" : "open")
    }
}

/// The form in a private temporary file, opened in the person's editor.
struct FormFile {
    let path: String

    init(text: String, number: Int) throws {
        path = NSTemporaryDirectory() + "todoctl-edit-\(number)-\(UUID().uuidString.prefix(8)).txt"
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ValidationError("cannot write the edit form to \(path)")
        }
    }

    /// Runs `$VISUAL`, else `$EDITOR`, else `vi` on the form, through the shell so that
    /// an editor with arguments (`code --wait`) works.
    func edit() throws {
        let environment = ProcessInfo.processInfo.environment
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(editor) \"$1\"", "sh", path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TodoClientError.refused(TodoError(.validation, "the editor (\(editor)) failed with status \(process.terminationStatus); nothing changed. Your form is in \(path)"))
        }
    }

    func read() throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
