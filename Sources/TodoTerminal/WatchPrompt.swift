import Foundation
import TodoModel

/// What the bottom line's prompt is typing for: a new todo, one field of a todo (at the
/// revision it was read at), the search, or the tag to filter by.
public enum WatchPrompt: Sendable, Equatable {
    case add
    case title(UUID, revision: Int)
    case due(UUID, revision: Int)
    case tags(UUID, revision: Int)
    /// Planning's fields: the repeat (`1w`, `after 3d`), the parent's number, the day to wait for.
    case every(UUID, revision: Int)
    case parent(UUID, revision: Int)
    case wait(UUID, revision: Int)
    /// The filter as it was when `/` was pressed: what is typed replaces its search and
    /// tags, the rest stays; Escape goes back to it.
    case search(before: TodoFilter)
    case tag

    /// The same prompt for the todo at `revision`: after a conflict, Enter again saves what
    /// was typed over the other change (it resent the old revision, refused each time);
    /// nil for a prompt that edits no todo.
    public func at(revision: Int) -> WatchPrompt? {
        switch self {
        case .title(let id, _): .title(id, revision: revision)
        case .due(let id, _): .due(id, revision: revision)
        case .tags(let id, _): .tags(id, revision: revision)
        case .every(let id, _): .every(id, revision: revision)
        case .parent(let id, _): .parent(id, revision: revision)
        case .wait(let id, _): .wait(id, revision: revision)
        case .add, .search, .tag: nil
        }
    }

    /// The todo whose field it edits; nil for a prompt that edits none.
    public var todo: UUID? {
        switch self {
        case .title(let id, _), .due(let id, _), .tags(let id, _), .every(let id, _), .parent(let id, _), .wait(let id, _): id
        case .add, .search, .tag: nil
        }
    }

    /// The words before the typed text.
    public var label: String {
        switch self {
        case .add: "add"
        case .title: "title"
        case .due: "due"
        case .tags: "tags"
        case .every: "every"
        case .parent: "parent"
        case .wait: "wait"
        case .search: "/"
        case .tag: "tag"
        }
    }
}

/// What was typed into a prompt and sent: given back to the prompt when the request is
/// refused, so that nothing typed is lost.
public struct TypedText: Sendable, Equatable {
    public let prompt: WatchPrompt
    public let text: String

    public init(_ prompt: WatchPrompt, _ text: String) {
        self.prompt = prompt
        self.text = text
    }
}
