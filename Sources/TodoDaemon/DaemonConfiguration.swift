import Logging
import SharedStoreContract
import TodoServers

/// What `todod` was asked to do.
public struct DaemonConfiguration: Sendable {
    public var socketPath: String
    public var databasePath: String
    /// A daemon with no client for this long exits (for socket activation); nil: never.
    public var exitIdleAfter: Duration?
    /// A directory kept as a vdir of iCalendar files, one per todo (`--ical-dir`); nil: none.
    public var icalDirectory: String?
    public var logger: Logger
    /// Opens the store shared with other daemons (`--store`), whose replica the database
    /// then is; nil: the database alone.
    public var sharedStore: (@Sendable (Logger) throws -> any SharedStore)?

    public init(socketPath: String, databasePath: String, exitIdleAfter: Duration? = nil, icalDirectory: String? = nil, logger: Logger,
                sharedStore: (@Sendable (Logger) throws -> any SharedStore)? = nil) {
        self.socketPath = socketPath
        self.databasePath = databasePath
        self.exitIdleAfter = exitIdleAfter
        self.icalDirectory = icalDirectory
        self.logger = logger
        self.sharedStore = sharedStore
    }
}

/// Why the daemon could not start; the message says what to do.
public struct DaemonError: Error, CustomStringConvertible, Sendable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
