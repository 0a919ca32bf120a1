import ArgumentParser
import TodoClient
import TodoEvents
import TodoModel
import TodoViewModel
import TodoWire

struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events", abstract: "Print every change any client makes, one line each, until interrupted.",
        discussion: """
            When todod goes away (a restart, an upgrade), events says so on stderr and connects \
            again, waiting 0.1 s, then twice as long each time up to 5 s; with --once it exits 69 \
            instead. Back, it first prints the changes made while it was away (from the daemon's \
            journal). Changes dropped because its output was not read in time are read from the \
            journal as soon as it reads again; past 1000 of them, or 1000 made while it was away, \
            they are not printed, and stderr names their sequence numbers at once. With a \
            shared store (todod --store), stderr also says when it becomes unreachable and reachable again \
            (with --json, stdout has the responseSharedStore line). The \
            filter options keep the changes whose todo, after the change, meets them (whatever its state); \
            +BLOCKED, +BLOCKING, +READY and depends:N are refused, as one todo alone cannot say \
            whether it meets them.
            """)

    @OptionGroup(title: "Filter") var filter: FilterOptions
    @OptionGroup var connection: ConnectionOptions
    @Flag(name: .shortAndLong, help: "Print each event as the raw JSON line the daemon sent.") var json = false
    @Flag(help: "Exit (status 69) when the daemon goes away, instead of connecting again: for scripts.") var once = false

    /// Read at each change, so `--overdue` follows the day as it turns.
    private var conditions: TodoFilter { filter.filter(status: .all) }

    func validate() throws {
        try filter.refuseRefs()
        // Decided with every todo at hand (`TodoFilter.readsOtherTodos`): a change carries one
        // todo, so these were silently not applied and every change was printed.
        if conditions.readsOtherTodos {
            throw ValidationError("""
                events keeps a change by its todo alone, which cannot say whether it is blocked, blocking, ready \
                or waits for another todo (+BLOCKED, +BLOCKING, +READY, depends:N): leave those out, or follow such a list \
                live with todoctl watch (todoctl watch +BLOCKED)
                """)
        }
    }

    func run() async throws {
        if once { return try await runOnce() }
        var last: UInt64?
        var lastReason: String?
        await DaemonLink(socketPath: connection.socketPath).run { update in
            switch update {
            case .connected(let client):
                if let last, client.hello.sequence > last {
                    Terminal.error("reconnected; changes \(last + 1)…\(client.hello.sequence) were made meanwhile, catching up")
                } else if last != nil {
                    Terminal.error("reconnected")
                }
                if last == nil { last = client.hello.sequence }
                lastReason = nil
                Task {
                    if let store = await SharedStoreStatus.away(asking: client) { printStatus(store) }
                }
            case .change(let change, let frame):
                last = change.sequence
                do {
                    try print(change, frame)
                } catch {
                    Terminal.error("cannot print change \(change.sequence): \(error)")
                }
            case .missed(let after, let through):
                // Said as soon as it is known, not with the next change (which may never come).
                let changes = through.map { $0 > after + 1 ? "changes \(after + 1)…\($0) are" : "change \($0) is" } ?? "changes after \(after) are"
                Terminal.error("\(changes) not shown: the output was not read in time, or too many were made while away")
                last = through ?? last
            case .disconnected(let reason, let retry):
                // The reason once; while it stays the same, only the next attempt.
                Terminal.error(reason == lastReason ? "still waiting; connecting again in \(retry)" : "\(reason); connecting again in \(retry)")
                lastReason = reason
            case .sharedStore(let status):
                printStatus(status)
            }
        }
    }

    /// Today's behaviour for scripts: one connection, exit 69 when it ends.
    private func runOnce() async throws {
        let client: TodoClient
        do {
            client = try await TodoClient.connect(to: connection.socketPath)
        } catch {
            throw Session.fail(error)
        }
        for await broadcast in client.broadcasts {
            guard case .frame(let frame) = broadcast else {
                Terminal.error("some changes were dropped: the output was not read in time")
                continue
            }
            switch frame.event {
            case .responseTodoViewModel(let change):
                try print(change, frame)
            case .responseGoodbye(let reason):
                if json { Terminal.print(try WireCodec.json(frame)) }
                throw Session.fail(.disconnected(reason))
            case .responseSharedStore(let status):
                printStatus(status)
            default:
                continue
            }
        }
        throw Session.fail(.disconnected(nil))
    }

    /// The shared store's news: its frame with --json (scripts read stdout), else a line on stderr.
    private func printStatus(_ status: SharedStoreStatus) {
        guard json, let line = try? WireCodec.json(WireFrame(event: .responseSharedStore(status))) else { return Terminal.error(status.sentence) }
        Terminal.print(line)
    }

    private func print(_ change: TodoChange, _ frame: WireFrame) throws {
        guard conditions.matchesIgnoringStatus(change.todo.todo) else { return }
        Terminal.print(json ? try WireCodec.json(frame) : "\(change.sequence) \(change.line)")
    }
}
