import TodoModel

/// `requestHistory`: one todo's changes, oldest first, deleted todos included; with
/// `after`, those after that change (the next page of an answer that said `more`).
public struct HistoryRequest: Sendable, Equatable, Codable {
    public var ref: TodoRef
    public var after: UInt64?

    public init(ref: TodoRef, after: UInt64? = nil) {
        self.ref = ref
        self.after = after
    }
}
