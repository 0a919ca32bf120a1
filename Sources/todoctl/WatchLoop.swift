import Foundation
import TodoClient
import TodoClock
import TodoEvents
import TodoModel
import TodoTerminal
import TodoViewModel

/// The watch's state machine around the screen: the client of the moment, the list
/// request in flight, the changes that arrive meanwhile, and the requests keys ask for.
struct WatchLoop {
    /// What the owner of the terminal does after an input.
    enum Outcome: Equatable {
        case draw
        case quit
        /// Leave the screen, open this todo's notes in the editor, come back.
        case editNotes(Todo)
    }

    var screen: WatchScreen
    let sink: AsyncStream<WatchInput>.Continuation
    private var client: TodoClient?
    private var awaitingList = false
    private var heldChanges: [TodoChange] = []

    init(screen: WatchScreen, sink: AsyncStream<WatchInput>.Continuation) {
        self.screen = screen
        self.sink = sink
    }

    /// Applies one input.
    mutating func handle(_ input: WatchInput) -> Outcome {
        // The minute each input comes at: a key reads `15:00` against it, the rows their due times.
        screen.now = ReachedMinute.at(WallClock.now()).timeOfDay
        switch input {
        case .terminate: return .quit
        case .resized: break
        case .dayChanged(let day): screen.today = day
        // The rows are read at the new minute (above); nothing else to do.
        case .dueMinuteCame: break
        case .noticeExpired(let notice): screen.withdraw(notice: notice)
        case .key(let key):
            guard let command = screen.handle(key) else { break }
            if command == .quit { return .quit }
            if case .editNotes(let id) = command, let row = screen.entries.map(\.row).first(where: { $0.id == id }) { return .editNotes(row.todo) }
            send(command)
        case .link(.connected(let client)):
            self.client = client
            screen.connection = .connected
            screen.show(message: nil)
            reload(screen.list.filter)
        case .link(.change(let change, _)):
            // The totals count every change, also one the list holds back.
            screen.totals.count(change)
            // A deletion or a restoration is counted by the todo's state after it, which is not
            // the state it left when an undo took back its completion too (an add and its done
            // undone together went to -1 open; outside probe): the daemon counts again.
            if change.kind == .deleted || change.kind == .restored { askTotals() }
            if awaitingList { heldChanges.append(change); break }
            // A gap in the sequence means a change was missed: ask for the whole list again.
            if change.sequence > screen.list.asOf + 1 { reload(screen.list.filter) }
            screen.incorporate(change)
            // Blocked or blocking is decided with every todo at hand: any change may add or take
            // away rows, or block or unblock a listed todo that waits for another (its `[b]`).
            if screen.needsContext || screen.list.filter.readsOtherTodos || screen.list.rows.waitsForAny { reload(screen.list.filter) }
            // The history pane is as live as the list: its todo changed, so it has a new line.
            if screen.pane == .history, screen.history?.id == change.todo.id { send(.history(change.todo.id)) }
        case .link(.missed):
            // Changes were dropped while this loop was busy: the list may be stale.
            reload(screen.list.filter)
        case .link(.sharedStore(let status)):
            let wasAway = screen.storeOutage != nil
            screen.storeOutage = Self.outage(status)
            screen.openConflicts = status.conflicts ?? 0
            // The changes this list saw while the store was away were made again on others': read it again.
            if status.rewoundTo != nil { reload(screen.list.filter) }
            if status.renumbered != nil {
                // Said, not just redrawn: a number the user remembers now names another todo.
                showForAWhile(notice: "changes made here while the store was away are shared" + status.renumbering)
            } else if status.reachable && wasAway {
                showForAWhile(notice: "the shared store is reachable again: changes are taken")
            }
        case .storeStatus(let status):
            screen.storeOutage = status.flatMap(Self.outage)
            screen.openConflicts = status?.conflicts ?? 0
        case .link(.disconnected(let reason, let retry)):
            client = nil
            screen.connection = .disconnected(retryInSeconds: max(1, Int(retry.components.seconds)))
            screen.show(message: reason)
        case .list(let list):
            guard list.filter == screen.list.filter else { break }
            awaitingList = false
            screen.incorporate(list)
            heldChanges.filter { $0.sequence > list.asOf }.forEach { screen.incorporate($0) }
            heldChanges = []
        case .totals(let totals, let question):
            screen.totals.answer(totals, to: question)
        case .totalsFailed(let question):
            screen.totals.failed(question)
        case .failed(let command, let message):
            if case .reload = command { awaitingList = false }
            screen.failed(command, message: message)
        case .said(let words):
            screen.show(notice: words)
        case .history(let id, let lines):
            screen.showHistory(of: id, lines: lines)
        }
        return .draw
    }

