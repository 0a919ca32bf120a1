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
        // Every view request but the status (the StatusResponder's), and every model response.
        var kinds = Set(EventKind.viewRequests.subtracting([.requestStatus]).map(BusEvent.Kind.view))
        kinds.formUnion(ModelEvent.Kind.responses.map(BusEvent.Kind.model))
        bus.subscribe(to: kinds) { [weak self] envelope in
            guard let self else { return }
            switch envelope.event {
            case .view(let request):
                self.bus.publish(Self.modelRequest(for: request), correlation: envelope.correlation)
            case .model(.responseTodo(.written(let mutation, let changes))) where Self.listAnswer(to: mutation) != nil:
                // An undo's or a replay's changes all go to every client as no one's answer; the asker's answer lists them.
                for change in changes { self.bus.publish(.responseTodoViewModel(TodoChange(change))) }
                let list = ChangeList(changes: changes.map { JournaledChange($0, withBefore: true) }, seq: changes.last?.seq ?? 0,
                                      unshared: changes.lazy.compactMap(\.unshared).first)
                if let answer = Self.listAnswer(to: mutation) { self.bus.publish(answer(list), correlation: envelope.correlation) }
            case .model(let response):
                // Each imported change reaches every View as any change does, before the asker's summary.
                for change in ViewModelServer.broadcasts(for: response) { self.bus.publish(.responseTodoViewModel(change)) }
                // A write's answer carries its whole step (`TodoChange.further`), and goes to every client.
                if let answer = self.viewResponse(to: response) { self.bus.publish(answer, correlation: envelope.correlation) }
            }
        }
    }

    /// The model request a view request becomes, or the view response that answers it at
    /// once (an error, or an import of nothing).
    static func modelRequest(for request: Event) -> BusEvent {
        do throws(TodoError) {
            let model: ModelEvent
            switch request {
            case .requestTodoViewModels(let filter): model = .requestReadTodos(.list(TodoValidation.normalised(filter)))
            case .requestTodoDetail(let ref): model = .requestReadTodos(.one(ref))
            case .requestNewTodo(let new): model = .requestWriteTodo(.create(try TodoValidation.validated(new)))
            case .requestUpdateTodoDetail(let update):
                model = .requestWriteTodo(.edit(update.ref, try TodoValidation.validated(update.edit), expectedRevision: update.revision))
            case .requestCompleteTodo(let ref): model = .requestWriteTodo(.complete(ref))
            case .requestReopenTodo(let ref): model = .requestWriteTodo(.reopen(ref))
            case .requestCompleteTodoWithChildren(let ref): model = .requestWriteTodo(.completeWithChildren(ref))
            case .requestToggleComplete(let ref): model = .requestWriteTodo(.toggleComplete(ref))
            case .requestDeleteTodo(let ref): model = .requestWriteTodo(.delete(ref))
            case .requestRestoreTodo(let ref): model = .requestWriteTodo(.restore(ref))
            case .requestBackup: model = .requestBackupDatabase
            case .requestChanges(let request): model = .requestReadJournal(.after(seq: request.since, limit: try Self.limit(request.limit)))
            case .requestHistory(let request): model = .requestReadJournal(.history(request.ref, after: request.after ?? 0))
            case .requestLog(let request):
                model = .requestReadJournal(.log(since: request.since, after: request.after, limit: try Self.limit(request.limit)))
            case .requestUndo(let undo):
                if undo.seq != nil && undo.since != nil { throw TodoError.validation("since", "give a change's seq or a time, not both") }
                model = .requestWriteTodo(.undo(undo))
            case .requestRedo: model = .requestWriteTodo(.redo)
            case .requestPurge(let request): model = .requestWriteTodo(.purge(deletedBefore: request.deletedBefore))
            case .requestReplay(let request):
                let todos = try TodoValidation.replayed(request.changes.map(\.todo.todo))
                model = .requestWriteTodo(.replay(zip(request.changes, todos).map { $0.replayed($1) }, sources: request.sources))
            case .requestConflicts(let request): model = .requestReadConflicts(request)
            case .requestSettleConflict(let settlement): model = .requestMarkConflict(settlement)
            case .requestImportTodos([]): return .view(.responseImportTodos(TodoImportResult(changes: [])))
            case .requestImportTodos(let todos): model = .requestWriteTodos(try TodoValidation.validated(todos).map(TodoMutation.importTodo))
            default:
                // Not subscribed to: the status is the StatusResponder's, and responses are nobody's to answer.
                return .view(.responseError(TodoError(.badRequest, "\(request.kind.rawValue) is not a request the ViewModelServer answers")))
            }
            return .model(model)
        } catch {
            return .view(.responseError(error))
        }
    }

    /// The view response a model response becomes; nil for a model request.
    func viewResponse(to response: ModelEvent) -> Event? {
        switch response {
        case .responseJournal(let result): viewResponse(to: result)
        case .responseWriteTodos(let results): importResponse(to: results)
        case .responseBackupDatabase(.written(let backup)): .responseBackup(backup)
        case .responseBackupDatabase(.failed(let reason)):
            .responseError(TodoError(.storage, "the database could not be backed up, nothing was written: \(reason)"))
        case .responseTodos(let result): viewResponse(to: result)
        case .responseTodo(let result): viewResponse(to: result)
        case .responseReadConflicts(.listed(let conflicts)): .responseConflicts(ConflictList(conflicts: conflicts.map(ConflictViewModel.init)))
        case .responseMarkConflict(.left(let conflict)): .responseSettleConflict(ConflictViewModel(conflict))
        case .responseReadConflicts(.failed(let error)), .responseMarkConflict(.failed(let error)): .responseError(TodoError(error))
        case .requestReadTodos, .requestWriteTodo, .requestWriteTodos, .requestBackupDatabase, .requestReadJournal, .requestReadConflicts,
             .requestMarkConflict:
            nil
        }
    }

    /// The committed changes of a batch write, for every View.
    static func broadcasts(for event: ModelEvent) -> [TodoChange] {
        guard case .responseWriteTodos(let results) = event else { return [] }
        return results.flatMap { result -> [TodoChange] in
            guard case .written(_, let changes) = result else { return [] }
            return changes.map(TodoChange.init)
        }
    }

    /// The asker's summary of a batch write, or its first failure (a storage error fails them all).
    private func importResponse(to results: [TodoWriteResult]) -> Event {
        var changes: [TodoChange] = []
        for result in results {
            guard case .responseTodoViewModel(var change) = viewResponse(to: result) else { return viewResponse(to: result) }
            // Only the other program's fields set (the first re-import of todod's own export
            // records task's): nothing its user sees changed, so it counts as unchanged (each
            // such todo counted updated). Written still: the next export gives them back.
            if case .written(_, let entries) = result, entries.count == 1, entries[0].changedFields == [.foreign] { change.kind = .unchanged }
            changes.append(change)
        }
        return .responseImportTodos(TodoImportResult(changes: changes))
    }

    private func viewResponse(to result: TodoQueryResult) -> Event {
        switch result.query {
        case .list(let filter):
            let rows = result.todos.map { TodoViewModel($0) }
            return .responseTodoViewModels(
                TodoViewModelList(
                    filter: filter, todos: rows, asOf: result.asOf, context: result.context.map { TodoViewModel($0) },
                    progress: result.progress))
        case .one(let ref):
            switch result.todos.count {
            case 0: return .responseError(TodoError(.notFound(ref)))
            case 1:
                let todo = result.todos[0]
                let parent = result.context.first { $0.number == todo.parent }
                let subtasks = result.context.filter { $0.parent == todo.number }
                return .responseTodoDetail(TodoDetailViewModel(
                    todo, parent: parent, subtasks: subtasks, dependsOn: result.context.filter { todo.depends.contains($0.id) },
                    blocks: result.context.filter { $0.depends.contains(todo.id) }))
            default: return .responseError(TodoError(.ambiguous(ref)))
            }
        }
    }

    /// The answer that lists a mutation's changes, for those answered so.
    private static func listAnswer(to mutation: TodoMutation) -> (@Sendable (ChangeList) -> Event)? {
        switch mutation {
        case .undo: Event.responseUndo
        case .redo: Event.responseRedo
        case .replay: Event.responseReplay
        default: nil
        }
    }

    /// A journal answer's limit: 1 to `ChangeList.maximumChanges`, that by default.
    private static func limit(_ limit: Int?) throws(TodoError) -> Int {
        guard let limit else { return ChangeList.maximumChanges }
        guard (1...ChangeList.maximumChanges).contains(limit) else {
            throw .validation("limit", "\(limit) is not between 1 and \(ChangeList.maximumChanges)")
        }
        return limit
    }

    private func viewResponse(to result: JournalReadResult) -> Event {
        switch result {
        case .failed(_, let error):
            return .responseError(TodoError(error))
        case .tooFarBehind(_, let asOf):
            return .responseChanges(ChangeList(changes: [], seq: asOf, tooFarBehind: true))
        case .entries(let query, let entries, let asOf, let more):
            switch query {
            case .after: return .responseChanges(ChangeList(changes: entries.map { JournaledChange($0, withBefore: false) }, seq: asOf))
            case .history:
                return .responseHistory(ChangeList(changes: entries.map { JournaledChange($0, withBefore: true) }, seq: asOf, more: more))
            case .log: return .responseLog(ChangeList(changes: entries.map { JournaledChange($0, withBefore: true) }, seq: asOf, more: more))
            }
        }
    }

    private func viewResponse(to result: TodoWriteResult) -> Event {
        switch result {
        case .written(_, let changes):
            guard let own = changes.first else { return .responseError(TodoError(.storage, "a write committed without a change: please report this as a bug")) }
            return .responseTodoViewModel(TodoChange(own, further: changes.dropFirst()))
        case .purged(_, let todos, let change):
            return .responsePurge(PurgeResult(numbers: todos.map(\.number).sorted(), seq: change))
        case .unchanged(_, let todo):
            return .responseTodoViewModel(TodoChange(kind: .unchanged, todo: TodoViewModel(todo), sequence: 0))
        case .failed(_, let error):
            return .responseError(TodoError(error))
        case .previewed(_, let entries):
            // What the undo would take back, each with who made it; nothing was written.
            return .responseUndo(ChangeList(changes: entries.map { JournaledChange($0, withBefore: true) }, seq: entries.last?.seq ?? 0))
        }
    }
}
