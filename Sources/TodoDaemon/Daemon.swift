import TodoPaths
import Foundation
import TodoClock
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import TodoEvents
import TodoModel
import TodoServers
import TodoSystemd
import TodoViewModel
import TodoWire
import SharedStoreContract

/// The todod process: opens the database, starts the servers on one bus, listens on the
/// socket, tells systemd, and on SIGTERM or SIGINT shuts down in order: stop taking
/// requests, answer those taken, say goodbye, commit the last writes, exit.
///
/// One event loop, the core, serves every connection and runs the bus: a request is
/// read, answered by the servers and written back on that one thread, as Redis does.
/// Only the durable commit leaves it, for the ModelServer's storage thread.
public enum Daemon {
    /// How long a graceful shutdown may take before the services are cancelled.
    static let maximumShutdownDuration: Duration = .seconds(15)

    /// Runs until a shutdown signal (or idle exit); throws `DaemonError` when it cannot start.
    public static func run(_ configuration: DaemonConfiguration) async throws {
        let logger = configuration.logger
        umask(0o077)
        let fileLimit = FileLimit.raiseToHardLimit()
        MemoryTuning.keepMemorySmall()
        // Start-up order: the socket first (its lock, then a live daemon there), then the
        // database (checked, locked, opened): a daemon that will not run creates nothing.
        // A TODOD_TEST_NOW that does not parse ends the daemon now, not at its first write.
        _ = WallClock.source
        let holder = LockFile.Holder(pid: "\(getpid())", socket: configuration.socketPath, database: configuration.databasePath)
        let socketLock = try SocketActivation.listeningFileDescriptors().isEmpty
            ? SocketFile.claim(configuration.socketPath, holder: holder) : nil
        let (store, databaseLock) = try openStore(at: configuration.databasePath, holder: holder)
        if configuration.sharedStore == nil { try refuseAReplicaAlone(store) }
        defer { withExtendedLifetime((socketLock, databaseLock)) {} }
        let core = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { core.shutdownGracefully { _ in } }
        let coreLoop = core.next()
        CoreStallHook.install(core: coreLoop, logger: logger)
        let bus = EventBus(core: coreLoop)
        let shared = try openShared(configuration)
        defer { shared?.close() }
        let model: ModelServer
        do {
            model = try ModelServer(
                bus: bus, store: store, logger: logger, clock: WallClock.now, core: coreLoop, shared: shared)
        } catch let error as TodoStoreError {
            throw DaemonError("cannot start: \(error.message)")
        }
        MemoryTuning.trim()
        let viewModel = ViewModelServer(bus: bus)
        let calendar = try configuration.icalDirectory.map { directory in
            try CalendarDirectory(path: directory, bus: bus, logger: logger, core: coreLoop)
        }
        let systemd = SystemdReporter()
        let idle = IdleClock(core: coreLoop)
        let monitor = model.replicaSync.map { sync in
            SharedStoreMonitor(sync: sync, bus: bus, logger: logger, core: coreLoop)
        }
        // The registry first, telling the status line its count itself: the status then counts
        // the registry's clients, with no box to fill in after.
        let registry = ClientRegistry(bus: bus, core: coreLoop, logger: logger) { count in
            idle.clientCountChanged(to: count)
            systemd.status(StatusResponder.summary(of: model, sharedStore: monitor, clients: count))
        }
        let status = StatusResponder(
            bus: bus, model: model, configuration: configuration, sharedStore: monitor,
            clients: { registry.count }, heldBackClients: { registry.heldBackCount })
        if monitor != nil { bus.subscribe(to: [.responseSharedStore]) { _ in systemd.status(status.summary) } }
        let listener = try await Listener.open(configuration, on: core, registry: registry, logger: logger) { client in
            // Its zone's offset now, read per hello: a summer-time change moves it.
            ServerHello(
                protocolVersion: WireProtocol.version, serverVersion: TodoVersion.current, client: client, sequence: model.lastChange,
                utcOffset: LocalMinute.utcOffset(at: WallClock.now()), sharedStore: monitor != nil ? true : nil)
        }
        // Waiting todos whose day has come appear now, and each midnight after.
        let waker = MidnightWaker(model: model, bus: bus, clock: WallClock.now, logger: logger, core: coreLoop)
        logger.info("todod \(TodoVersion.current) listening", metadata: ["socket": "\(configuration.socketPath)", "database": "\(store.path)", "files": "\(fileLimit)"])

        // Each participant is held by its service for the run; the group stops them in the reverse order.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: ViewModelService(server: viewModel))]
        if let calendar { services.append(.init(service: CalendarService(directory: calendar))) }
        services += [
            .init(service: ModelService(server: model)),
            .init(service: MidnightService(waker: waker)),
            .init(service: listener),
            .init(service: SystemdService(systemd: systemd, status: status, core: coreLoop, logger: logger)),
        ]
        if let limit = configuration.exitIdleAfter {
            services.append(.init(service: IdleExitService(clock: idle, limit: limit, logger: logger),
                                  successTerminationBehavior: .gracefullyShutdownGroup))
        }
        var groupConfiguration = ServiceGroupConfiguration(services: services, logger: logger)
        groupConfiguration.gracefulShutdownSignals = [.sigterm, .sigint]
        groupConfiguration.maximumGracefulShutdownDuration = maximumShutdownDuration
        groupConfiguration.maximumCancellationDuration = .seconds(5)
        try await ServiceGroup(configuration: groupConfiguration).run()
        do { try model.closeStore() } catch { logger.error("cannot checkpoint the database at exit", metadata: ["error": "\(error)"]) }
        logger.info("todod stopped")
    }

