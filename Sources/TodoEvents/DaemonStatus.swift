/// The daemon's first line to every client (`responseHello`).
public struct ServerHello: Sendable, Equatable, Codable {
    /// Incremented on any change a client must know about to talk to this daemon.
    public var protocolVersion: Int
    public var serverVersion: String
    /// This connection's client number, as it appears in the `client` field of events.
    public var client: UInt64
    /// The sequence number of the last committed change.
    public var sequence: UInt64
    /// The daemon's UTC offset in seconds as it says hello (east positive: 32400 is UTC+09:00):
    /// times of day are local wall-clock times, and the daemon ends waits and days in its zone,
    /// so todoctl says when its own differs. Nil from a daemon from before it was sent.
    public var utcOffset: Int?
    /// True when the daemon shares its todos through a store (`todod --store`), nil without one:
    /// todoctl's `list` and `next` ask the status for the store's state only then (a status
    /// costs the daemon more than the list it would follow).
    public var sharedStore: Bool?

    public init(protocolVersion: Int, serverVersion: String, client: UInt64, sequence: UInt64, utcOffset: Int? = nil, sharedStore: Bool? = nil) {
        self.protocolVersion = protocolVersion
        self.serverVersion = serverVersion
        self.client = client
        self.sequence = sequence
        self.utcOffset = utcOffset
        self.sharedStore = sharedStore
    }

    private enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol", serverVersion = "server", client, sequence = "seq", utcOffset, sharedStore
    }
}

/// What `todoctl status` shows (`responseStatus`).
public struct DaemonStatus: Sendable, Equatable, Codable {
    public var serverVersion: String
    public var protocolVersion: Int
    public var processID: Int32
    public var uptimeSeconds: Double
    public var connectedClients: Int
    /// Clients whose requests wait until they read their answers (they ask faster than they
    /// read); nil from a daemon that does not say.
    public var heldBackClients: Int?
    public var openTodos: Int
    public var completedTodos: Int
    public var deletedTodos: Int
    public var sequence: UInt64
    public var databasePath: String
    public var socketPath: String
    /// The shared store this daemon's database is a replica of (`todod --store`); nil alone.
    public var sharedStore: SharedStoreStatus?

    public init(
        serverVersion: String, protocolVersion: Int, processID: Int32, uptimeSeconds: Double,
        connectedClients: Int, openTodos: Int, completedTodos: Int, deletedTodos: Int,
        sequence: UInt64, databasePath: String, socketPath: String, sharedStore: SharedStoreStatus? = nil,
        heldBackClients: Int? = nil
    ) {
        self.serverVersion = serverVersion
        self.protocolVersion = protocolVersion
        self.processID = processID
        self.uptimeSeconds = uptimeSeconds
        self.connectedClients = connectedClients
        self.heldBackClients = heldBackClients
        self.openTodos = openTodos
        self.completedTodos = completedTodos
        self.deletedTodos = deletedTodos
        self.sequence = sequence
        self.databasePath = databasePath
        self.socketPath = socketPath
        self.sharedStore = sharedStore
    }
}
