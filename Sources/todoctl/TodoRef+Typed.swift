import TodoModel

extension TodoRef {
    /// The reference as a person types it on todoctl's command line: `3`, not `#3` (a shell
    /// takes `#` as the start of a comment), so that a suggested command can be pasted.
    var typed: String {
        if case .number(let number) = self { return String(number) }
        return description
    }
}
