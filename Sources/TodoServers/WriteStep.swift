/// Which journal step a mutation's changes go on: `JournalEntry.step`, the seq of the
/// step's first change, which `undo` and `redo` take back whole.
public enum WriteStep: Sendable, Equatable {
    /// A step of its own, begun by its first change.
    case own
    /// The step change `seq` began, which a request of the same client names
    /// (`WireFrame.step`): a command of several requests is one step.
    case joining(UInt64)
    /// The step of the mutation before it in the same request (an import's todos).
    case withPrevious
}
