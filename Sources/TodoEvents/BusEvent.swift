/// What the bus carries: a view event, which a client sent or will receive, or a model
/// event, which never leaves the daemon.
///
/// Indirect: each event lives in a box of its own, so that a copy of an envelope is one
/// retain, not one for every reference the event holds (a list's filter alone holds a
/// dozen). The bus copies an envelope several times on its way to its subscribers (12
/// copies for a one-todo read), and those copies were an eighth of the daemon's
/// instructions answering it (callgrind, a bare client asking in a loop).
public indirect enum BusEvent: Sendable, Equatable {
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
