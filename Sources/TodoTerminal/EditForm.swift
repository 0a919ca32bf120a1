import TodoModel
import TodoViewModel

/// The small text form `todoctl edit` opens in an editor: one `field: value` line each,
/// the planning lines (`every:` as `1w`, or `after 3d` from completion; `parent:` a
/// number; `wait:` a date in words; an emptied line removes the field), then the notes.
/// Written and read back here, on the View's side, so that it is tested without a
/// terminal; `watch` edits the planning lines one at a time with the same rules.
extension TodoDetailViewModel {
    /// The form an editor shows: one `field: value` line each, then the notes.
    public var editForm: String {
        """
        # Editing #\(todo.number) at revision \(todo.revision). Lines starting with # are ignored.
        # Save and quit to apply; empty the title to cancel.
        title: \(todo.title)
        priority: \(todo.priority.rawValue)
        due: \(todo.due.map { DayTime($0, todo.dueTime).description } ?? "")
        tags: \(todo.tags.joined(separator: " "))
        project: \(todo.project ?? "")
        \(planningFormLines)
        notes:
        \(todo.notes)
        """
    }

    /// The edit a filled-in form asks for, holding only what differs from this todo;
    /// nil when the title was emptied (the person cancelled).
    /// `today` and `now` read the words of `due:` (`fri`, `+3d`, `fri 9am`, `15:00`) as `--due` does.
    public func edit(fromForm form: String, today: LocalDate, now: TimeOfDay? = nil) throws(TodoError) -> TodoEdit? {
        var fields: [String: String] = [:]
        var notesLines: [Substring] = []
        var inNotes = false
        for line in form.split(separator: "\n", omittingEmptySubsequences: false) {
            if inNotes { notesLines.append(line); continue }
            if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw .validation("form", "the line \"\(line)\" is not `field: value`: write it as `title: Buy milk`, or delete it")
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard ["title", "priority", "due", "tags", "project", "every", "parent", "wait", "notes"].contains(name) else {
                throw .validation("form", "unknown field \"\(name)\"; the fields are title, priority, due, tags, project, every, parent, wait, notes")
            }
            if name == "notes" { inNotes = true; if !value.isEmpty { notesLines.append(Substring(value)) } }
            else { fields[name] = value }
        }
        guard let rawTitle = fields["title"], !rawTitle.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        while notesLines.last?.allSatisfy(\.isWhitespace) == true { notesLines.removeLast() }
        return try difference(fields: fields, notes: notesLines.joined(separator: "\n"), today: today, now: now)
    }

