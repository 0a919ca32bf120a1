import TodoEvents

/// One line of the protocol: an event, and the correlation of the request it belongs
/// to. `{"event": "requestNewTodo", "id": "r1", "data": {"title": "Buy milk"}}`.
///
/// A client sets `id` on its requests; the daemon's answers carry the same `id` and the
/// asker's `client` number (from its `hello`), so a client knows its own answers even
/// among the changes broadcast to everybody.
public struct WireFrame: Sendable, Equatable {
    public var event: Event
    public var id: String?
    public var client: UInt64?
    /// On a request: the program the client names itself (`todoctl`, `watch`), kept as
    /// the "who" of its changes in the journal. The first request that names one counts.
    public var program: String?
    /// On a write request: the step (the `seq` of its first change) that an earlier request
    /// of the same connection began, which this one's changes go on, so that one `undo`
    /// takes back a command made of several requests (`todoctl done 1 2 3`).
    public var step: UInt64?

    public init(event: Event, id: String? = nil, client: UInt64? = nil, program: String? = nil, step: UInt64? = nil) {
        self.event = event
        self.id = id
        self.client = client
        self.program = program
        self.step = step
    }

    /// The frame for a view event going out to a client, with the correlation of the
    /// request it answers.
    public init(_ event: Event, correlation: Correlation?) {
        let request = correlation?.request
        self.init(event: event, id: request?.isEmpty == false ? request : nil, client: correlation?.client)
    }
}

extension WireFrame: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, client, program, step
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        event = try Event(from: decoder)
        id = try c.decodeIfPresent(String.self, forKey: .id)
        client = try c.decodeIfPresent(UInt64.self, forKey: .client)
        program = try c.decodeIfPresent(String.self, forKey: .program)
        step = try c.decodeIfPresent(UInt64.self, forKey: .step)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(client, forKey: .client)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encodeIfPresent(program, forKey: .program)
        try c.encodeIfPresent(step, forKey: .step)
        try event.encode(to: encoder)
    }
}
