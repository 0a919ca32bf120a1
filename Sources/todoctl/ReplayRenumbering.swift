import Foundation
import TodoEvents
import TodoModel
import TodoViewModel

/// The numbers of the other log that this database gives its todos otherwise. todod gives a
/// new todo whose number another todo holds here the next free one (a replica's log replayed
/// into a store other machines wrote to meanwhile) and keeps each todo it has by id at its
/// number; within one request it follows that itself. Across requests (64 changes each) this
/// carries it: what each answer wrote, and for a parent or a previous occurrence named from
/// an earlier request (or a replay run again, whose changes here are skipped, unanswered),
/// the number todod gives that todo's id. Without it a subtask's parent would name whichever
/// todo holds the other log's number here.
struct ReplayRenumbering {
    /// The other log's numbers, by the todo they name.
    private let ids: [Int: UUID]
    /// The other log's number → this database's, for the todos looked up or answered.
    private var here: [Int: Int] = [:]

    init(_ changes: [JournaledChange]) {
        ids = changes.reduce(into: [:]) { ids, change in ids[change.todo.number] = change.todo.id }
    }

    /// `changes` numbered as this database has their todos; `number` gives the number of a
    /// todo here by id (nil: none), asked once for each parent or previous occurrence named
    /// that neither an earlier answer nor `changes` itself makes.
    mutating func numbered<Failure: Error>(_ changes: [JournaledChange], number: (UUID) throws(Failure) -> Int?) throws(Failure) -> [JournaledChange] {
        let made = Set(changes.filter { $0.kind == .created }.map(\.todo.number))
        for todo in changes.map(\.todo.todo) {
            for named in [todo.parent, todo.previous].compactMap({ $0 }) where here[named] == nil && !made.contains(named) {
                guard let id = ids[named], let found = try number(id) else { continue }
                here[named] = found
            }
        }
        return changes.map { change in
            var todo = change.todo.todo
            todo.number = here[todo.number] ?? todo.number
            todo.parent = todo.parent.map { here[$0] ?? $0 }
            todo.previous = todo.previous.map { here[$0] ?? $0 }
            var numbered = change
            numbered.todo = TodoViewModel(todo)
            return numbered
        }
    }

    /// `sources` numbered as this database has their todos.
    func numbered(_ sources: [ReplaySource]) -> [ReplaySource] {
        sources.map { source in
            var numbered = source
            numbered.number = here[source.number] ?? source.number
            return numbered
        }
    }

    /// Learns the numbers todod gave the changes it wrote (`written`) of those `sent` (as the
    /// other log has them); returns the todos made here under another number: (was, now).
    mutating func learn(_ written: [JournaledChange], sent: [JournaledChange]) -> [(was: Int, now: Int)] {
        var theirs: [UUID: Int] = [:]
        for change in sent { theirs[change.todo.id] = change.todo.number }
        var renumbered: [(was: Int, now: Int)] = []
        for change in written {
            guard let was = theirs[change.todo.id], was != change.todo.number, here[was] != change.todo.number else { continue }
            here[was] = change.todo.number
            renumbered.append((was, change.todo.number))
        }
        return renumbered
    }
}
