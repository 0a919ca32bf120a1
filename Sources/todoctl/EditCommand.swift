import ArgumentParser
import Foundation
import TodoClient
import TodoClock
import TodoEvents
import TodoModel
import TodoTerminal
import TodoViewModel

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change todos' fields.",
        discussion: """
            With field options, changes just those fields. Without any, opens $VISUAL or \
            $EDITOR (else vi) on a small form and applies what you changed, if nobody changed \
            the todo meanwhile; if somebody did, nothing is applied and your form is kept. \
            The form's due and wait lines show a time of day when they have one (2026-12-24T15:00) \
            and take the words --due takes, times too (fri 9am; a day alone is the whole day); every: takes 1w, or \
            after 3d to count from completion. A form that does not validate \
            is shown again with the problem at its top, after you say so; without a terminal \
            on standard input, todoctl fails instead and says where the form is kept.

            Taskwarrior's words change fields too, after the todos: `todoctl edit 3 +shop -home \
            due:fri pri:H project:home recur:1w` (-tag removes a tag; an empty due:, wait: or \
            recur: removes that field, an empty pri: gives the priority normal, as a new todo has; an \
            empty project: or -project:NAME takes a todo out of its project; depends:7 adds a todo \
            it waits for, depends:-7 takes one away, an empty depends: clears them; an empty \
            scheduled: unschedules it; until:DATE sets the last day it is kept open and an empty \
            until: or --no-until keeps it open for good), and other words are a new title (words after -- are \
            title words as typed). A new title is for one todo: `todoctl edit 16 2026 budget` \
            retitles #16 "2026 budget".

            With field options, several todos can be changed at once: name them \
            (`todoctl edit 3 4 5 -t errands -d fri`, or Taskwarrior's `edit 3-5` and `edit 3,5`) or find them with --filter and `list`'s \
            filter options over open todos (`todoctl edit --filter '-t home --overdue' -p high`); \
            more than \(Selection.askAbove) found by a filter need a yes, as for `done`.
            """)

    @Argument(help: ArgumentHelp("The todos (numbers, ids or id prefixes), then what to change: a new title's words and \(ModifierWords.help).", valueName: "todo-or-word"))
    var words: [String] = []
    @OptionGroup var selection: Selection
    @Option(help: "A new title.") var title: String?
    @Option(name: .shortAndLong, help: "New notes (replacing the old).") var notes: String?
    @Option(name: .shortAndLong, help: "high, normal or low: H, M or L, medium, any case.", completion: Priority.completion, transform: Priority.checked)
    var priority: Priority?
    @Option(name: .shortAndLong, parsing: .unconditional, help: ArgumentHelp("A new due date, and a time of day if it has one: \(DueDateParser.accepted); or \(DueDateParser.acceptedTimes).", valueName: "date"), transform: DueDateArgument.checked) var due: DueDateArgument?
    @Flag(help: "Remove the due date.") var noDue = false
    @Option(name: [.customShort("t"), .customLong("tag")], help: "Add a tag; repeat for more.") var addTags: [String] = []
    @Option(name: .customLong("untag"), help: "Remove a tag; repeat for more.") var removeTags: [String] = []
    @Option(help: ArgumentHelp("A new project, as project:NAME gives it (home.garden).", valueName: "name")) var project: String?
    @Flag(help: "Take it out of its project, as an empty project: does.") var noProject = false
    @OptionGroup(title: "Planning") var planning: PlanningEditOptions
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if due != nil && noDue { throw ValidationError("--due and --no-due contradict each other: give one") }
        if project != nil && noProject { throw ValidationError("--project and --no-project contradict each other: give one") }
        try selection.validate(refs: refs, direct: nil)
        let edit = try fieldEdit()
        if edit == nil && (refs.count != 1 || selection.expression != nil) {
            throw ValidationError(Self.editorForOne(words: Array(words.prefix(named.count)), filtered: selection.expression != nil))
        }
        // Several todos given one title is a slip, not a wish (`edit 3-5 2026 budget`, meant
        // for #3, retitled all three alike; outside probe): refused, as the help says.
        if let title = edit?.title, refs.count > 1 || selection.expression != nil {
            // The first todo named (`3` of `3-5`); with a filter, none is named: N.
            let first = selection.expression == nil ? words.first.map { String($0.prefix { $0 != "-" && $0 != "," }) } ?? "N" : "N"
            throw ValidationError(
                "a new title is for one todo, and \(selection.expression != nil ? "a filter" : "\(refs.count) todos are named"): name one to retitle it (todoctl edit \(first.isEmpty ? "N" : first) \(title)), or leave the title out to change the others' fields")
        }
    }

    /// Why the editor does not open for `words` (the words that named todos), and what to
    /// type: `edit 5 2027` said only "the editor edits one todo", where 2027, meant as a
    /// title, was read as a second todo (outside probe).
    static func editorForOne(words: [String], filtered: Bool) -> String {
        let several = "to change several, say what to change (-p, -d, -t, --untag, -n, --title)"
        guard !filtered, let first = words.first, words.count > 1, TodoRef.leadingWords(in: [first]).refs.count == 1 else {
            return "the editor edits one todo: \(several)"
        }
        let rest = words.dropFirst().joined(separator: " ")
        // #5 for a number; an id as typed.
        let todo = first.allSatisfy(\.isNumber) ? "#" + first : first
        return """
            the editor edits one todo, and \(rest) was read as \(words.count == 2 ? "a second todo's number" : "more todos' numbers") after \(todo): \
            to retitle \(todo) "\(rest)", todoctl edit \(first) --title \(UsageAdvice.shellQuoted(rest)); \
            to open the editor on \(todo), todoctl edit \(first); \(several)
            """
    }

    /// The todos named: the leading words that read as references, except that a new title
    /// is for one todo: when the words after them give one, only the first word names a todo
    /// and the others are the title's (`edit 16 2026 budget` retitles #16 "2026 budget", as
    /// `task 16 modify 2026 budget` does, where 2026 was taken for a second todo).
    private var refs: [TodoRef] { named.refs }

    /// `refs`, the number of words that name them, and whether a range or a list did (`edit 2-4 pri:H`).
    private var named: (refs: [TodoRef], count: Int, ranged: Bool) {
        let leading = TodoRef.leadingWords(in: words)
        guard leading.count > 1,
            let rest = try? ModifierWords.read(Array(words.dropFirst(leading.count)), use: .edit), !rest.title.isEmpty
        else { return leading }
        return TodoRef.leadingWords(in: Array(words.prefix(1)))
    }

    /// The edit the options and the words after the todos give; nil when they give none.
    private func fieldEdit() throws -> TodoEdit? {
        let modifiers = try ModifierWords.read(Array(words.dropFirst(named.count)), use: .edit)
        let newTitle = modifiers.title.isEmpty ? nil : modifiers.title.joined(separator: " ")
        if let newTitle, let title, newTitle != title {
            throw ValidationError("title words (\(newTitle)) and --title \(title) both give the title, and a todo has one: give one of them")
        }
        // A field cleared is nil given: an empty due: and --no-due say the same.
        func given<Value>(_ value: Value?, cleared: Bool) -> Value?? { value.map { $0 } ?? (cleared ? .some(nil) : nil) }
        let day: (LocalDate?) -> String = { $0?.description ?? "" }
        let moment: (DayTime?) -> String = { $0?.description ?? "" }
        try ModifierWords.refuseClash("pri:", modifiers.priority.map { $0 }, "-p", priority.map { $0 }, field: "priority") { $0?.rawValue ?? "" }
        try ModifierWords.refuseClash(
            "due:", given(modifiers.dueMoment, cleared: modifiers.clearDue), noDue ? "--no-due" : "--due", given(due?.moment, cleared: noDue),
            field: "due date", describe: moment)
        try ModifierWords.refuseClash(
            "wait:", given(modifiers.waitMoment, cleared: modifiers.clearWait), planning.noWait ? "--no-wait" : "--wait",
            given(planning.set.wait?.moment, cleared: planning.noWait), field: "wait date", describe: moment)
        try ModifierWords.refuseClash(
            "until:", given(modifiers.until, cleared: modifiers.clearUntil), planning.noUntil ? "--no-until" : "--until",
            given(planning.set.until?.date, cleared: planning.noUntil), field: "until date", describe: day)
        try ModifierWords.refuseClash(
            "recur:", given(modifiers.recurrence, cleared: modifiers.clearRecurrence), planning.noEvery ? "--no-every" : "--every",
            given(planning.set.recurrence, cleared: planning.noEvery), field: "repeat") { $0?.description ?? "" }
        let newProject = try ModifierWords.project(option: project, words: modifiers, tags: addTags)
        try ModifierWords.refuseClash(
            "project:", given(modifiers.project, cleared: modifiers.clearProject), noProject ? "--no-project" : "--project",
            given(newProject, cleared: noProject), field: "project") { $0 ?? "" }
        // A tag added and removed in one edit is a slip (`edit 1 +qq -qq` said nothing to change; add refuses -tag).
        if let both = (addTags + modifiers.tags).first(where: { (removeTags + modifiers.removedTags).contains($0) }) {
            throw ValidationError("+\(both) and -\(both) both name the tag \(both), to add and to remove: give one")
        }
        var edit = planning.applied(to: TodoEdit(
            title: title ?? newTitle, notes: notes, priority: priority ?? modifiers.priority, due: due?.date ?? modifiers.due,
            clearDue: noDue || modifiers.clearDue, addTags: (addTags + modifiers.tags).filter { !$0.hasPrefix(TaskwarriorWords.projectTagPrefix) },
            removeTags: removeTags + modifiers.removedTags, dueTime: due.map { $0.time } ?? modifiers.dueTime))
        (edit.project, edit.clearProject) = (newProject, noProject || modifiers.clearProject)
        if modifiers.wait != nil || modifiers.clearWait {
            (edit.wait, edit.waitTime, edit.clearWait) = (modifiers.wait, modifiers.waitTime, modifiers.clearWait)
        }
        if modifiers.recurrence != nil || modifiers.clearRecurrence {
            (edit.recurrence, edit.clearRecurrence) = (modifiers.recurrence, modifiers.clearRecurrence)
        }
        edit.addDepends += modifiers.depends
        edit.removeDepends = modifiers.removedDepends
        edit.clearDepends = edit.clearDepends || modifiers.clearDepends
        (edit.scheduled, edit.scheduledTime, edit.clearScheduled) = (modifiers.scheduled, modifiers.scheduledTime, modifiers.clearScheduled)
        if modifiers.until != nil || modifiers.clearUntil { (edit.until, edit.clearUntil) = (modifiers.until, modifiers.clearUntil) }
        try ModifierWords.refusePassed(until: edit.until)
        return edit == TodoEdit() ? nil : edit
    }

    func run() async throws {
        guard let fieldEdit = try fieldEdit() else { return try await runEditor() }
        let report = try Session.run(connection) { client in
            let (refs, found) = try selection.resolve(client, refs: refs, ranged: named.ranged, direct: nil, status: .open, action: "edit")
            var report = BulkReport(json: output.json, summarised: found)
            for named in try client.pinned(refs) {
                try report.record(named.flatMap { ref in
                    Result { () throws(TodoClientError) in try client.change(.requestUpdateTodoDetail(TodoDetailUpdate(ref: ref, edit: fieldEdit))) }
                })
            }
            return report
        }
        // One todo named: its JSON object, as before several could be edited at once.
        if output.json, refs.count == 1 {
            if let todo = report.changed.first { try Terminal.printJSON(todo) }
            if report.counts.failed > 0 { throw ExitStatus.refused }
            return
        }
        try report.finish()
    }

    private func runEditor() async throws {
        let change = try await Session.run(connection, editing: { try await editInEditor($0, ref: refs[0]) })
        guard let change else { return }
        try Terminal.answer(change, json: output.json)
    }

    /// The editor rounds: the form, the edit it gives, and the update at the revision the
    /// form was made from. A form that does not validate goes back to the editor with the
    /// problem at its top (on a terminal, when the person says so), as `git commit` and
    /// `crontab -e` do; otherwise it is kept, and the error says where.
    private func editInEditor(_ client: TodoConnection, ref: TodoRef) async throws -> TodoChange? {
        let detail = try client.detail(ref)
        let form = try FormFile(text: detail.editForm, number: detail.todo.number)
        while true {
            try await form.edit()
            let text = try form.read()
            let edit: TodoEdit
            do {
                guard let parsed = try detail.edit(fromForm: text, today: WallClock.today(), now: LocalMinute(WallClock.now()).timeOfDay) else {
                    Terminal.print("cancelled: the title was empty, nothing changed")
                    form.remove()
                    return nil
                }
                edit = parsed
            } catch {
                try form.retry(after: error, number: detail.todo.number)
                continue
            }
            guard edit != TodoEdit() else {
                Terminal.print("\(detail.summary.numberText) \(TerminalText.escaped(detail.title)): nothing to change")
                form.remove()
                return nil
            }
            let update = TodoDetailUpdate(ref: .id(detail.todo.id), revision: detail.revision, edit: edit)
            do {
                let change = try client.change(.requestUpdateTodoDetail(update))
                form.remove()
                return change
            } catch .refused(let refusal) where refusal.code == .validation {
                // The daemon's rules are the last word (a title too long, a control character).
                try form.retry(after: refusal, number: detail.todo.number)
            } catch {
                throw conflictExplained(error, before: detail.todo, form: form)
            }
        }
    }

    /// A conflict, told with what changed meanwhile and where the person's form is kept; any
    /// other failure (the daemon or its shared store away) also says where the form is.
    private func conflictExplained(_ error: TodoClientError, before: Todo, form: FormFile) -> TodoClientError {
        guard case .refused(let refusal) = error, refusal.code == .conflict else {
            Terminal.error("your edit of #\(before.number) was not applied; the form is kept in \(form.path): run `todoctl edit \(before.number)` again later and copy your changes over")
            return error
        }
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
        compare("title", TerminalText.escaped(before.title), TerminalText.escaped(after.title))
        compare("notes", TerminalText.escaped(before.notes), TerminalText.escaped(after.notes))
        compare("priority", before.priority.rawValue, after.priority.rawValue)
        compare("due", before.due?.description ?? "", after.due?.description ?? "")
        compare("tags", TerminalText.escaped(before.tags.joined(separator: " ")), TerminalText.escaped(after.tags.joined(separator: " ")))
        compare("project", TerminalText.escaped(before.project ?? ""), TerminalText.escaped(after.project ?? ""))
        compare("state", state(of: before), state(of: after))
        return "Meanwhile:\n" + (lines.isEmpty ? "  (no field you can edit)" : lines.joined(separator: "\n"))
    }

    private func state(of todo: Todo) -> String {
        todo.isDeleted ? "deleted" : (todo.isCompleted ? "done" : "open")
    }
}
