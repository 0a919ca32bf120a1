import Foundation
import TodoModel
import TodoViewModel

/// Everything `todoctl watch` shows, as a value: the list, the selected todo, the
/// scroll position, the connection, the prompt, the detail pane and the status lines.
/// Keys and events change it; `WatchRenderer` turns it into the lines of the screen. No
/// I/O here, so every behaviour is unit-tested.
public struct WatchScreen: Sendable {
    public enum Connection: Sendable, Equatable {
        case connecting
        case connected
        case disconnected(retryInSeconds: Int)
    }

    /// What the keys are doing.
    public enum Mode: Sendable, Equatable {
        case browsing
        /// A prompt and its line, edited as readline edits one.
        case prompting(WatchPrompt, LineEditor)
        /// The `?` page of every key; any key closes it.
        case help
    }

    /// A request the screen asks its owner to send.
    public enum Command: Sendable, Equatable {
        case add(NewTodo, typed: TypedText)
        /// x: mark the todo done (`done` true) or open, as the screen showed it the other way:
        /// what the press meant, so that two windows pressing x on a todo at once both leave it
        /// done, where a toggle sent twice reopened it (outside probe).
        case toggle(UUID, done: Bool)
        case delete(UUID)
        case restore(UUID)
        /// Edit fields; `revision` is the one the edit was based on (nil: whatever is current).
        case edit(UUID, revision: Int?, TodoEdit, typed: TypedText?)
        /// Open this todo's notes in the person's editor (which only the owner can do).
        case editNotes(UUID)
        /// Undo the last change still in effect, whoever made it (again: the one before).
        case undo
        /// Take back the last undo.
        case redo
        /// Ask for this todo's history, for the pane.
        case history(UUID)
        /// Ask for the whole list under this filter.
        case reload(TodoFilter)
        case quit

        /// Whether it adds a todo.
        public var isAdd: Bool {
            if case .add = self { true } else { false }
        }
    }

    public internal(set) var list: TodoListViewModel
    /// A list answer came: until then an empty screen is one still loading, not an empty list.
    public private(set) var listArrived = false
    /// Progress and context parents, kept live between list answers.
    public private(set) var subtasks = SubtaskTracker()
    /// Parents (by number) whose subtasks are folded away (`z`).
    public internal(set) var folded: Set<Int> = []
    /// The rows as shown: the list as `todoctl list` outlines it (subtasks under their
    /// parent, context parents), less the subtasks of folded parents. The selection and
    /// the scrolling count these.
    public private(set) var entries: [TodoOutline.Entry] = []
    public internal(set) var selectedID: UUID?
    public internal(set) var selectedIndex = 0
    public internal(set) var scrollOffset = 0
    public private(set) var rows: Int
    /// The columns the screen is laid out in: 20 at least, however narrow the terminal.
    public private(set) var columns: Int
    /// The terminal's own columns, 1 at least: under 20 the renderer cuts each line there
    /// (lines laid out in 20 ran past the edge; outside probe).
    public private(set) var terminalColumns: Int
    public var connection: Connection = .connecting
    /// The daemon's shared store is unreachable: a status line says so until it is back.
    public var storeOutage: StoreOutage? {
        // A notice from before (such as "reachable again") would contradict the outage's line.
        didSet { if storeOutage != nil, oldValue == nil { notice = nil } }
    }
    /// Conflicts kept on this machine when its changes made offline were shared, not yet
    /// taken or left: a status line counts them while there are any.
    public var openConflicts = 0
    /// Open and done todos in the whole database, for the header.
    public var totals = TotalsTracker()
    public internal(set) var mode: Mode = .browsing
    /// The todo a field's prompt edits, by id and number (`#24`), for the prompt's label: the
    /// selection moves on when that todo leaves the view, and the prompt (`title: …`) then
    /// seemed to edit the row selected (outside probe 10).
    public internal(set) var promptTodo: (id: UUID, number: String)?
    /// What went wrong, in red on the bottom lines until the next key.
    public internal(set) var message: String?
    /// What went right (notes saved, a change undone), plain, until the next key.
    public internal(set) var notice: String?
    /// The day due dates are told against ("today", "tomorrow"); the owner moves it on at
    /// local midnight; the list judges waits on it too.
    public var today: LocalDate {
        didSet { list.today = today }
    }
    /// The minute it is on `today`, which the owner sets as inputs come: rows say today's due
    /// times from it (`in 2 h`, overdue from 15:00), and `a`, `d` and `w` read `15:00` or `now`
    /// against it. Nil: rows by the day, times read from midnight.
    public var now: TimeOfDay?
    /// The next minute today at which a row on screen says its due time otherwise: the next
    /// minute while one says minutes (`in 45 min`, `due now`, `5 min overdue`), the next whole
    /// hour of one that says hours (`in 3 h`, `2 h overdue`), when it turns overdue among them;
    /// for the owner's `DueMinuteTimer`. Nil when no row on screen has a due time today, so
    /// that a screen without one sets no timer. (Only the due minutes were: between them, `8
    /// min overdue` stood while list said 9; outside probe 12.)
    public var nextDueMinute: TimeOfDay? {
        guard let now else { return nil }
        let shown = entries.dropFirst(scrollOffset).prefix(visibleRows)
        return shown.lazy.map(\.row.todo).filter { $0.due == today && !$0.isCompleted && !$0.isDeleted }
            .compactMap { $0.dueTime.flatMap { TimeOfDay(minutes: now.minutes + Self.minutesToNextWords(dueIn: $0.minutes - now.minutes)) } }
            .min()
    }