    /// Connects to the shared store, if any.
    private static func openShared(_ configuration: DaemonConfiguration) throws -> (any SharedStore)? {
        guard let open = configuration.sharedStore else { return nil }
        do {
            return try open(configuration.logger)
        } catch {
            throw DaemonError("cannot use the shared store: \(error)")
        }
    }

    /// A replica used alone would take changes no other machine sees, and the store would
    /// refuse it afterwards (its history its own): refused, saying how to start.
    private static func refuseAReplicaAlone(_ store: TodoStore) throws {
        guard let shared = try? store.replicaOf() else { return }
        throw DaemonError("""
            the database \(store.path) is the replica of the shared store \(shared), so todod will not use it alone (its changes \
            would reach no other machine, and the store would refuse the database afterwards): start todod with --store \(shared), \
            or with TODOD_STORE set as in its unit's drop-in; to use this database alone from now on, run \
            todod --leave-store --database \(store.path) first
            """)
    }

    /// Checks the database file (reading only), takes `DATABASE.lock` beside it for the
    /// daemon's life, then opens it: a second daemon on one database refuses, whatever its socket.
    private static func openStore(at path: String, holder: LockFile.Holder) throws -> (TodoStore, LockFile) {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            if !directory.isEmpty {
                // Private, whatever the umask: the database's directory must be writable by no one else (`DatabaseFile`).
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        } catch {
            throw DaemonError("cannot create the database's directory \(directory): \(error.localizedDescription); check its permissions, or choose another file with --database")
        }
        do {
            try TodoStore.check(path)
        } catch {
            throw DaemonError("cannot open the database: \(error.message)")
        }
        // Beside the file the path leads to: a symbolic link to the database must find the same lock; a hard link, the file
        // itself, made now (empty, as SQLite takes a new database) if there is none, so that a link made later finds it locked.
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let lock = try LockFile.acquire(DatabaseLock.path(for: path), holder: holder, guarding: path) { other in
            DaemonError("another todod (pid \(other.pid), socket \(other.socket)) is using the database \(path): use that one (`todoctl --socket \(other.socket) status`), or stop it first (kill \(other.pid))")
        }
        do {
            return (try TodoStore(path: path), lock)
        } catch let error as TodoStoreError {
            throw DaemonError("cannot open the database: \(error.message)")
        } catch {
            throw DaemonError("cannot open the database \(path): \(error): check the path and its permissions, or choose another with --database")
        }
    }
}
