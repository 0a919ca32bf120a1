import TodoModel

/// The numbers of the wire protocol, as `docs/PROTOCOL.md` documents them (section Limits).
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
    /// Arrays and objects nested in one another in any frame, the frame's own object
    /// counting 1 (no request needs more than 4). Deeper is a `badRequest`.
    public static let maximumNesting = 64
    /// The most elements of the `tags`, `notTags`, `addTags` and `removeTags` arrays of one
    /// object in a request, together: eight times the most tags a todo holds, so that
    /// repeats (`--tag a --tag a`) reach validation, which names the request it refuses
    /// (past 32 different tags), while a flood is refused as the line is read.
    public static let maximumTagsPerRequest = 8 * Todo.maximumTagCount
    /// The longest `id` a request may carry, in bytes of UTF-8: it is kept while its
    /// request is in flight (up to 128 per client) and sent back with every answer.
    public static let maximumIDBytes = 256
    /// The most elements of any other array in a request (no request has one; an unknown
    /// field's value is read, and capped, all the same).
    public static let maximumArrayLength = 64
}
