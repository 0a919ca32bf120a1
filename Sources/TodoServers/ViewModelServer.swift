import Foundation
import TodoEvents
import TodoModel
import TodoViewModel

/// Turns view requests into model requests and model responses into view responses,
/// keeping each request's correlation. Every write is validated here first: an invalid
/// request is answered with a validation error and reaches no Model.
///
/// It keeps no state between a request and its answer: a model response says enough
/// (its query, its mutation) to be turned into the view response. It answers inside the
/// bus's dispatch, so view responses leave in the order the model committed them.
public final class ViewModelServer: Sendable {
    private let bus: EventBus

    public init(bus: EventBus) {
        self.bus = bus
        var kinds = EventKind.viewRequests
        kinds.remove(.requestStatus)
        bus.subscribe(to: kinds.union([.responseTodos, .responseTodo, .responseBackupDatabase])) { [weak self] envelope in
            guard let self, let answer = answer(to: envelope.event) else { return }
            self.bus.publish(answer, correlation: envelope.correlation)
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
            case .requestBackup: return .requestBackupDatabase
            case .responseBackupDatabase(.written(let backup)): return .responseBackup(backup)
            case .responseBackupDatabase(.failed(let reason)):
                return .responseError(TodoError(.storage, "the database could not be backed up, nothing was written (\(reason)): check free disk space and the data directory's permissions"))
            case .responseTodos(let result): return viewResponse(to: result)
            case .responseTodo(let result): return viewResponse(to: result)
            default: return nil
            }
        } catch {
            return .responseError(error)
        }
    }

    private func viewResponse(to result: TodoQueryResult) -> Event {
        switch result.query {
        case .list(let filter):
            let rows = result.todos.map { TodoViewModel($0) }
            return .responseTodoViewModels(TodoViewModelList(filter: filter, todos: rows, asOf: result.asOf))
        case .one(let ref):
            switch result.todos.count {
            case 0: return .responseError(TodoError(.notFound(ref)))
            case 1: return .responseTodoDetail(TodoDetailViewModel(result.todos[0]))
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
