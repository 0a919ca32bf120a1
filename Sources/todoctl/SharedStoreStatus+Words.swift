import TodoClient
import TodoEvents

/// The shared store's state in words, as `status`, `events` and `watch --plain` print it.
extension SharedStoreStatus {
    /// `unreachable since 2026-11-23 14:02 (the connection to PostgreSQL was closed)`.
    var state: String {
        let waiting = (pending.map { "; \($0 == 1 ? "1 change" : "\($0) changes") saved on this machine, not yet shared" } ?? "")
            + (conflicts.map { "; \($0 == 1 ? "1 conflict" : "\($0) conflicts") to take or leave (todoctl conflicts)" } ?? "")
        guard !reachable else { return "reachable since \(ShowCommand.format(since))" + waiting }
        return "unreachable since \(ShowCommand.format(since))" + (problem.map { " (\($0))" } ?? "") + waiting
    }

    /// The store's state when it is away, asked of `client` just connected; nil when it is reachable
    /// or the daemon has no store. Connected while it is away, no news comes until it changes
    /// (`events`, `watch --plain`: the plain watch said nothing until then; outside probe 11, F10).
    static func away(asking client: TodoClient) async -> SharedStoreStatus? {
        guard case .responseStatus(let status)? = try? await client.request(.requestStatus), let store = status.sharedStore, !store.reachable
        else { return nil }
        return store
    }

    /// What it means for the person, as one line.
    var sentence: String {
        reachable
            ? "the shared store \(store) is reachable again: changes are shared" + renumbering
            : "the shared store \(store) is \(state): changes are saved on this machine and shared once it is back, reads come from this machine's copy; todod reconnects by itself"
    }

    /// `; #3 is now #5 (…)` after sharing changes made offline renumbered todos; else empty.
    var renumbering: String {
        guard let renumbered else { return "" }
        return "; " + renumbered.map { "#\($0.was) is now #\($0.now)" }.joined(separator: ", ")
            + " (another machine had given \(renumbered.count == 1 ? "that number" : "those numbers") meanwhile)"
    }
}
