import ArgumentParser
import Foundation
import TodoClient
import TodoEvents
import TodoModel
import TodoTerminal
import TodoViewModel

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "A live list that every change, from any terminal, updates in place.",
        discussion: """
            Keys: ↑/↓ or j/k move, space or x toggle done, a add, e edit the title, p cycle
            priority, d delete, u restore (in the deleted list), f cycle the filter, q quit.
            When the daemon goes away, watch says so and reconnects by itself.
            Without a terminal, or with --plain, it prints one line per change instead.
            """)

    @Flag var status: ListCommand.Status = .open
    @Option(help: "Only todos with this tag.") var tag: String?
    @Flag(help: "Print one line per change instead of drawing the list.") var plain = false
    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        // As the daemon reads it (`#work` is `work`): its answers carry the filter they answer.
        let filter = TodoValidation.normalised(TodoFilter(status: TodoFilter.Status(rawValue: status.rawValue) ?? .open, tag: tag))
        let link = DaemonLink(socketPath: connection.socketPath)
        if plain || isatty(STDOUT_FILENO) == 0 || isatty(STDIN_FILENO) == 0 {
            await PlainWatch(link: link, filter: filter).run()
        } else {
            try await InteractiveWatch(link: link, filter: filter).run()
        }
    }
}

/// What reaches the interactive watch loop, from the keyboard, the daemon and signals.
enum WatchInput: Sendable {
    case key(Key)
    case link(DaemonLink.Update)
    case list(TodoViewModelList)
    /// The daemon's counts, answering the tracker's question with this id.
    case totals(TodoTotals, question: UInt64)
    case totalsFailed(question: UInt64)
    case failed(WatchScreen.Command, String)
    case resized
    case terminate
}

/// The full-screen watch: one loop owns the screen and handles one input at a time.
struct InteractiveWatch {
    let link: DaemonLink
    let filter: TodoFilter

    func run() async throws {
        let terminal = WatchTerminal()
        let (inputs, sink) = AsyncStream<WatchInput>.makeStream()
        let signals = WatchTerminal.onSignals([SIGWINCH, SIGTERM, SIGINT, SIGHUP]) { number in
            sink.yield(number == SIGWINCH ? .resized : .terminate)
        }
        try terminal.enter()
        defer { terminal.restore(); signals.forEach { $0.cancel() } }
        WatchTerminal.readKeys { sink.yield(.key($0)) }
        let linkTask = Task { await link.run { sink.yield(.link($0)) } }
        defer { linkTask.cancel() }

        var loop = WatchLoop(screen: WatchScreen(filter: filter, rows: terminal.size.rows, columns: terminal.size.columns), sink: sink)
        let renderer = WatchRenderer(styler: TextStyler(colours: Terminal.colours))
        terminal.draw(renderer.render(loop.screen))
        for await input in inputs {
            if case .resized = input {
                loop.screen.resize(rows: terminal.size.rows, columns: terminal.size.columns)
                terminal.invalidate()
            }
            guard loop.handle(input) else { break }
            terminal.draw(renderer.render(loop.screen))
        }
    }
}

/// The watch's state machine around the screen: the client of the moment, the list
/// request in flight, the changes that arrive meanwhile, and the requests keys ask for.
struct WatchLoop {
    var screen: WatchScreen
    let sink: AsyncStream<WatchInput>.Continuation
    private var client: TodoClient?
    private var awaitingList = false
    private var heldChanges: [TodoChange] = []

    init(screen: WatchScreen, sink: AsyncStream<WatchInput>.Continuation) {
        self.screen = screen
        self.sink = sink
    }

    /// Applies one input; false when watch should end.
    mutating func handle(_ input: WatchInput) -> Bool {
        switch input {
        case .terminate: return false
        case .resized: break
        case .key(let key):
            guard let command = screen.handle(key) else { break }
            if command == .quit { return false }
            send(command)
        case .link(.connected(let client)):
            self.client = client
            screen.connection = .connected
            screen.show(message: nil)
            reload(screen.list.filter)
        case .link(.change(let change, _)):
            // The totals count every change, also one the list holds back.
            screen.totals.count(change)
            if awaitingList { heldChanges.append(change); break }
            // A gap in the sequence means a change was missed: ask for the whole list again.
            if change.sequence > screen.list.asOf + 1 { reload(screen.list.filter) }
            screen.incorporate(change)
        case .link(.missed):
            // Changes were dropped while this loop was busy: the list may be stale.
            reload(screen.list.filter)
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
        }
        return true
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
                sink.yield(.totals(TodoTotals(open: status.openTodos, done: status.completedTodos, asOf: status.sequence), question: question))
            } else {
                sink.yield(.totalsFailed(question: question))
            }
        }
    }

    private func send(_ command: WatchScreen.Command) {
        guard let event = Self.event(for: command) else { return }
        guard let client else {
            sink.yield(.failed(command, "not connected to todod; waiting for it to come back"))
            return
        }
        let sink = sink
        Task {
            do {
                if case .responseTodoViewModels(let list) = try await client.request(event) { sink.yield(.list(list)) }
            } catch {
                sink.yield(.failed(command, String(describing: error)))
            }
        }
    }

    /// The request a command sends; none for quit, which ends the loop.
    static func event(for command: WatchScreen.Command) -> Event? {
        switch command {
        case .add(let title): .requestNewTodo(NewTodo(title: title))
        case .toggle(let id): .requestToggleComplete(.id(id))
        case .delete(let id): .requestDeleteTodo(.id(id))
        case .restore(let id): .requestRestoreTodo(.id(id))
        case .editTitle(let id, let revision, let title):
            .requestUpdateTodoDetail(TodoDetailUpdate(ref: .id(id), revision: revision, edit: TodoEdit(title: title)))
        case .setPriority(let id, let priority):
            .requestUpdateTodoDetail(TodoDetailUpdate(ref: .id(id), edit: TodoEdit(priority: priority)))
        case .reload(let filter): .requestTodoViewModels(filter)
        case .quit: nil
        }
    }
}

/// Watch for logs and pipes: one line per change, and a line when the daemon comes and goes.
struct PlainWatch {
    let link: DaemonLink
    let filter: TodoFilter

    func run() async {
        let filter = filter
        await link.run { update in
            switch update {
            case .connected(let client):
                Task {
                    if case .responseTodoViewModels(let list)? = try? await client.request(.requestTodoViewModels(filter)) {
                        Terminal.print("connected: \(list.todos.count) \(filter.status.rawValue) todos, at change \(list.asOf)")
                    }
                }
            case .change(let change, _): Terminal.print("\(change.sequence) \(change.line)")
            case .missed: Terminal.print("missed changes (output not read in time); the next line's number shows how many")
            case .disconnected(let reason, let retry): Terminal.print("disconnected (\(reason)); retrying in \(retry)")
            }
        }
    }
}
