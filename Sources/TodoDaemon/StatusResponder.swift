import TodoPaths
import Foundation
import TodoEvents
import TodoServers
import TodoWire

/// Answers `requestStatus` with the daemon's own facts: versions, uptime, clients, counts
/// and paths.
struct StatusResponder: Sendable {
    let bus: EventBus
    let model: ModelServer
    let clients: @Sendable () -> Int
    let heldBackClients: @Sendable () -> Int
    let configuration: DaemonConfiguration
    let sharedStore: SharedStoreMonitor?
    let startedAt: ContinuousClock.Instant

    /// Subscribes at once: status requests are answered inside the bus's dispatch.
    init(bus: EventBus, model: ModelServer, configuration: DaemonConfiguration, sharedStore: SharedStoreMonitor? = nil,
         clients: @escaping @Sendable () -> Int, heldBackClients: @escaping @Sendable () -> Int = { 0 }) {
        self.bus = bus
        self.model = model
        self.configuration = configuration
        self.sharedStore = sharedStore
        self.clients = clients
        self.heldBackClients = heldBackClients
        startedAt = .now
        let responder = self
        bus.subscribe(to: [.requestStatus]) { request in
            bus.publish(.responseStatus(responder.status), correlation: request.correlation)
        }
    }

    var status: DaemonStatus {
        let counts = model.counts
        let uptime = ContinuousClock.now - startedAt
        return DaemonStatus(
            serverVersion: TodoVersion.current, protocolVersion: WireProtocol.version,
            processID: ProcessInfo.processInfo.processIdentifier,
            uptimeSeconds: Double(uptime.components.seconds) + Double(uptime.components.attoseconds) / 1e18,
            connectedClients: clients(), openTodos: counts.open, completedTodos: counts.completed,
            deletedTodos: counts.deleted, sequence: counts.asOf,
            databasePath: configuration.databasePath, socketPath: configuration.socketPath, sharedStore: sharedStore?.status,
            heldBackClients: heldBackClients())
    }

    /// One line for systemd's STATUS=. On the core.
    var summary: String {
        Self.summary(of: model, sharedStore: sharedStore, clients: clients())
    }

    /// The line for `clients` connected: the registry says its count as it changes, before
    /// a status responder that asks it for the count exists.
    static func summary(of model: ModelServer, sharedStore: SharedStoreMonitor?, clients: Int) -> String {
        let counts = model.counts
        let away = sharedStore?.status.reachable == false ? "; the shared store is unreachable, writes kept on this machine" : ""
        return "\(clients) clients, \(counts.open) open and \(counts.completed) done todos\(away)"
    }
}
