/// Who asked: the client (0 inside the daemon) and the id it gave its request. Every
/// event caused by a request carries the request's correlation, through the whole chain.
public struct Correlation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var client: UInt64
    public var request: String
    /// The program the client named itself (`todoctl`, `watch`), for the journal's "who".
    public var program: String
    /// The step the request's changes go on (`WireFrame.step`), when it names one.
    public var step: UInt64?

    public init(client: UInt64, request: String, program: String = "", step: UInt64? = nil) {
        self.client = client
        self.request = request
        self.program = program
        self.step = step
    }

    public var description: String { "\(client)/\(request)" }
}

/// An event as the bus carries it: with its place in the bus's order and the
/// correlation of the request that caused it.
public struct Envelope: Sendable, Equatable {
    /// Assigned by the bus at publish time; strictly increasing.
    public var sequence: UInt64
    public var correlation: Correlation?
    public var event: BusEvent

    public init(sequence: UInt64, correlation: Correlation?, event: BusEvent) {
        self.sequence = sequence
        self.correlation = correlation
        self.event = event
    }

    /// The view event it carries, when it carries one.
    public var view: Event? { event.view }

    /// The model event it carries, when it carries one.
    public var model: ModelEvent? { event.model }
}
