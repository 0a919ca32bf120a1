import Foundation
import TodoModel
import TodoViewModel

extension WatchScreen {
    /// Applies a key; returns the request it asks for, if any.
    public mutating func handle(_ key: Key) -> Command? {
        // In a prompt Ctrl-C leaves the prompt, as in a shell's line; elsewhere it quits.
        if key == .controlC, !isPrompting { return .quit }
        defer { scrollToSelection() }
        switch mode {
        case .browsing:
            let command = browse(key)
            // The history pane follows the selection: a newly selected todo's is asked for.
            if command == nil, pane == .history, let selected, history?.id != selected.id { return .history(selected.id) }
            return command
        case .help:
            mode = .browsing
            return nil
        case .prompting(let prompt, let editor): return type(key, into: prompt, editor: editor)
        }
    }

    private mutating func browse(_ key: Key) -> Command? {
        message = nil
        notice = nil
        switch key {
        case .up, .character("k"): select(selectedIndex - 1)
        case .down, .character("j"): select(selectedIndex + 1)
        case .pageUp: select(selectedIndex - visibleRows)
        case .pageDown: select(selectedIndex + visibleRows)
        case .home, .character("g"): select(0)
        case .end, .character("G"): select(entries.count - 1)
        case .character("z"): foldSelected()
        case .character("Z"): foldAll()
        case .character("q"), .controlD: return .quit
        case .character("?"): mode = .help
        case .enter: pane = pane == .detail ? .none : .detail
        case .character("h"):
            pane = pane == .history ? .none : .history
            if pane == .history, let selected { return .history(selected.id) }
        case .character("U"): return .undo
        case .character("R"): return .redo
        case .character(" "), .character("x"):
            guard let selected else { return nil }
            // A deleted todo is neither open nor done until it is restored.
            if selected.isDeleted { return say("\(selected.numberText) is deleted: press u to restore it") }
            return .toggle(selected.id, done: !selected.isCompleted)
        case .character("d"):
            guard let selected else { return nil }
            if selected.isDeleted { return say("\(selected.numberText) is deleted already: press u to restore it") }
            return .delete(selected.id)
        case .character("u"):
            guard list.filter.status == .deleted else {
                return say("u restores a deleted todo: press f until the deleted list shows")
            }
            return selected.map { .restore($0.id) }
        case .character("a"): mode = .prompting(.add, LineEditor())
        case .character("e"): open { .title($0.id, revision: $0.todo.revision) } text: { $0.title }
        case .character("D"): open { .due($0.id, revision: $0.todo.revision) } text: { $0.todo.due?.description ?? "" }
        case .character("T"): open { .tags($0.id, revision: $0.todo.revision) } text: { $0.todo.tags.joined(separator: " ") }
        case .character("r"): open { .every($0.id, revision: $0.todo.revision) } text: { [today] in Self.planningText("every", of: $0, today: today) }
        case .character("P"): open { .parent($0.id, revision: $0.todo.revision) } text: { [today] in Self.planningText("parent", of: $0, today: today) }
        case .character("w"): open { .wait($0.id, revision: $0.todo.revision) } text: { [today] in Self.planningText("wait", of: $0, today: today) }
        case .character("E"): return selected.map { .editNotes($0.id) }
        case .character("p"):
            return selected.map { .edit($0.id, revision: nil, TodoEdit(priority: $0.todo.priority.next), typed: nil) }
        case .character("/"):
            // The search as typed: the tags as `#tag`, so that they can be edited away too.
            let typed = (list.filter.tags.map { "#" + $0 } + [list.filter.search].compactMap { $0 }).joined(separator: " ")
            mode = .prompting(.search(before: list.filter), LineEditor(typed, selected: true))
        case .character("t"): mode = .prompting(.tag, LineEditor(list.filter.tag ?? "", selected: true))
        case .character("f"):
            var filter = list.filter
            filter.status = filter.status.next
            return show(filter)
        case .escape:
            // Back to the filter watch started with, in the list shown now (f's status stays).
            var start = startingFilter
            start.status = list.filter.status
            guard TodoValidation.normalised(list.filter) != start else { return nil }
            return show(start)
        default: break
        }
        return nil
    }

