import TodoModel

/// A request's payload that a client may leave out: `{"event":"requestLog"}` is `requestLog`
/// with `LogRequest()`, the whole log (docs/PROTOCOL.md). The payload type says so, not a list
/// of events: Event's generated `init(from:)` reads every `data` through `eventData(_:forKey:)`,
/// and the compiler picks the overload below for these types.
public protocol EmptyPayloadDecodable: Decodable {
    /// The value a missing or null `data` stands for.
    init()
}

extension KeyedDecodingContainer {
    /// An event's `data`, which must be there.
    func eventData<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decode(T.self, forKey: key)
    }

    /// An event's `data`, its empty value when missing or null.
    func eventData<T: EmptyPayloadDecodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decodeIfPresent(T.self, forKey: key) ?? T()
    }
}

// An init with every argument defaulted does not meet `init()`: each says its empty value.

/// `requestTodoViewModels` without data: the open todos.
extension TodoFilter: EmptyPayloadDecodable {
    public init() { self.init(status: .open) }
}

/// `requestUndo` without data: the last change.
extension TodoUndo: EmptyPayloadDecodable {
    public init() { self.init(seq: nil) }
}

/// `requestLog` without data: the latest changes.
extension LogRequest: EmptyPayloadDecodable {
    public init() { self.init(since: nil) }
}

/// `requestPurge` without data: every deleted todo.
extension PurgeRequest: EmptyPayloadDecodable {
    public init() { self.init(deletedBefore: nil) }
}

/// `requestConflicts` without data: the open conflicts.
extension ConflictsRequest: EmptyPayloadDecodable {
    public init() { self.init(all: false) }
}
