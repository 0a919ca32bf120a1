import TodoClient
import TodoModel
import TodoViewModel

extension TodoError {
    /// The message as todoctl says it: where the daemon's words advise a step in general
    /// (`TodoError.Advice`), the todoctl command or flag that takes it, from the error's
    /// code and fields; any other message as it is. The ViewModel speaks to every View
    /// (watch, a script on the socket), so only todoctl names its own commands.
    var inTodoctlWords: String {
        switch code {
        case .notFound where message.hasSuffix(": " + Advice.listEveryTodo):
            return String(message.dropLast(Advice.listEveryTodo.count)) + "list them with `todoctl list --all` (deleted ones with --deleted)"
        case .notFound where message.hasSuffix(": " + Advice.listConflicts):
            return String(message.dropLast(Advice.listConflicts.count)) + "list them with `todoctl conflicts`"
        case .notFound where message.hasPrefix("nothing to undo: ") || message.hasPrefix("nothing to redo: "):
            return message + " (see `todoctl log`)"
        case .deleted where message.hasSuffix(": " + Advice.restoreFirst):
            guard let todo else { return message }
            return message + " with `todoctl restore \(todo.number)`"
        case .conflict:
            guard let field, let later = seq, let todo else { return message }
            let advice = "; " + Advice.undoLaterFirst(later, field: field)
            guard message.hasSuffix(advice) else { return message }
            return String(message.dropLast(advice.count))
                + " (see `todoctl history \(todo.number)`); undo \(later) first, or add --force to put the old \(field) back anyway"
        case .validation:
            return ruleInTodoctlWords ?? message
        default:
            return message
        }
    }

    /// A Model rule's advice (`RuleAdvice`), ending the message, as todoctl's flag or command;
    /// the todo a step names is read back from the words before it. Nil for any other message.
    private var ruleInTodoctlWords: String? {
        func replacing(_ words: String, with todoctl: String) -> String? {
            message.hasSuffix(words) ? String(message.dropLast(words.count)) + todoctl : nil
        }
        switch field {
        case "parent":
            if let said = replacing(RuleAdvice.moveSubtasksFirst, with: "move its subtasks first (edit N --no-parent)") { return said }
            guard let grandparent = number(after: "make it a subtask of #") else { return nil }
            return replacing(RuleAdvice.parentInstead(grandparent), with: "use --parent \(grandparent)")
        case "subtasks":
            return replacing(RuleAdvice.completeWithSubtasks, with: "complete them first, or complete it --with-children to complete them too")
        case "depends":
            if let said = replacing(RuleAdvice.nameAnExistingTodo, with: "name an existing todo it waits for (todoctl list --all shows them)") { return said }
            guard let deleted = number(after: "#") else { return nil }
            return replacing(RuleAdvice.restoreOrNameAnother, with: "restore it first (todoctl restore \(deleted)), or name another todo")
        case "due":
            return replacing(RuleAdvice.stopTheRepeat, with: "stop the repeat in the same edit (recur: or --no-every), or give another due date")
                ?? replacing(RuleAdvice.giveADueDate, with: "give it a due date in the same edit (due:fri or --due fri), or count the repeat from completion (--every-after 1w)")
        case "annotations":
            guard let todo = number(after: "#") else { return nil }
            return replacing(RuleAdvice.removeAnAnnotation, with: "remove one with `todoctl denotate \(todo) TEXT` or put the text in the notes")
        default:
            return nil
        }
    }

    /// The number written right after the last `marker` in the message (`#12` after `#`).
    private func number(after marker: String) -> Int? {
        guard let found = message.range(of: marker, options: .backwards) else { return nil }
        return Int(message[found.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }
}

extension TodoClientError {
    /// As `description`, with a refusal in todoctl's words.
    var inTodoctlWords: String {
        guard case .refused(let error) = self else { return description }
        return error.inTodoctlWords
    }
}