    /// Minutes until the words of a due time `minutes` ahead (behind, when negative) change, as
    /// `TodoViewModel.describe` says them: each minute under an hour either way, at the next whole
    /// hour beyond (`in 2 h` at 120 minutes ahead becomes `in 1 h` a minute later; `1 h overdue`
    /// at 60 minutes behind, `2 h overdue` an hour later).
    static func minutesToNextWords(dueIn minutes: Int) -> Int {
        if abs(minutes) < 60 { return 1 }
        if minutes > 0 { return minutes % 60 + 1 }
        return (-minutes / 60 + 1) * 60 + minutes
    }
    /// What shows below the list: nothing, the selected todo in full (Enter) or its history (h).
    public enum Pane: Sendable, Equatable { case none, detail, history }
    public internal(set) var pane = Pane.none
    public var showsDetail: Bool { pane == .detail }
    /// The history pane's lines for one todo, as the owner last fetched them.
    public internal(set) var history: (id: UUID, lines: [String])?
    /// Every tag seen in a list or change, for `t` to offer.
    public internal(set) var knownTags: Set<String> = []
    /// The filter watch was started with (`watch -t work`): Escape in the list comes back
    /// to it, clearing only the search and tag set since (it cleared `-t work` too).
    public let startingFilter: TodoFilter
    /// The context applied when watch started (`context: work (project:work +office)`),
    /// which the header names so that nobody wonders where the other todos went.
    public var context: String?

    public init(filter: TodoFilter = TodoFilter(), rows: Int = 24, columns: Int = 80, today: LocalDate = LocalDate(Date())) {
        list = TodoListViewModel(filter: filter, today: today)
        startingFilter = TodoValidation.normalised(filter)
        self.rows = max(rows, 6)
        self.columns = max(columns, 20)
        terminalColumns = max(columns, 1)
        self.today = today
    }

    public var selected: TodoViewModel? {
        entries.indices.contains(selectedIndex) ? entries[selectedIndex].row : nil
    }

    /// Whether a prompt has the keys.
    public var isPrompting: Bool {
        if case .prompting = mode { true } else { false }
    }

    /// Whether the outline nests (a subtask or a parent's progress shows), so that the
    /// renderer leaves room for an indent and a progress.
    public var isNested: Bool { entries.contains { $0.depth > 0 || $0.progress != nil } }

    /// A listed subtask's parent is unknown here: the owner asks for the whole list, which
    /// brings the parent as context.
    public var needsContext: Bool { subtasks.lacksParent(in: list) }

    // MARK: Layout

    /// Lines of the detail pane (its rule included), when it is open: as many as the
    /// selected todo needs, up to two thirds of the room, so that the list keeps some.
    public var detailHeight: Int {
        guard pane != .none else { return 0 }
        let needed = 1 + paneLines.count
        let room = rows - 2 - statusLines.count
        return max(2, min(needed, room * 2 / 3))
    }

