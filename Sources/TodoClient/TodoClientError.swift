import TodoViewModel

/// Why a client could not get its answer. Each message says what to do.
public enum TodoClientError: Error, Sendable, CustomStringConvertible {
    /// Nothing listens at the socket path (or it cannot be reached).
    case cannotConnect(path: String, reason: String)
    /// The daemon closed the connection; carries its goodbye, if it said one.
    case disconnected(TodoError?)
    /// The daemon answered with an error (not found, validation, conflict, …).
    case refused(TodoError)
    /// The daemon sent something this client does not understand.
    case protocolViolation(String)

    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason):
            return "cannot reach todod at \(path) (\(reason)): start it with `todod &`, or `systemctl --user enable --now todod.socket`; or point --socket / $TODOD_SOCKET at a running one"
        case .disconnected(let goodbye?):
            return "todod closed the connection: \(goodbye.message)"
        case .disconnected(nil):
            return "todod closed the connection before answering: is it restarting? try again"
        case .refused(let error):
            return error.message
        case .protocolViolation(let detail):
            return "todod sent something this todoctl does not understand (\(detail)): are todod and todoctl the same version?"
        }
    }
}
