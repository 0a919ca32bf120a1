import TodoWire

/// What a `TodoClient` hears besides its own answers.
public enum Broadcast: Sendable, Equatable {
    /// A change any client made (`responseTodoViewModel`), news of the shared store
    /// (`responseSharedStore`), or the daemon's goodbye.
    case frame(WireFrame)
    /// The user left more than `TodoClient.maximumUnreadBroadcasts` unread, and the
    /// changes after those were dropped: what it shows may be out of date, so it should
    /// ask again (the list, the status). The next change's sequence number tells how
    /// many were missed.
    case missed
}
