/// The numbers of the wire protocol, as `docs/PROTOCOL.md` documents them.
public enum WireProtocol {
    /// Raised on any change a client must know about to talk to the daemon.
    public static let version = 1
    /// The longest request line the daemon reads, newline excluded: 1 MiB. A longer one
    /// is answered with `frameTooLong` and the connection is closed.
    public static let maximumRequestLength = 1 << 20
    /// The longest line a client accepts from the daemon (a list of many todos is long).
    public static let maximumResponseLength = 256 << 20
    /// Bytes a client may leave unread before the daemon disconnects it.
    public static let maximumUnreadBytes = 8 << 20
}
