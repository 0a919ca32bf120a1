import TodoEvents

/// The shared store's state in words, as `status`, `events` and `watch --plain` print it.
extension SharedStoreStatus {
    /// `unreachable since 2026-11-23 14:02 (the connection to PostgreSQL was closed)`.
    var state: String {
        guard !reachable else { return "reachable since \(ShowCommand.format(since))" }
        return "unreachable since \(ShowCommand.format(since))" + (problem.map { " (\($0))" } ?? "")
    }

    /// What it means for the person, as one line.
    var sentence: String {
        reachable
            ? "the shared store \(store) is reachable again: changes are taken"
            : "the shared store \(store) is \(state): changes are refused and nothing is written, reads come from this machine's copy; todod reconnects by itself"
    }
}