    /// The pane's lines below its rule: the selected todo in full, or its history.
    public var paneLines: [String] {
        guard let selected else { return ["nothing selected"] }
        switch pane {
        case .none: return []
        case .detail: return TodoDetailPane(selected.todo, today: today).lines(columns: columns - 2)
        case .history:
            guard let history, history.id == selected.id else { return TerminalText.wrapped("history of \(selected.numberText): asking…", toWidth: columns - 2) }
            return (["history of \(selected.numberText), oldest first:"] + history.lines.map { TerminalText.escaped($0) }).flatMap { TerminalText.wrapped($0, toWidth: columns - 2) }
        }
    }

    /// The bottom lines as text: the shared store's outage, the prompt, then the message
    /// wrapped between words (at most a third of the screen), or else the help line.
    public var statusLines: [WatchStatusLine] {
        var lines: [WatchStatusLine] = []
        if let storeOutage, connection == .connected {
            lines += wrapped(storeOutage.line, as: .outage, atMost: max(1, rows / 5))
        }
        if openConflicts > 0, connection == .connected {
            let counted = openConflicts == 1 ? "1 conflict" : "\(openConflicts) conflicts"
            lines += wrapped("\(counted) from sharing changes made offline: take or leave each with todoctl conflicts", as: .outage, atMost: 1)
        }
        if case .prompting(let prompt, let editor) = mode { lines.append(promptLine(prompt, editor: editor)) }
        if let (words, kind) = message.map({ ($0, WatchStatusLine.Kind.message) }) ?? notice.map({ ($0, .notice) }) {
            lines += wrapped(words, as: kind, atMost: max(1, rows / 3))
        }
        if lines.allSatisfy({ $0.kind == .outage }) { lines.append(WatchStatusLine(kind: .help, text: WatchKeys.helpLine(columns: columns))) }
        // Under a prompt, its editing keys, where no message is.
        if lines.last?.kind == .prompt { lines.append(WatchStatusLine(kind: .help, text: WatchKeys.promptLine(columns: columns))) }
        return lines
    }

    /// `words`, escaped, wrapped between words on at most `most` lines, the last one ending
    /// with `…` when cut.
    private func wrapped(_ words: String, as kind: WatchStatusLine.Kind, atMost most: Int) -> [WatchStatusLine] {
        var wrapped = TerminalText.wrapped(TerminalText.escaped(words), toWidth: columns)
        if wrapped.count > most {
            wrapped = Array(wrapped.prefix(most))
            wrapped[most - 1] = TerminalText.truncated(wrapped[most - 1] + " …", toWidth: columns)
        }
        return wrapped.map { WatchStatusLine(kind: kind, text: $0) }
    }

    /// How many todo rows fit between the header and the line that marks rows above and below.
    public var visibleRows: Int { max(1, rows - 2 - detailHeight - statusLines.count) }

    /// The prompt's line: its label, the text around the cursor `▏` (the old value reversed
    /// while selected), scrolled sideways so that the cursor shows; for `t`, the tags that
    /// complete what is typed.
    private func promptLine(_ prompt: WatchPrompt, editor: LineEditor) -> WatchStatusLine {
        // The terminal's own columns: laid out in 20 and cut at the edge by the renderer,
        // the cursor went past the edge of a narrower terminal, out of sight (outside probe).
        let width = min(columns, terminalColumns)
        let number = promptTodo.flatMap { $0.id == prompt.todo ? $0.number + " " : nil } ?? ""
        let whole = number + prompt.label + (prompt.label == "/" ? "" : ": ")
        // The label gives way to the text where it would leave the text under 5 columns.
        let label = TerminalText.width(whole) + 1 + 5 <= width ? whole : ""
        let room = max(width - TerminalText.width(label) - 1, 1)
        // Escaped on each side, so that the cursor never lands inside a written-out control.
        let before = TerminalText.escaped(editor.beforeCursor)
        let after = TerminalText.escaped(editor.afterCursor)
        // A long line keeps up to a quarter of the room for what follows the cursor.
        let shownBefore = TerminalText.suffix(of: before, toWidth: room - min(TerminalText.width(after), room / 4))
        let rest = room - TerminalText.width(shownBefore)
        let head = rest > 0 ? TerminalText.prefix(of: after, toWidth: rest) : ""
        let shownAfter = TerminalText.width(head) <= rest ? head : ""
        var line = label + shownBefore + "▏" + shownAfter
        // Counted in UTF-8, which joining strings never changes (characters may merge).
        let start = line.utf8.index(line.startIndex, offsetBy: label.utf8.count)
        let selection = editor.isSelected && !shownBefore.isEmpty ? start..<line.utf8.index(start, offsetBy: shownBefore.utf8.count) : nil
        if case .tag = prompt {
            for tag in tagCompletions(of: editor.text) {
                let next = line + "  #" + TerminalText.escaped(tag)
                guard TerminalText.width(next) <= width else { break }
                line = next
            }
        }
        return WatchStatusLine(kind: .prompt, text: line, reversed: selection)
    }

