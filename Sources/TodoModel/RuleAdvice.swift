/// The steps the Model's refusals advise, in words any View follows: no program's command or
/// flag, which the Model does not know. A View that has a command or flag for a step names it
/// instead (todoctl: `TodoError+Commands.swift`, from the error's field and these words), as
/// it does for the ViewModel's `TodoError.Advice`; watch shows them as they are.
public enum RuleAdvice {
    /// After "#P is itself a subtask of #G, and subtasks are one level deep: ".
    public static func parentInstead(_ grandparent: Int) -> String { "make it a subtask of #\(grandparent) instead" }
    /// After "#N has subtasks of its own, and subtasks are one level deep: ".
    public static let moveSubtasksFirst = "move its subtasks out first (give them no parent)"
    /// After "#N has K open subtasks (#…): ".
    public static let completeWithSubtasks = "complete them first, or complete it with its subtasks to complete them too"
    /// After "there is no todo #N: ".
    public static let nameAnExistingTodo = "name an existing todo it waits for (a list of every todo shows them)"
    /// After "#N is deleted: ", for a todo to wait for.
    public static let restoreOrNameAnother = "restore it first, or name another todo"
    /// After "#N repeats from its due date: ", for an edit that takes the due date away.
    public static let stopTheRepeat = "stop the repeat in the same edit, or give another due date"
    /// After "#N has no due date to repeat from: ".
    public static let giveADueDate = "give it a due date in the same edit, or count the repeat from completion"
    /// After "#N has K annotations, the most it may hold; ".
    public static let removeAnAnnotation = "remove one, or put the text in the notes"
}
