import TodoModel
import TodoViewModel

/// `requestReplay`: changes from another database's log (`todoctl log --json`), applied
/// as they are (ids, numbers, times, revisions) in one transaction, all or none. Each must
/// follow the todo's current revision, so a log replays into an empty database in order.
/// At most `WireProtocol.maximumArrayLength` changes per request. `sources` names the
/// changes of that log which `changes` refer to (by `step`, `undoes`, `undoneSteps`) but
/// do not hold, so that the steps, undos and redos are kept across requests.
public struct ReplayRequest: Sendable, Equatable, Codable {
    public var changes: [JournaledChange]
    public var sources: [ReplaySource]

    public init(changes: [JournaledChange], sources: [ReplaySource] = []) {
        self.changes = changes
        self.sources = sources
    }

    private enum CodingKeys: String, CodingKey { case changes, sources }

    // A replay from before `sources` sends only `changes`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(changes: try c.decode([JournaledChange].self, forKey: .changes),
                  sources: try c.decodeIfPresent([ReplaySource].self, forKey: .sources) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(changes, forKey: .changes)
        if !sources.isEmpty { try c.encode(sources, forKey: .sources) }
    }
}
