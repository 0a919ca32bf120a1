import Foundation
import TodoModel
import TodoViewModel

/// Everything `todoctl watch` shows, as a value: the list, the selected todo, the
/// scroll position, the connection, the prompt and the status line. Keys and events
/// change it; `render` turns it into the lines of the screen. No I/O here, so every
/// behaviour is unit-tested.
public struct WatchScreen: Sendable {
    public enum Connection: Sendable, Equatable {
        case connecting
        case connected
        case disconnected(retryInSeconds: Int)
    }

    /// What the bottom line is doing.
    public enum Mode: Sendable, Equatable {
        case browsing
        case adding(text: String)
        case editingTitle(id: UUID, revision: Int, text: String)
    }

    /// A request the screen asks its owner to send.
    public enum Command: Sendable, Equatable {
        case add(title: String)
        case toggle(UUID)
        case delete(UUID)
        case restore(UUID)
        case editTitle(UUID, revision: Int, title: String)
        case setPriority(UUID, Priority)
        /// Ask for the whole list under this filter.
        case reload(TodoFilter)
        case quit
    }

    public private(set) var list: TodoListViewModel
    public private(set) var selectedID: UUID?
    public private(set) var selectedIndex = 0
    public private(set) var scrollOffset = 0
    public private(set) var rows: Int
    public private(set) var columns: Int
    public var connection: Connection = .connecting
    /// Open and done todos in the whole database, for the header.
    public var totals = TotalsTracker()
    public private(set) var mode: Mode = .browsing
    public private(set) var message: String?

    public init(filter: TodoFilter = TodoFilter(), rows: Int = 24, columns: Int = 80) {
        list = TodoListViewModel(filter: filter)
        self.rows = max(rows, 3)
        self.columns = max(columns, 20)
    }

    /// How many todo rows fit between the header and the status line.
    public var visibleRows: Int { rows - 2 }

    public var selected: TodoViewModel? {
        list.rows.indices.contains(selectedIndex) ? list.rows[selectedIndex] : nil
    }

    // MARK: Events

    /// A whole list arrived (on connecting, after a filter change or a gap).
    public mutating func incorporate(_ answer: TodoViewModelList) {
        _ = list.incorporate(answer)
        reselect()
    }

    /// A change arrived from any client; returns how the list changed.
    @discardableResult
    public mutating func incorporate(_ change: TodoChange) -> TodoListViewModel.Change {
        let result = list.incorporate(change)
        reselect()
        return result
    }

    public mutating func resize(rows: Int, columns: Int) {
        self.rows = max(rows, 3)
        self.columns = max(columns, 20)
        scrollToSelection()
    }

    /// A request failed: its words are shown, and what the person typed is given back.
    public mutating func failed(_ command: Command, message: String) {
        switch command {
        case .add(let title): mode = .adding(text: title)
        case .editTitle(let id, let revision, let title): mode = .editingTitle(id: id, revision: revision, text: title)
        default: break
        }
        self.message = message
    }

    public mutating func show(message: String?) {
        self.message = message
    }

    // MARK: Keys

    /// Applies a key; returns the request it asks for, if any.
    public mutating func handle(_ key: Key) -> Command? {
        if key == .controlC { return .quit }
        switch mode {
        case .browsing: return browse(key)
        case .adding(let text): return prompt(key, text: text) { .adding(text: $0) } submit: { .add(title: $0) }
        case .editingTitle(let id, let revision, let text):
            return prompt(key, text: text) { .editingTitle(id: id, revision: revision, text: $0) } submit: {
                .editTitle(id, revision: revision, title: $0)
            }
        }
    }

    private mutating func browse(_ key: Key) -> Command? {
        message = nil
        switch key {
        case .up, .character("k"): select(selectedIndex - 1)
        case .down, .character("j"): select(selectedIndex + 1)
        case .pageUp: select(selectedIndex - visibleRows)
        case .pageDown: select(selectedIndex + visibleRows)
        case .home, .character("g"): select(0)
        case .end, .character("G"): select(list.rows.count - 1)
        case .character("q"), .controlD: return .quit
        case .character(" "), .character("x"): return selected.map { .toggle($0.id) }
        case .character("d"): return selected.map { .delete($0.id) }
        case .character("u"):
            guard list.filter.status == .deleted else {
                message = "u restores a deleted todo: press f until the deleted list shows"
                return nil
            }
            return selected.map { .restore($0.id) }
        case .character("a"): mode = .adding(text: "")
        case .character("e"):
            if let selected { mode = .editingTitle(id: selected.id, revision: selected.todo.revision, text: selected.title) }
        case .character("p"): return selected.map { .setPriority($0.id, $0.todo.priority.next) }
        case .character("f"):
            var filter = list.filter
            filter.status = filter.status.next
            list.show(filter)
            reselect()
            return .reload(filter)
        default: break
        }
        return nil
    }

    private mutating func prompt(
        _ key: Key, text: String, editing: (String) -> Mode, submit: (String) -> Command
    ) -> Command? {
        switch key {
        case .escape:
            mode = .browsing
            message = nil
        case .enter:
            mode = .browsing
            message = nil
            return submit(text)
        case .backspace: mode = editing(String(text.dropLast()))
        case .character(let character): mode = editing(text + String(character))
        default: break
        }
        return nil
    }

    // MARK: Selection

    private mutating func select(_ index: Int) {
        selectedIndex = min(max(index, 0), max(list.rows.count - 1, 0))
        selectedID = selected?.id
        scrollToSelection()
    }

    /// Keeps the selection on the same todo while rows above it come and go; when it
    /// leaves the list, the row now at its place is selected.
    private mutating func reselect() {
        if let selectedID, let index = list.index(of: selectedID) {
            selectedIndex = index
        } else {
            select(selectedIndex)
            return
        }
        scrollToSelection()
    }

    private mutating func scrollToSelection() {
        if selectedIndex < scrollOffset { scrollOffset = selectedIndex }
        if selectedIndex >= scrollOffset + visibleRows { scrollOffset = selectedIndex - visibleRows + 1 }
        scrollOffset = max(0, min(scrollOffset, max(list.rows.count - visibleRows, 0)))
    }
}
