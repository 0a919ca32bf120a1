import Foundation
import Synchronization
import TodoEvents
import TodoModel
import TodoViewModel

/// Turns view requests into model requests and model responses into view responses,
/// keeping each request's correlation. Every write is validated here first: an invalid
/// request is answered with a validation error and reaches no Model.
///
/// It keeps no state between a request and its answer: a model response says enough
/// (its query, its mutation) to be turned into the view response. It handles one event
/// at a time, so view responses leave in the order the model committed them.
public final class ViewModelServer: Sendable {
    private let bus: EventBus
    private let events: AsyncStream<Envelope>
    private let lists = ListCache()

    public init(bus: EventBus) {
        self.bus = bus
        var kinds = EventKind.viewRequests
        kinds.remove(.requestStatus)
        events = bus.subscribe(to: kinds.union([.responseTodos, .responseTodo]))
    }

    /// Handles events until the task is cancelled.
    public func run() async {
        for await envelope in events {
            if let answer = answer(to: envelope.event) {
                bus.publish(answer, correlation: envelope.correlation)
            }
        }
    }

    /// The event that answers `event`: a model request, a view response, or an error.
    func answer(to event: Event) -> Event? {
        do throws(TodoError) {
            switch event {
            case .requestTodoViewModels(let filter): return .requestReadTodos(.list(TodoValidation.normalised(filter)))
            case .requestTodoDetail(let ref): return .requestReadTodos(.one(ref))
            case .requestNewTodo(let new): return .requestWriteTodo(.create(try TodoValidation.validated(new)))
            case .requestUpdateTodoDetail(let update):
                return .requestWriteTodo(.edit(update.ref, try TodoValidation.validated(update.edit), expectedRevision: update.revision))
            case .requestCompleteTodo(let ref): return .requestWriteTodo(.complete(ref))
            case .requestReopenTodo(let ref): return .requestWriteTodo(.reopen(ref))
            case .requestToggleComplete(let ref): return .requestWriteTodo(.toggleComplete(ref))
            case .requestDeleteTodo(let ref): return .requestWriteTodo(.delete(ref))
            case .requestRestoreTodo(let ref): return .requestWriteTodo(.restore(ref))
            case .responseTodos(let result): return viewResponse(to: result)
            case .responseTodo(let result): return viewResponse(to: result)
            default: return nil
            }
        } catch {
            return .responseError(error)
        }
    }

    private func viewResponse(to result: TodoQueryResult) -> Event {
        let today = LocalDate(Date())
        switch result.query {
        case .list(let filter):
            let rows = lists.rows(for: result.todos, filter: filter, asOf: result.asOf, today: today)
            return .responseTodoViewModels(TodoViewModelList(filter: filter, todos: rows, asOf: result.asOf))
        case .one(let ref):
            switch result.todos.count {
            case 0: return .responseError(TodoError(.notFound(ref)))
            case 1: return .responseTodoDetail(TodoDetailViewModel(result.todos[0], today: today))
            default: return .responseError(TodoError(.ambiguous(ref)))
            }
        }
    }

    private func viewResponse(to result: TodoWriteResult) -> Event {
        switch result {
        case .written(let mutation, let todo, let change):
            let kind = TodoChange.kind(of: mutation, after: todo)
            return .responseTodoViewModel(TodoChange(kind: kind, todo: TodoViewModel(todo), sequence: change))
        case .unchanged(_, let todo):
            return .responseTodoViewModel(TodoChange(kind: .unchanged, todo: TodoViewModel(todo), sequence: 0))
        case .failed(_, let error):
            return .responseError(TodoError(error))
        }
    }
}

/// The rows of the lists answered last, by filter. The same list again (same filter, no
/// commit since, same day) costs nothing; a list after a commit makes again only the rows
/// whose todo changed. A row is costly to make (its due date in words takes calendar
/// arithmetic), a lookup is not.
///
/// It keeps the most recent lists up to `maximumRows` rows in all (the latest always), so
/// its memory stays near that of one long list.
final class ListCache: Sendable {
    private struct Entry {
        var filter: TodoFilter
        var day: LocalDate
        var asOf: UInt64
        var rows: [TodoViewModel]
    }

    static let maximumRows = 12_000
    private let entries = Mutex<[Entry]>([])

    func rows(for todos: [Todo], filter: TodoFilter, asOf: UInt64, today: LocalDate) -> [TodoViewModel] {
        let previous = entries.withLock { entries in entries.first { $0.filter == filter && $0.day == today } }
        let rows: [TodoViewModel]
        if let previous, previous.asOf == asOf, previous.rows.count == todos.count {
            // The same table state: the same list.
            rows = previous.rows
        } else if let previous {
            var known: [UUID: Int] = [:]
            known.reserveCapacity(previous.rows.count)
            previous.rows.withUnsafeBufferPointer { old in
                for index in old.indices { known[old[index].todo.id] = index }
            }
            rows = todos.map { todo in
                if let index = known[todo.id], previous.rows[index].todo == todo { return previous.rows[index] }
                return TodoViewModel(todo, today: today)
            }
        } else {
            rows = todos.map { TodoViewModel($0, today: today) }
        }
        entries.withLock { entries in
            entries.removeAll { $0.filter == filter || $0.day != today }
            entries.insert(Entry(filter: filter, day: today, asOf: asOf, rows: rows), at: 0)
            var total = 0
            entries = Array(entries.prefix { entry in
                defer { total += entry.rows.count }
                return total == 0 || total + entry.rows.count <= ListCache.maximumRows
            })
        }
        return rows
    }
}
