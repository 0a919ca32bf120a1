import TodoViewModel

/// The codes of the connection itself, which only the daemon's socket side gives (in a
/// `responseGoodbye`, and `shuttingDown` in a `responseError` too): the ViewModel knows
/// what a request may be refused for, not how the socket ends (docs/PROTOCOL.md,
/// "responseError and responseGoodbye").
extension TodoError.Code {
    /// A request line longer than `WireProtocol.maximumRequestLength`; the connection is closed.
    public static let frameTooLong = Self(rawValue: "frameTooLong")
    /// The client left more than `WireProtocol.maximumUnreadBytes` unread; the connection is closed.
    public static let overloaded = Self(rawValue: "overloaded")
    /// The daemon is shutting down: a request is refused, or the connection closed.
    public static let shuttingDown = Self(rawValue: "shuttingDown")
    /// The peer is another user than the daemon's.
    public static let permissionDenied = Self(rawValue: "permissionDenied")
}
