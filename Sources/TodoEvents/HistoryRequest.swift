import TodoModel

/// `requestHistory`: one todo's changes, oldest first, deleted todos included.
public struct HistoryRequest: Sendable, Equatable, Codable {
    public var ref: TodoRef

    public init(ref: TodoRef) {
        self.ref = ref
    }
}
