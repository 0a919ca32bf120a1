import TodoPaths
import TodoViewModel

/// Why a client could not get its answer. Each message says what to do.
public enum TodoClientError: Error, Sendable, CustomStringConvertible {
    /// Nothing listens at the socket path (or it cannot be reached).
    case cannotConnect(path: String, reason: String)
    /// The socket is not todod's for sure: its directory could be another user's
    /// plant, or the process listening runs as another user. Nothing was sent.
    case untrusted(path: String, reason: String)
    /// The path is a file, not a socket (a database given to --socket, say): nothing to start there.
    case notASocket(path: String)
    /// Something listens at the socket path but does not answer as todod does: nothing came
    /// within `TodoConnection.helloWait` (todod says hello at once), or what came was no hello.
    case notTodod(path: String, reason: String)
    /// The daemon closed the connection; carries its goodbye, if it said one.
    case disconnected(TodoError?)
    /// The daemon answered with an error (not found, validation, conflict, …).
    case refused(TodoError)
    /// The daemon sent something this client does not understand.
    case protocolViolation(String)
    /// An answer longer than the longest line this client reads (`maximumResponseLength`):
    /// not a version mismatch, just too much asked at once.
    case answerTooLong(bytes: Int)

    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason):
            // The default socket is where `todod &` and the user unit listen; another needs naming.
            guard path == DefaultPaths.socketPath() else {
                return "cannot reach todod at \(path) (\(reason)): start one there with `todod --socket \(path) &`; or point --socket / $TODOD_SOCKET at a running one"
            }
            return "cannot reach todod at \(path) (\(reason)): start it with `todod &`, or `systemctl --user enable --now todod.socket`; or point --socket / $TODOD_SOCKET at a running one"
        case .notASocket(let path):
            // Advising `todod --socket PATH` here, whose answer is to remove the file, said together to delete a database (outside probe 11, F13).
            return """
                \(path) is a file, not a socket: --socket and $TODOD_SOCKET name the socket todod listens on (\(DefaultPaths.socketPath()) \
                unless todod was given --socket), not its database
                """
        case .notTodod(let path, let reason):
            return """
                \(path) does not answer as todod does (\(reason)): it is another program's socket, or a todod stopped or still starting \
                (a long catch-up from its shared store); point --socket / $TODOD_SOCKET at todod's socket, or try again once it runs
                """
        case .untrusted(let path, let reason):
            return "refusing to talk to \(path): \(reason); another user may have put a fake todod there. Set XDG_RUNTIME_DIR (a login session does), or point --socket / $TODOD_SOCKET at a socket in a directory of your own with mode 0700"
        case .disconnected(let goodbye?):
            return "todod closed the connection: \(goodbye.message)"
        case .disconnected(nil):
            return "todod closed the connection before answering: is it restarting? try again"
        case .refused(let error):
            return error.message
        case .answerTooLong(let bytes):
            return "todod's answer was longer than the \(bytes >> 20) MiB todoctl reads in one line, and was not read: ask for less at once (a narrower filter, or --limit)"
        case .protocolViolation(let detail):
            return "todod sent something this todoctl does not understand (\(detail)): are todod and todoctl the same version?"
        }
    }
}
