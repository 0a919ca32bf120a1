import ArgumentParser
import TodoClient
import TodoEvents
import TodoViewModel
import TodoWire

struct LogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Show every change (or the last --limit), newest last.",
        discussion: """
            A change marked (step N) goes with change N: one command made them (`done 1 2 3`, \
            an import, a completion and the next occurrence it made), and one undo takes them \
            back together. In a terminal (or with COLUMNS) a line ends at its edge, what the \
            change did cut with … (the client's name going first where that leaves it under 12 \
            columns); through a pipe it is whole.

            With --json each line is one change in the shape of the daemon's broadcasts \
            (change, seq, todo) plus at, client, program and before: a stream that \
            `todoctl replay` turns back into the same todos in an empty database.
            """)

    // Unconditional: `--since -10m` starts with a dash.
    @Option(parsing: .unconditional, help: ArgumentHelp("Only changes made since then: \(WhenArgument.accepted).", valueName: "when"), transform: WhenArgument.checked)
    var since: WhenArgument?
    // Unconditional: `--limit -1` is a value to refuse with the range, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp("At most this many changes, the last ones (1–\(ChangeList.maximumChanges)).", valueName: "n"))
    var limit: Int?
    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Print one change per line as JSON.") var json = false

    func validate() throws {
        if let limit, !(1...ChangeList.maximumChanges).contains(limit) {
            throw ValidationError("--limit takes 1 to \(ChangeList.maximumChanges), not \(limit)")
        }
    }

    func run() async throws {
        var shown = 0
        var widths = (seq: 0, number: 0)
        try Session.run(connection) { client in
            try read(client) { list in
                // Seqs grow down the log: while another page may follow, as wide as the
                // journal's last (the list's seq), so that the columns hold across pages.
                let page = JournaledChange.widths(of: list.changes)
                let mayGoOn = list.more == true || list.changes.count == ChangeList.maximumChanges
                widths = (max(widths.seq, page.seq, mayGoOn ? String(list.seq).count : 0), max(widths.number, page.number))
                for change in list.changes { Terminal.print(json ? try WireCodec.json(change) : change.logLine(widths)) }
                shown += list.changes.count
            }
        }
        // An empty journal printed nothing, as if todoctl had failed quietly; --json stays an
        // empty stream for scripts.
        guard shown == 0, !json else { return }
        Terminal.print(since == nil ? "no changes yet: the journal is empty (todoctl add makes the first)" : "no changes since then: todoctl log without --since shows them all")
    }

    /// The changes asked for, handed to `show` a page at a time.
    private func read(_ client: TodoConnection, _ show: (ChangeList) throws -> Void) throws {
        // The last --limit: the first answer starts them; one that stopped at its size
        // bound (`more`) is followed by the next after its last change, up to --limit.
        if let limit {
            var left = limit
            var list = try JournalPages.page(client, LogRequest(since: since?.date, limit: limit))
            while true {
                try show(list)
                left -= list.changes.count
                guard list.more == true, left > 0, let last = list.changes.last else { return }
                list = try JournalPages.page(client, LogRequest(since: since?.date, after: last.sequence, limit: left))
            }
        }
        // Every change: page forward through the journal, one answer's worth at a time.
        try JournalPages.read(client, since: since?.date, show)
    }

}