    /// Known tags that start with `text` (a leading `#` aside), in order.
    func tagCompletions(of text: String) -> [String] {
        let typed = text.hasPrefix("#") ? String(text.dropFirst()) : text
        return knownTags.filter { $0.hasPrefix(typed) }.sorted()
    }

    // MARK: Events

    /// A whole list arrived (on connecting, after a filter change or a gap).
    public mutating func incorporate(_ answer: TodoViewModelList) {
        listArrived = true
        _ = list.incorporate(answer)
        subtasks.reset(answer)
        for row in answer.todos { knownTags.formUnion(row.todo.tags) }
        reselect()
    }

    /// A change arrived from any client; returns how the list changed.
    @discardableResult
    public mutating func incorporate(_ change: TodoChange) -> TodoListViewModel.Change {
        // The tracker counts only changes the list has not seen yet.
        if change.kind != .unchanged, change.sequence > list.asOf || change.sequence == 0 { subtasks.incorporate(change) }
        let result = list.incorporate(change)
        knownTags.formUnion(change.todo.todo.tags)
        reselect()
        return result
    }

    public mutating func resize(rows: Int, columns: Int) {
        self.rows = max(rows, 6)
        self.columns = max(columns, 20)
        terminalColumns = max(columns, 1)
        scrollToSelection()
    }

    /// A request failed: its words are shown, and what the person typed is given back.
    public mutating func failed(_ command: Command, message: String) {
        switch command {
        case .add(_, let typed): mode = .prompting(typed.prompt, LineEditor(typed.text))
        case .edit(_, _, _, let typed?): mode = .prompting(typed.prompt, LineEditor(typed.text))
        default: break
        }
        self.message = message
    }

    public mutating func show(message: String?) {
        self.message = message
        notice = nil
        scrollToSelection()
    }

    /// A todo's history arrived; it shows while that todo is selected.
    public mutating func showHistory(of id: UUID, lines: [String]) {
        history = (id, lines)
        scrollToSelection()
    }

    /// Takes `notice` away, unless another notice or a message took its place.
    public mutating func withdraw(notice: String) {
        if self.notice == notice { self.notice = nil }
    }

    public mutating func show(notice: String) {
        self.notice = notice
        message = nil
        scrollToSelection()
    }

    // MARK: Selection

    mutating func select(_ index: Int) {
        selectedIndex = min(max(index, 0), max(entries.count - 1, 0))
        selectedID = selected?.id
        scrollToSelection()
    }

    /// Keeps the selection on the same todo while rows above it come and go; when it
    /// leaves the list, the row now at its place is selected.
    mutating func reselect() {
        entries = TodoOutline(subtasks.answer(for: list)).entries.filter { entry in
            entry.depth == 0 || !(entry.row.todo.parent.map(folded.contains) ?? false)
        }
        if let selectedID, let index = entries.firstIndex(where: { $0.row.id == selectedID }) {
            selectedIndex = index
        } else {
            select(selectedIndex)
            return
        }
        scrollToSelection()
    }

    mutating func scrollToSelection() {
        if selectedIndex < scrollOffset { scrollOffset = selectedIndex }
        if selectedIndex >= scrollOffset + visibleRows { scrollOffset = selectedIndex - visibleRows + 1 }
        scrollOffset = max(0, min(scrollOffset, max(entries.count - visibleRows, 0)))
    }
}
