import TodoClient
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
        default:
            return message
        }
    }
}

extension TodoClientError {
    /// As `description`, with a refusal in todoctl's words.
    var inTodoctlWords: String {
        guard case .refused(let error) = self else { return description }
        return error.inTodoctlWords
    }
}
