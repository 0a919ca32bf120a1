import TodoViewModel

/// `requestReplay`: changes from another database's log (`todoctl log --json`), applied
/// as they are (ids, numbers, times, revisions) in one transaction, all or none. Each must
/// follow the todo's current revision, so a log replays into an empty database in order.
/// At most `WireProtocol.maximumArrayLength` changes per request.
public struct ReplayRequest: Sendable, Equatable, Codable {
    public var changes: [JournaledChange]

    public init(changes: [JournaledChange]) {
        self.changes = changes
    }
}
