import Logging
import NIOCore
import Synchronization

/// What the listener does when `accept` fails (out of file descriptors: EMFILE, ENFILE):
/// NIO's `AcceptBackoffHandler` stops accepting for a while instead of retrying at
/// once, which would spin a core; the first failure of a run of them is logged.
enum AcceptBackoff {
    /// How long accepting pauses after a failure.
    static let pause: TimeAmount = .milliseconds(250)

    static func handler(logger: Logger) -> AcceptBackoffHandler {
        let lastLogged = Mutex<NIODeadline?>(nil)
        return AcceptBackoffHandler(shouldForwardIOErrorCaught: false) { error in
            let now = NIODeadline.now()
            let log = lastLogged.withLock { last in
                defer { last = now }
                return last.map { now - $0 > .seconds(60) } ?? true
            }
            if log {
                logger.error("cannot accept connections (\(error.description)): pausing; too many clients or open files? (raise LimitNOFILE)")
            }
            return pause
        }
    }
}
