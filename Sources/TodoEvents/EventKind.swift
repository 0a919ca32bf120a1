// `EventKind` itself, the name of each of `Event`'s cases, is generated from Event.swift at
// build time (Plugins/EventListPlugin); what is said of the names is here.
extension EventKind {
    public var isRequest: Bool { rawValue.hasPrefix("request") }

    /// The view requests a client may send.
    public static let viewRequests: Set<EventKind> = Set(allCases.filter(\.isRequest))

    /// The view responses the daemon sends to clients.
    public static let viewResponses: Set<EventKind> = Set(allCases.filter { !$0.isRequest })
}
