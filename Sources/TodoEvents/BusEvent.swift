/// What the bus carries: a view event, which a client sent or will receive, or a model
/// event, which never leaves the daemon.
public enum BusEvent: Sendable, Equatable {
    case view(Event)
    case model(ModelEvent)

    /// What a subscription names: a view event's kind or a model event's.
    public enum Kind: Sendable, Hashable {
        case view(EventKind)
        case model(ModelEvent.Kind)
    }

    public var kind: Kind {
        switch self {
        case .view(let event): .view(event.kind)
        case .model(let event): .model(event.kind)
        }
    }

    /// The view event, when it is one.
    public var view: Event? {
        if case .view(let event) = self { event } else { nil }
    }

    /// The model event, when it is one.
    public var model: ModelEvent? {
        if case .model(let event) = self { event } else { nil }
    }
}