    /// Sends notes written in the editor, with the revision they were based on. The file
    /// goes once they are saved; when they are refused (another client changed the todo
    /// meanwhile) it stays, and the status line says where.
    func sendNotes(_ notes: String, of todo: Todo, keptIn file: FormFile) {
        let command = WatchScreen.Command.edit(todo.id, revision: todo.revision, TodoEdit(notes: notes), typed: nil)
        guard let client, let event = Self.event(for: command) else {
            sink.yield(.failed(command, "not connected to todod, so the notes of #\(todo.number) were not saved; they are kept in \(file.path)"))
            return
        }
        let sink = sink
        Task {
            do {
                _ = try await client.request(event)
                file.remove()
                sink.yield(.said("notes of #\(todo.number) saved"))
            } catch {
                sink.yield(.failed(command, "\(error); your notes are kept in \(file.path)"))
            }
        }
    }

    /// Shows `notice` for a few seconds: news nobody answers, that should not hide the keys' line until a key is pressed.
    private mutating func showForAWhile(notice: String) {
        screen.show(notice: notice)
        let sink = sink
        Task {
            try? await Task.sleep(for: .seconds(5))
            sink.yield(.noticeExpired(notice))
        }
    }

    /// Asks for the whole list, and the totals with it (after connecting or a gap).
    private mutating func reload(_ filter: TodoFilter) {
        awaitingList = true
        send(.reload(filter))
        askTotals()
    }

    /// Asks the daemon for its counts; the tracker ignores the answer if a newer question came.
    private mutating func askTotals() {
        let question = screen.totals.ask()
        guard let client else { return screen.totals.failed(question) }
        let sink = sink
        Task {
            if case .responseStatus(let status)? = try? await client.request(.requestStatus) {
                sink.yield(.storeStatus(status.sharedStore))
                sink.yield(.totals(TodoTotals(open: status.openTodos, done: status.completedTodos, asOf: status.sequence), question: question))
            } else {
                sink.yield(.totalsFailed(question: question))
            }
        }
    }

    private mutating func send(_ command: WatchScreen.Command) {
        if case .reload = command { awaitingList = true }
        guard let event = Self.event(for: command) else { return }
        guard let client else {
            sink.yield(.failed(command, "not connected to todod; waiting for it to come back"))
            return
        }
        let sink = sink
        let filter = screen.list.filter
        Task {
            do {
                switch try await client.request(event) {
                // Marked blocked as `todoctl list` marks them: the screen only shows rows.
                case .responseTodoViewModels(let list): sink.yield(.list(try await BlockedRows.marked(list, client)))
                // A todo added here that the filter leaves out would vanish without a word.
                case .responseTodoViewModel(let change) where command.isAdd && !filter.matches(change.todo.todo):
                    sink.yield(.said("added \(change.todo.numberText), which this view's filter leaves out"))
                case .responseUndo(let list):
                    // As todoctl names another program's change it takes back: watch's U
                    // picks the last change of any client's, which may not be this user's.
                    let makers = await Self.makers(of: list.changes, asking: client)
                    // First, so that a narrow terminal cuts the change's details, not whose it was. A step
                    // of several changes (a command's, as `todoctl log` marks them) is named once.
                    let what = list.changes.count > 1 ? "step" : "change"
                    let named = makers.map { " \(what) \($0.sequence) by \(TerminalText.escaped($0.author))" }.joined(separator: ",")
                    sink.yield(.said(Self.undone(list.changes, "undone\(named) (R redoes)")))
                case .responseRedo(let list): sink.yield(.said(Self.undone(list.changes, "redone")))
                // An undo that changes nothing is answered like any write that changes nothing.
                case .responseTodoViewModel where command == .undo || command == .redo:
                    sink.yield(.said("nothing to \(command == .undo ? "undo" : "redo"): the todos are already as it would leave them"))
                case .responseHistory(let list):
                    if case .history(let id) = command { sink.yield(.history(id, list.changes.map(Self.historyLine))) }
                default: break
                }
            } catch {
                if let (retry, said) = Self.afterConflict(command, error) {
                    sink.yield(.failed(retry, said))
                    return
                }
                // todod words an undo's refusal for todoctl: watch names its own keys.
                let said = String(describing: error)
                sink.yield(.failed(command, command == .undo || command == .redo ? WatchUndoWords.refusal(said) : said))
            }
        }
    }

