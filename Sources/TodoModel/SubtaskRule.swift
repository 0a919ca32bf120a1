/// Subtasks are one level deep: a parent is a todo of its own, and a todo with subtasks
/// cannot become one. With one level no cycle can form, and a list stays two deep.
public enum SubtaskRule {
    /// Throws unless `child` may be a subtask of `parent` (nil: no todo has that number).
    public static func check(child: Todo?, parentNumber: Int, parent: Todo?, childHasSubtasks: Bool) throws(TodoModelError) {
        guard let parent else {
            throw .invalid(field: "parent", reason: "there is no todo #\(parentNumber); name an existing todo as the parent")
        }
        if let child, child.number == parent.number {
            throw .invalid(field: "parent", reason: "#\(parent.number) cannot be its own parent")
        }
        if let grandparent = parent.parent {
            throw .invalid(
                field: "parent",
                reason: "#\(parent.number) is itself a subtask of #\(grandparent), and subtasks are one level deep: \(RuleAdvice.parentInstead(grandparent))")
        }
        if let child, childHasSubtasks {
            throw .invalid(
                field: "parent",
                reason: "#\(child.number) has subtasks of its own, and subtasks are one level deep: \(RuleAdvice.moveSubtasksFirst)")
        }
        if parent.isDeleted {
            throw .invalid(field: "parent", reason: "#\(parent.number) is deleted; restore it first, or choose another parent")
        }
        if parent.isCompleted, child?.isCompleted != true {
            throw .invalid(field: "parent", reason: "#\(parent.number) is done; reopen it first, or choose another parent")
        }
    }

    /// Throws unless `parent` may be completed while `openSubtasks` are open; with
    /// `withSubtasks` they are completed too.
    public static func checkCompletion(of parent: Todo, openSubtasks: [Todo], withSubtasks: Bool) throws(TodoModelError) {
        guard !openSubtasks.isEmpty, !withSubtasks else { return }
        let numbers = openSubtasks.map { "#\($0.number)" }.joined(separator: ", ")
        throw .invalid(
            field: "subtasks",
            reason: "#\(parent.number) has \(openSubtasks.count) open subtask\(openSubtasks.count == 1 ? "" : "s") (\(numbers)): \(RuleAdvice.completeWithSubtasks)")
    }
}
