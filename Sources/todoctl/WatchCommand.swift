import ArgumentParser
import Foundation
import Synchronization
import TodoClient
import TodoClock
import TodoEvents
import TodoModel
import TodoTerminal
import TodoViewModel

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "A live list that every change, from any terminal, updates in place.",
        discussion: """
            Keys (? lists them in watch too):
            \(WatchKeys.page.map { "  " + $0 }.joined(separator: "\n"))
            In a prompt, the line edits as readline's does:
            \(WatchKeys.promptPage.map { "  " + $0 }.joined(separator: "\n"))
            An old value starts selected (reversed): typing replaces it, a movement keeps it. \
            A field's prompt names its todo (#24 title:); an edit of a todo deleted meanwhile \
            is not saved, and the message says how to restore it. \
            a's line is `todoctl add`'s: a title, then -d DATE, -p H|M|L, -t TAG, --wait DATE, \
            --every PERIOD or the modifiers due:DATE pri:H +tag project:NAME recur:1w wait:DATE \
            (`Pay bill -d fri -p high`), read as a shell reads the same words after `todoctl add`: quotes \
            keep a value or a phrase together (`Pay bill due:"next fri"`, `"Buy x:y" +shop`), an apostrophe \
            in a word stays (Mum's), a quote never closed is refused as a shell refuses it (\\" keeps \
            a quote in the title: Buy \\"milk), and words after -- are title words (said where a word \
            shaped as an option, modifier or tag was refused: -n, Re:Zero, -shop); a line of options \
            alone (-p H) is refused, asking for title words before them. Times of day are kept as \
            add keeps them (due:fri@9am, -d 'fri 9am', wait:15:00; an unquoted due:fri 9am keeps 9am \
            in the title, as add does, and the status line says to quote it), and D and w take them too \
            (fri 9am, tomorrow 15:00, 15:00: the next one); a day alone is the whole day. Today's due \
            times are said from the minute (in 2 h, 1 h overdue) as list says them, and again as they \
            change, by themselves: a row turns overdue at its minute, 10 min overdue becomes 11 a \
            minute later, in 2 h becomes in 1 h at the whole hour. \
            Esc in the list goes back to the filter watch started with (the search and tag set \
            in watch cleared); in a prompt, it leaves changing nothing. \
            The context applied when watch starts (todoctl context) holds with its filter, and the \
            header names it; a context applied or left in another terminal is seen by the next watch. \
            Subtasks show indented under their parent, which shows its progress ([1/2]; z folds them). \
            When the daemon goes away, watch says so and reconnects by itself; with a shared store \
            (todod --store), a line at the bottom says while it is unreachable; changes are then saved on this machine and shared once it is back. \
            Without a terminal, or with --plain, it prints one line per change instead.
            """)

    @Flag var status: ListCommand.Status = .open
    @OptionGroup(title: "Filter (as for list)") var filter: FilterOptions
    @Flag(help: "Print one line per change instead of drawing the list.") var plain = false
    @OptionGroup var connection: ConnectionOptions

    func validate() throws { try filter.refuseRefs() }

    func run() async throws {
        // As the daemon reads it (`#work` is `work`): its answers carry the filter they answer.
        let own = self.filter.filter(status: TodoFilter.Status(rawValue: status.rawValue) ?? .open)
        // Read once, at the start: Esc goes back to this filter, the context's with it.
        let context = try AppliedContext.current()
        let filter = TodoValidation.normalised(try context?.narrowing(own) ?? own)
        let link = DaemonLink(socketPath: connection.socketPath, program: "watch")
        if plain || isatty(STDOUT_FILENO) == 0 || isatty(STDIN_FILENO) == 0 {
            if let context { Terminal.print(context.label) }
            await PlainWatch(link: link, filter: filter).run()
        } else {
            try await InteractiveWatch(link: link, filter: filter, context: context?.label).run()
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
    /// The shared store as the daemon's status told it (nil: the daemon has none).
    case storeStatus(SharedStoreStatus?)
    case failed(WatchScreen.Command, String)
    /// Words for the status line (notes saved, a change undone).
    case said(String)
    /// A notice's time is up: it goes, unless another took its place.
    case noticeExpired(String)
    /// A todo's history, as lines for the pane.
    case history(UUID, [String])
    /// Local midnight passed: due dates are told against the new day.
    case dayChanged(LocalDate)
    /// A shown todo's due minute came: its row turns overdue.
    case dueMinuteCame
    case resized
    case terminate
}

/// The full-screen watch: one loop owns the screen and handles one input at a time.
struct InteractiveWatch {
    let link: DaemonLink
    let filter: TodoFilter
    /// The applied context's label, for the header.
    let context: String?

    func run() async throws {
        let terminal = WatchTerminal()
        let (inputs, sink) = AsyncStream<WatchInput>.makeStream()
        // Ctrl-C in the notes' editor is the editor's (the terminal sends it to watch too).
        let editorRuns = Mutex(false)
        let signals = WatchTerminal.onSignals([SIGWINCH, SIGTERM, SIGINT, SIGHUP]) { number in
            if number == SIGINT, editorRuns.withLock({ $0 }) { return }
            sink.yield(number == SIGWINCH ? .resized : .terminate)
        }
        try terminal.enter()
        defer { terminal.restore(); signals.forEach { $0.cancel() } }
        let keys = WatchKeyReader { sink.yield(.key($0)) }
        let linkTask = Task { await link.run { sink.yield(.link($0)) } }
        let midnightTask = Task { await MidnightTimer(now: { WallClock.now() }).run { sink.yield(.dayChanged($0)) } }
        defer { linkTask.cancel(); midnightTask.cancel() }

        var screen = WatchScreen(filter: filter, rows: terminal.size.rows, columns: terminal.size.columns, today: WallClock.today())
        screen.context = context
        screen.now = ReachedMinute.at(WallClock.now()).timeOfDay
        var loop = WatchLoop(screen: screen, sink: sink)
        let renderer = WatchRenderer(styler: TextStyler(colours: Terminal.colours))
        terminal.draw(renderer.render(loop.screen))
        // One timer for the next minute a row shown says its due time otherwise (each minute while
        // one says minutes, at a whole hour for hours), armed again when that moves.
        var dueTimer: (minute: TimeOfDay, task: Task<Void, Never>)?
        defer { dueTimer?.task.cancel() }
        for await input in inputs {
            defer {
                let next = loop.screen.nextDueMinute
                if next != dueTimer?.minute {
                    dueTimer?.task.cancel()
                    dueTimer = next.flatMap { minute in
                        LocalMinute.instant(loop.screen.today, hour: minute.hour, minute: minute.minute).map { target in
                            (minute, Task { if await DueMinuteTimer(now: { WallClock.now() }).wait(until: target) { sink.yield(.dueMinuteCame) } })
                        }
                    }
                }
            }
            if case .resized = input {
                loop.screen.resize(rows: terminal.size.rows, columns: terminal.size.columns)
                terminal.invalidate()
            }
            switch loop.handle(input) {
            case .quit: return
            case .draw: break
            case .editNotes(let todo):
                // The editor gets the terminal as the shell left it, and the keys while it runs.
                keys.pause()
                terminal.restore()
                editorRuns.withLock { $0 = true }
                let outcome = await Self.editNotes(of: todo)
                editorRuns.withLock { $0 = false }
                try terminal.enter()
                terminal.invalidate()
                keys.resume()
                switch outcome {
                case .edited(let notes, let file): loop.sendNotes(notes, of: todo, keptIn: file)
                case .unchanged: loop.screen.show(notice: "notes of #\(todo.number) unchanged")
                case .failed(let message): loop.screen.show(message: message)
                }
            }
            terminal.draw(renderer.render(loop.screen))
        }
    }

    enum NotesOutcome {
        case edited(String, FormFile)
        case unchanged
        case failed(String)
    }

    /// The todo's notes in a private file, through the person's editor, and back.
    static func editNotes(of todo: Todo) async -> NotesOutcome {
        let file: FormFile
        do { file = try FormFile(text: todo.notes, number: todo.number) } catch { return .failed("\(error)") }
        do {
            try await file.edit()
            // Editors end the file with a newline that the notes did not have.
            let notes = try file.read().trimmingTrailingNewlines
            guard notes != todo.notes.trimmingTrailingNewlines else {
                file.remove()
                return .unchanged
            }
            return .edited(notes, file)
        } catch {
            return .failed("\(error)")
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
                    if let store = await SharedStoreStatus.away(asking: client) { Terminal.print(store.sentence) }
                }
            // As `events` does: the changes whose todo meets the filter, whatever its state now.
            case .change(let change, _) where filter.matchesIgnoringStatus(change.todo.todo):
                Terminal.print("\(change.sequence) \(change.line)")
            case .change: break
            case .missed(let after, let through):
                Terminal.print("missed changes \(after + 1)…\(through.map(String.init) ?? "") (output not read in time)")
            case .disconnected(let reason, let retry): Terminal.print("disconnected (\(reason)); retrying in \(retry)")
            case .sharedStore(let status): Terminal.print(status.sentence)
            }
        }
    }
}