    /// A prompt's edit refused as the todo changed meanwhile: the prompt comes back at the
    /// todo's new revision, so that Enter saves what was typed over the other change and
    /// Escape keeps it (the old revision was sent again and refused, forever; outside probe).
    /// A todo deleted meanwhile takes no edit at any revision: the prompt closes, saying so,
    /// what was not saved and how to bring the todo back (it offered "Enter saves yours over
    /// it", and Enter was refused as the todo is deleted; outside probe 10).
    static func afterConflict(_ command: WatchScreen.Command, _ error: any Error) -> (WatchScreen.Command, String)? {
        guard case .refused(let refusal)? = error as? TodoClientError, let current = refusal.todo,
              case .edit(let id, let revision, let edit, let typed?) = command
        else { return nil }
        if current.isDeleted, refusal.code == .conflict || refusal.code == .deleted {
            let number = current.numberText
            let said = "\(number) was deleted elsewhere while you edited it, so its \(typed.prompt.label) \"\(typed.text)\" was not saved: "
                + "todoctl restore \(current.number) brings it back (or u in the deleted list, which f shows), to edit it again"
            return (.edit(id, revision: revision, edit, typed: nil), said)
        }
        guard refusal.code == .conflict, let prompt = typed.prompt.at(revision: current.todo.revision) else { return nil }
        let retry = WatchScreen.Command.edit(id, revision: current.todo.revision, edit, typed: TypedText(prompt, typed.text))
        return (retry, "\(current.numberText) was changed meanwhile (now revision \(current.todo.revision)): Enter saves yours over it, Escape keeps it")
    }

    /// The request a command sends; none for quit and the notes editor, which the owner runs.
    static func event(for command: WatchScreen.Command) -> Event? {
        switch command {
        case .add(let new, _): .requestNewTodo(new)
        case .toggle(let id, let done): done ? .requestCompleteTodo(.id(id)) : .requestReopenTodo(.id(id))
        case .delete(let id): .requestDeleteTodo(.id(id))
        case .restore(let id): .requestRestoreTodo(.id(id))
        case .edit(let id, let revision, let edit, _):
            .requestUpdateTodoDetail(TodoDetailUpdate(ref: .id(id), revision: revision, edit: edit))
        case .reload(let filter): .requestTodoViewModels(filter)
        case .undo: .requestUndo(TodoUndo())
        case .redo: .requestRedo
        case .history(let id): .requestHistory(HistoryRequest(ref: .id(id)))
        case .editNotes, .quit: nil
        }
    }

    /// The outage a status tells of; nil while the store is reachable.
    static func outage(_ status: SharedStoreStatus) -> StoreOutage? {
        status.reachable ? nil : StoreOutage(
            store: status.store, since: status.since, problem: status.problem, pending: status.pending ?? 0, unfilled: status.unfilled == true)
    }

    /// The first change of each step an undo took back that another program than watch made,
    /// read from the log (the undo's answer lists its own changes): one read per step, not per
    /// change of an import; none when the log cannot be read.
    static func makers(of changes: [JournaledChange], asking client: TodoClient) async -> [JournaledChange] {
        var found: [JournaledChange] = []
        // A daemon from before undone steps names only the changes (`undoes`).
        let steps = changes.first?.undoneSteps ?? Array(Set(changes.compactMap(\.undoes)))
        for seq in steps.sorted(by: >) {
            guard case .responseLog(let list)? = try? await client.request(.requestLog(LogRequest(after: seq - 1, limit: 1))),
                  let change = list.changes.first, change.sequence == seq, change.program != "watch" || change.machine != nil else { continue }
            found.append(change)
        }
        return found
    }

    /// `undone (…): #3 edited title "a" → "b"`, for the status line.
    static func undone(_ changes: [JournaledChange], _ said: String) -> String {
        "\(said): " + changes.map { "\($0.todo.numberText) \($0.whatInWords)" }.joined(separator: "; ")
    }

    /// `2026-11-21 14:02  edited   title "a" → "b"   todoctl (client 3)`, plain, for the pane.
    static func historyLine(_ change: JournaledChange) -> String {
        "\(ShowCommand.format(change.at))  \(change.what)   \(change.author)"
    }
}
