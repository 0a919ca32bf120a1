import TodoModel

/// The numbers a replay gives in one request. A todo of the other log keeps its number,
/// unless another todo holds it here: a replica's log replayed into a store that other
/// machines wrote to meanwhile (the rescue SEVERAL-MACHINES.md gives a replica refused for
/// good) finds numbers they gave. Such a todo gets the next free number, as sharing renumbers
/// a todo made offline; a todo here already, by its id, keeps the number it has here; and the
/// later changes of the request naming either by the other log's number (its own changes, a
/// subtask's parent, an occurrence's previous) follow. `todoctl replay` carries what one
/// request learnt to the next.
struct ReplayNumbers {
    /// The highest number given here or in the request so far.
    private var last: Int
    /// The other log's number → this database's, where they differ.
    private var renumbered: [Int: Int] = [:]

    init(last: Int) {
        self.last = last
    }

    /// `todo` as the other log wrote it, numbered for this database: `here` is the todo with
    /// its id here (nil: a new one), `numberHeldByAnother` whether a new one's number is another's.
    mutating func numbered(_ todo: Todo, here: Todo?, numberHeldByAnother: Bool) -> Todo {
        var numbered = todo
        if let here, here.number != todo.number, here.createdAt == todo.createdAt {
            renumbered[todo.number] = here.number
        } else if here == nil, numberHeldByAnother {
            last += 1
            renumbered[todo.number] = last
        }
        numbered.number = renumbered[todo.number] ?? todo.number
        numbered.parent = todo.parent.map { renumbered[$0] ?? $0 }
        numbered.previous = todo.previous.map { renumbered[$0] ?? $0 }
        last = max(last, numbered.number)
        return numbered
    }
}
