import TodoModel

/// The edit form's planning lines: `every:` (`1w`, or `after 3d` from completion),
/// `parent:` (a number) and `wait:` (a date in words); an emptied line removes the field.
extension TodoDetailViewModel {
    var planningFormLines: String {
        let fields = planningFields
        return ["every", "parent", "wait"].map { "\($0): \(fields[$0] ?? "")" }.joined(separator: "\n")
    }

    /// The planning lines' texts now, by name (`every`, `parent`, `wait`); `watch` edits one in place.
    public var planningFields: [String: String] {
        [
            "every": todo.recurrence.map { ($0.basis == .completion ? "after " : "") + $0.period } ?? "",
            "parent": todo.parent.map(String.init) ?? "", "wait": todo.wait?.description ?? "",
        ]
    }

    /// Adds to `edit` what the planning lines `fields` change; a line that does not read
    /// throws, saying what to write.
    public func planningDifference(fields: [String: String], today: LocalDate, into edit: inout TodoEdit) throws(TodoError) {
        let everyText = fields["every"] ?? ""
        if everyText.isEmpty {
            edit.clearRecurrence = todo.recurrence != nil
        } else {
            let afterCompletion = everyText.lowercased().hasPrefix("after ")
            let period = afterCompletion ? String(everyText.dropFirst(6)).trimmingCharacters(in: .whitespaces) : everyText
            guard let rule = Recurrence(period, basis: afterCompletion ? .completion : .due) else {
                throw .validation("every", "\"\(everyText)\" is not a period; write \(Recurrence.accepted), \"after\" one of those to count from completion, or nothing")
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
            guard let wait = DueDateParser.parse(waitText, today: today) else {
                throw .validation("wait", "\"\(waitText)\" is not a date; write \(DueDateParser.accepted), or nothing")
            }
            if wait != todo.wait { edit.wait = wait }
        }
    }
}