    /// Folds or unfolds the selected parent's subtasks; on a subtask, folds its parent and
    /// selects it.
    private mutating func foldSelected() {
        guard let entry = entries.indices.contains(selectedIndex) ? entries[selectedIndex] : nil else { return }
        guard let parent = entry.depth > 0 ? entry.row.todo.parent : entry.progress.map({ _ in entry.row.number }) else {
            _ = say("\(entry.row.numberText) has no subtasks to fold")
            return
        }
        if folded.remove(parent) == nil { folded.insert(parent) }
        if entry.depth > 0, let index = entries.firstIndex(where: { $0.row.number == parent && $0.depth == 0 }) { select(index) }
        reselect()
    }

    /// Folds every parent, or unfolds them all when some are folded.
    private mutating func foldAll() {
        folded = folded.isEmpty ? Set(entries.compactMap { $0.progress == nil ? nil : $0.row.number }) : []
        if let selected, selected.todo.parent.map(folded.contains) == true,
            let index = entries.firstIndex(where: { $0.row.number == selected.todo.parent && $0.depth == 0 }) {
            select(index)
        }
        reselect()
    }

    /// Opens a prompt for a field of the selected todo, starting from its value now,
    /// selected: typing replaces it, a movement key keeps it to edit.
    private mutating func open(_ prompt: (TodoViewModel) -> WatchPrompt, text: (TodoViewModel) -> String) {
        guard let selected else { return }
        promptTodo = (selected.id, selected.numberText)
        mode = .prompting(prompt(selected), LineEditor(text(selected), selected: true))
    }

    private mutating func say(_ words: String) -> Command? {
        message = words
        return nil
    }

    /// Shows the rows already here that match `filter` at once, and asks for the rest.
    private mutating func show(_ filter: TodoFilter) -> Command? {
        let filter = TodoValidation.normalised(filter)
        list.show(filter)
        reselect()
        return .reload(filter)
    }

    private mutating func type(_ key: Key, into prompt: WatchPrompt, editor: LineEditor) -> Command? {
        var edited = editor
        switch key {
        case .escape, .controlC:
            mode = .browsing
            message = nil
            // Leaving a prompt changes nothing: a search typed since / is taken back.
            if case .search(let before) = prompt, TodoValidation.normalised(list.filter) != TodoValidation.normalised(before) { return show(before) }
            return nil
        case .enter:
            message = nil
            return submit(prompt, text: editor.text)
        case .tab:
            guard case .tag = prompt, let first = tagCompletions(of: editor.text).first else { return nil }
            edited = LineEditor(first)
        default: edited = editor.applying(key)
        }
        mode = .prompting(prompt, edited)
        // The search follows the text, not the cursor.
        if case .search(let before) = prompt, edited.text != editor.text { return show(Self.searchFilter(edited.text, before: before)) }
        return nil
    }

