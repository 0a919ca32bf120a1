import TodoClient
import TodoEvents

/// The shared store's state in words, as `status`, `events` and `watch --plain` print it.
extension SharedStoreStatus {
    /// `unreachable since 2026-11-23 14:02 (the connection to PostgreSQL was closed)`.
    var state: String {
        let waiting = (pending.map { "; \($0 == 1 ? "1 change" : "\($0) changes") saved on this machine, not yet shared" } ?? "")
            + (conflicts.map { "; \($0 == 1 ? "1 conflict" : "\($0) conflicts") to take or leave (todoctl conflicts)" } ?? "")
        guard !reachable else { return "reachable since \(ShowCommand.format(since))" + waiting }
        let empty = unfilled == true ? "; this machine's copy has never been filled from it, none of its todos are here yet" : ""
        return "unreachable since \(ShowCommand.format(since))" + (problem.map { " (\($0))" } ?? "") + empty + waiting
    }

    /// The store's state when it is away, asked of `client` just connected; nil when it is reachable
    /// or the daemon has no store. Connected while it is away, no news comes until it changes
    /// (`events`, `watch --plain`: the plain watch said nothing until then; outside probe 11, F10).
    static func away(asking client: TodoClient) async -> SharedStoreStatus? {
        guard case .responseStatus(let status)? = try? await client.request(.requestStatus), let store = status.sharedStore, !store.reachable
        else { return nil }
        return store
    }

    /// Said on stderr by `list` and `next` from a copy never filled from its store (a new replica
    /// started while the store was away), asked of `client`: "no open todos" read as if the
    /// store's list were empty (outside probe 11, F13). Nil otherwise.
    static func unfilledNote(asking client: TodoConnection) -> String? {
        // Asked only of a daemon with a store: a status costs it more than the list (issue 23).
        guard client.hello.sharedStore == true, case .responseStatus(let status)? = try? client.request(.requestStatus), let store = status.sharedStore, store.unfilled == true
        else { return nil }
        return """
            this machine's copy has never been filled from the shared store \(store.store) (unreachable since todod started): \
            the todos of the other machines are not here yet, only those added on this machine, which may be renumbered when \
            shared; todod fills it once the store is back
            """
    }

    /// What it means for the person, as one line.
    var sentence: String {
        reachable
            ? "the shared store \(store) is reachable again: changes are shared" + renumbering
            : "the shared store \(store) is \(state): changes are saved on this machine and shared once it is back, reads come from this machine's copy; todod reconnects by itself"
    }

    /// `; #3 is now #5 (…)` after sharing changes made offline renumbered todos, numbers moved
    /// alike said as one range (`#3–#12 are now #33–#42`) and past `runsSaid` of them the rest
    /// counted: 1,500 todos renumbered were one line of 30 KB on events' stderr and watch's
    /// bottom line (outside probe 11, F13); todod's log says each. Else empty.
    var renumbering: String {
        guard let renumbered, !renumbered.isEmpty else { return "" }
        var runs: [(was: ClosedRange<Int>, now: Int)] = []
        for moved in renumbered {
            if let last = runs.last, moved.was == last.was.upperBound + 1, moved.now == last.now + last.was.count {
                runs[runs.count - 1].was = last.was.lowerBound...moved.was
            } else {
                runs.append((moved.was...moved.was, moved.now))
            }
        }
        let said = runs.prefix(Self.runsSaid).map { run in
            run.was.count == 1
                ? "#\(run.was.lowerBound) is now #\(run.now)"
                : "#\(run.was.lowerBound)–#\(run.was.upperBound) are now #\(run.now)–#\(run.now + run.was.count - 1)"
        }
        let rest = runs.dropFirst(Self.runsSaid).reduce(0) { $0 + $1.was.count }
        return "; " + said.joined(separator: ", ") + (rest > 0 ? " and \(rest) more (todod's log says each)" : "")
            + " (another machine had given \(renumbered.count == 1 ? "that number" : "those numbers") meanwhile)"
    }

    /// The most runs of renumbered todos one line names.
    static let runsSaid = 5
}
