import Foundation
import TodoModel
import TodoViewModel

/// Whether a log holds every change of each of its todos from the todo's creation on, as a
/// whole `todoctl log --json` does. A todo's revision grows by one with each change, so a
/// change that does not follow the todo's last one in the file (or, for its first one, the
/// revision this database holds) shows changes left out: a gap cut from the middle, or a
/// part printed by `log --json --since/--limit`. Replaying such a log would journal edits
/// that never happened and todos with no creation, so the whole log is refused first.
///
/// Seqs alone cannot tell: a purge leaves gaps in them (it removes its todos' changes and
/// takes a seq no change holds), and a purged todo has no change left in the log.
struct ReplayContinuity {
    /// Why the log cannot be replayed, or nil. `held` gives the revision this database holds
    /// of a todo, by id (nil: none), and is asked only for a todo the log starts mid-way.
    static func refusal(_ lines: [ReplayCommand.Line], file: String, held: (UUID) throws -> Int?) rethrows -> String? {
        var last: [UUID: ReplayCommand.Line] = [:]
        let seqs = Set(lines.map(\.change.sequence))
        let whole = "replay the whole `todoctl log --json` of that database (not a part, as --since or --limit print); nothing was replayed"
        for line in lines {
            let change = line.change, todo = change.todo.todo
            // A revision no database reaches is todod's to refuse, with its bound.
            guard (1...TodoValidation.maximumReplayedCount).contains(todo.revision) else { continue }
            let name = "line \(line.number) (seq \(change.sequence)) is #\(change.todo.number) revision \(todo.revision)"
            if let previous = last[todo.id] {
                let before = previous.change.todo.todo.revision
                if todo.revision != before + 1 {
                    let missing = missingSeqs(after: previous.change.sequence, before: change.sequence, present: seqs)
                    return "\(file): \(missing) missing: \(name), but the change before it there is revision \(before) "
                        + "(line \(previous.number), seq \(previous.change.sequence)); \(whole)"
                }
            } else if todo.revision > 1, try (held(todo.id) ?? 0) < todo.revision - 1 {
                return "\(file): the log does not start at the first change: \(name), but neither the file nor this database "
                    + "holds #\(change.todo.number)'s revisions before it (\(missingSeqs(after: 0, before: change.sequence, present: seqs)) missing); \(whole)"
            }
            last[todo.id] = line
        }
        return nil
    }

    /// "seq 4 is", "seqs 4–6 are": the seqs between two that the file does not hold.
    static func missingSeqs(after: UInt64, before: UInt64, present: Set<UInt64>) -> String {
        let missing = (after + 1..<max(after + 1, before)).filter { !present.contains($0) }
        guard let first = missing.first, let last = missing.last else { return "changes are" }
        if first == last { return "seq \(first) is" }
        return missing.count == Int(last - first) + 1 ? "seqs \(first)–\(last) are" : "\(missing.count) seqs from \(first) to \(last) are"
    }
}