    /// What Enter in a prompt asks for; a due date or tags that do not read stay in the
    /// prompt with what is wrong on the line below.
    private mutating func submit(_ prompt: WatchPrompt, text: String) -> Command? {
        let typed = TypedText(prompt, text)
        mode = .browsing
        switch prompt {
        case .add:
            // The line takes `todoctl add`'s modifiers (due:fri +shop pri:H); what does not
            // read stays in the prompt with what was meant below it.
            let words: TaskwarriorWords
            do throws(WatchAddLine.Refusal) {
                let split: [String]
                do throws(ShellWords.UnclosedQuote) {
                    split = try ShellWords.split(text)
                } catch {
                    throw WatchAddLine.Refusal(message: error.description)
                }
                let line = try WatchAddLine.read(split)
                do throws(TaskwarriorWordError) {
                    words = try TaskwarriorWords.parse(line.words, use: .add, today: today, now: now)
                } catch {
                    throw WatchAddLine.refusal(error, in: line)
                }
                if words.title.isEmpty, !text.allSatisfy(\.isWhitespace) { throw WatchAddLine.untitled(text) }
            } catch {
                mode = .prompting(prompt, LineEditor(text))
                return say(error.message)
            }
            // Added as todoctl add adds it, a time typed apart from its day a title word, and the
            // fix said on the status line, as add says it on stderr (outside probe 12).
            if let split = try? ShellWords.split(text), let hint = UnquotedTime.hint(split) { message = hint }
            // Under a filter the new todo has its tags, project, priority and day, or it would vanish at once.
            let filter = list.filter
            // A line of plain words, no quotes read, keeps its spacing; validation trims it.
            let title = words.title == text.split(whereSeparator: \.isWhitespace).map(String.init) ? text : words.title.joined(separator: " ")
            return .add(
                NewTodo(
                    title: title, priority: words.priority ?? filter.priority ?? .normal, due: words.due ?? filter.dueOn,
                    tags: filter.tags + words.tags, recurrence: words.recurrence, wait: words.wait,
                    project: words.project ?? filter.project.flatMap { $0.isEmpty ? nil : $0 },
                    // As add takes them: dropped here, `depends:28 scheduled:fri` added a todo without either (outside probe P7-10).
                    depends: words.depends, scheduled: words.scheduled, until: words.until,
                    // As add keeps them: `a Call dentist due:fri@9am` was due all Friday.
                    dueTime: words.due != nil ? words.dueTime : nil, waitTime: words.waitTime, scheduledTime: words.scheduledTime),
                typed: typed)
        case .title(let id, let revision):
            return .edit(id, revision: revision, TodoEdit(title: text), typed: typed)
        case .due(let id, let revision):
            let words = text.trimmingCharacters(in: .whitespaces)
            if words.isEmpty { return .edit(id, revision: revision, TodoEdit(clearDue: true), typed: typed) }
            // As --due reads it: `fri 9am` and `15:00` keep their time; a day alone is due all day.
            do throws(TodoError) {
                let due = try TodoDetailViewModel.moment(words, field: "due", today: today, now: now, otherwise: ", or nothing for no due date")
                return .edit(id, revision: revision, TodoEdit(due: due.date, dueTime: due.time), typed: typed)
            } catch {
                mode = .prompting(prompt, LineEditor(text))
                return say(error.message)
            }
        case .tags(let id, let revision):
            let words = text.split(whereSeparator: \.isWhitespace).map { $0.hasPrefix("#") ? String($0.dropFirst()) : String($0) }
            do throws(TodoError) {
                return .edit(id, revision: revision, TodoEdit(tags: try TodoValidation.tags(words)), typed: typed)
            } catch {
                mode = .prompting(prompt, LineEditor(text))
                return say(error.message)
            }
        case .every(let id, let revision), .parent(let id, let revision), .wait(let id, let revision):
            return planningEdit(prompt, text: text, id: id, revision: revision, typed: typed)
        case .search:
            return nil
        case .tag:
            var filter = list.filter
            let tag = text.trimmingCharacters(in: .whitespaces)
            filter.tag = tag.isEmpty ? nil : tag
            return show(filter)
        }
    }

    private static func planningText(_ field: String, of row: TodoViewModel, today: LocalDate) -> String {
        TodoDetailViewModel(row.todo, today: today).planningFields[field] ?? ""
    }

    /// The edit one planning prompt asks for, read as the edit form reads its line; what
    /// does not read stays in the prompt with what to write below it.
    private mutating func planningEdit(_ prompt: WatchPrompt, text: String, id: UUID, revision: Int, typed: TypedText) -> Command? {
        guard let row = entries.first(where: { $0.row.id == id })?.row else {
            return say("that todo left the list before Enter; nothing was changed")
        }
        let detail = TodoDetailViewModel(row.todo, today: today)
        var fields = detail.planningFields
        fields[prompt.label] = text.trimmingCharacters(in: .whitespaces)
        var edit = TodoEdit()
        do throws(TodoError) {
            try detail.planningDifference(fields: fields, today: today, now: now, into: &edit)
        } catch {
            mode = .prompting(prompt, LineEditor(text))
            return say(error.message)
        }
        // Nothing changed: nothing to send.
        return edit == TodoEdit() ? nil : .edit(id, revision: revision, edit, typed: typed)
    }

    /// The filter a search text asks for: each `#word` is a tag the todos must have, the
    /// other words are searched for in titles and notes; the rest of the filter before
    /// (`--not-tag`, the due days) stays.
    static func searchFilter(_ text: String, before: TodoFilter) -> TodoFilter {
        var filter = before
        filter.tags = []
        var words: [Substring] = []
        for word in text.split(separator: " ") {
            if word.hasPrefix("#"), word.count > 1 { filter.tags.append(String(word.dropFirst())) } else { words.append(word) }
        }
        filter.search = words.isEmpty ? nil : words.joined(separator: " ")
        return filter
    }
}