    /// The form again, with `problem` as `#` lines at its top (replacing those of an
    /// earlier round), for another round in the editor.
    public static func form(_ form: String, withProblem problem: String) -> String {
        let kept = form.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.hasPrefix(problemPrefix) }
        let problemLines = problem.split(separator: "\n").map { "\(problemPrefix) \($0)" }
        return (problemLines + [problemPrefix + " Fix it, then save and quit; empty the title to cancel."] + kept.map(String.init))
            .joined(separator: "\n")
    }

    private static let problemPrefix = "# ERROR:"

    private func difference(fields: [String: String], notes: String, today: LocalDate, now: TimeOfDay?) throws(TodoError) -> TodoEdit {
        var edit = TodoEdit()
        let title = try TodoValidation.title(fields["title"] ?? todo.title)
        if title != todo.title { edit.title = title }
        // The form cannot show trailing newlines, so they are no change.
        if notes != todo.notes.trimmingTrailingNewlines { edit.notes = try TodoValidation.notes(notes) }
        if let text = fields["priority"], !text.isEmpty {
            guard let priority = TaskwarriorWords.priority(text) else {
                throw .validation("priority", "\"\(text)\" is not low, normal or high (or H, M, L, medium, any case)")
            }
            if priority != todo.priority { edit.priority = priority }
        }
        let dueText = fields["due"] ?? ""
        if dueText.isEmpty {
            edit.clearDue = todo.due != nil
        } else {
            let due = try Self.moment(dueText, field: "due", today: today, now: now)
            // The day is set with its time: the same day without one is due all day again.
            if todo.due.map({ DayTime($0, todo.dueTime) }) != due { (edit.due, edit.dueTime) = (due.date, due.time) }
        }
        let tags = try TodoValidation.tags((fields["tags"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init))
        if tags != todo.tags { edit.tags = tags }
        // A form without the line (one kept from before it existed) leaves the project as it is.
        if let text = fields["project"] {
            if text.isEmpty {
                edit.clearProject = todo.project != nil
            } else if text != todo.project {
                edit.project = try TodoValidation.project(text)
            }
        }
        try planningDifference(fields: fields, today: today, now: now, into: &edit)
        return edit
    }

    // MARK: The planning lines

    var planningFormLines: String {
        let fields = planningFields
        return ["every", "parent", "wait"].map { "\($0): \(fields[$0] ?? "")" }.joined(separator: "\n")
    }

    /// The planning lines' texts now, by name (`every`, `parent`, `wait`); `watch` edits one in place.
    public var planningFields: [String: String] {
        [
            "every": todo.recurrence.map { ($0.basis == .completion ? "after " : "") + $0.period } ?? "",
            "parent": todo.parent.map(String.init) ?? "", "wait": todo.wait.map { DayTime($0, todo.waitTime).description } ?? "",
        ]
    }

    /// Adds to `edit` what the planning lines `fields` change; a line that does not read
    /// throws, saying what to write.
    public func planningDifference(fields: [String: String], today: LocalDate, now: TimeOfDay? = nil, into edit: inout TodoEdit) throws(TodoError) {
        let everyText = fields["every"] ?? ""
        if everyText.isEmpty {
            edit.clearRecurrence = todo.recurrence != nil
        } else {
            let afterCompletion = everyText.lowercased().hasPrefix("after ")
            let period = afterCompletion ? String(everyText.dropFirst(6)).trimmingCharacters(in: .whitespaces) : everyText
            guard let rule = Recurrence(typed: period, basis: afterCompletion ? .completion : .due) else {
                throw .validation("every", "\"\(everyText)\" is not a period; write \(Recurrence.typedForms), \"after\" one of those to count from completion, or nothing")
            }
            if rule.period != todo.recurrence?.period || rule.basis != todo.recurrence?.basis { edit.recurrence = rule }
        }
        let parentText = fields["parent"] ?? ""
        if parentText.isEmpty {
            edit.clearParent = todo.parent != nil
        } else {
            let digits = parentText.hasPrefix("#") ? String(parentText.dropFirst()) : parentText
            guard let parent = Int(digits), parent >= 1 else {
                throw .validation("parent", "\"\(parentText)\" is not a todo number; write one (12 or #12), or nothing")
            }
            if parent != todo.parent { edit.parent = parent }
        }
        let waitText = fields["wait"] ?? ""
        if waitText.isEmpty {
            edit.clearWait = todo.wait != nil
        } else {
            let wait = try Self.moment(waitText, field: "wait", today: today, now: now)
            if todo.wait.map({ DayTime($0, todo.waitTime) }) != wait { (edit.wait, edit.waitTime) = (wait.date, wait.time) }
        }
    }

    /// The day and time a form's line (or watch's prompt) names, as `--due` reads them
    /// (`fri`, `fri 9am`, `15:00`: the next one after `now`, midnight when not known); a
    /// line that does not read throws, saying what to write, `otherwise` after the forms.
    public static func moment(_ text: String, field: String, today: LocalDate, now: TimeOfDay?, otherwise: String = ", or nothing") throws(TodoError) -> DayTime {
        let now = now ?? TimeOfDay(minutes: 0)!
        guard let moment = DueDateParser.parseWithTime(text, today: today, now: now) else {
            throw .validation(field, DueDateParser.timeProblem(with: text, today: today, now: now)
                ?? DueDateParser.problem(with: text, otherwise: "; or \(DueDateParser.acceptedTimes)\(otherwise)"))
        }
        return moment
    }
}
