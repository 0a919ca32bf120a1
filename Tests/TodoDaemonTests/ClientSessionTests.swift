import Logging
import NIOCore
import NIOEmbedded
import Synchronization
import Testing
import TodoEvents
import TodoViewModel
import TodoWire
@testable import TodoDaemon

#if canImport(Glibc)
import Glibc
#endif

/// One client's way in (docs/PROTOCOL.md, "Requests in flight" and "Framing"): the pipeline
/// the listener builds, on an `EmbeddedChannel`, with a registry on a real bus and a stand-in
/// for the servers that answers every status request at once.
@Suite("ClientSession")
struct ClientSessionTests {
    /// Answers each `requestStatus` inside the bus's dispatch, as `StatusResponder` does, and
    /// remembers the ids it was asked with.
    final class StatusStandIn: Sendable {
        private let asked = Mutex<[String]>([])
        static let status = DaemonStatus(
            serverVersion: "test", protocolVersion: WireProtocol.version, processID: 1, uptimeSeconds: 1,
            connectedClients: 1, openTodos: 0, completedTodos: 0, deletedTodos: 0, sequence: 0,
            databasePath: "/todos.sqlite", socketPath: "/todod.sock")

        init(bus: EventBus) {
            bus.subscribe(to: [.requestStatus]) { [self] request in
                asked.withLock { $0.append(request.correlation?.request ?? "") }
                bus.publish(.responseStatus(Self.status), correlation: request.correlation)
            }
        }

        var requests: [String] { asked.withLock { $0 } }
    }

    /// A client connected to the daemon's network side, as user `uid`.
    struct Connected {
        let channel: EmbeddedChannel
        let end: ClientEnd
        let registry: ClientRegistry
        let server: StatusStandIn

        init(reading: Bool, uid: uid_t = getuid()) throws {
            // The bus and the registry are bound to the loop its clients are served on, as the daemon's to its core.
            let loop = EmbeddedEventLoop()
            let bus = EventBus(core: loop)
            registry = ClientRegistry(bus: bus, core: loop, logger: ClientConnectionTests.quiet)
            server = StatusStandIn(bus: bus)
            end = ClientEnd(reading: reading)
            let handlers = ClientSession.handlers(
                registry: registry, logger: ClientConnectionTests.quiet,
                hello: { ServerHello(protocolVersion: WireProtocol.version, serverVersion: "test", client: $0, sequence: 0) },
                peerUserID: { $0.eventLoop.makeSucceededFuture(uid) })
            channel = EmbeddedChannel(handlers: [end] + handlers, loop: loop)
            try channel.connect(to: SocketAddress(unixDomainSocketPath: "/todod-tests.sock")).wait()
            channel.embeddedEventLoop.run()
        }

        /// Closes what is still open and drops the timers left (an `EmbeddedEventLoop` must have none when freed).
        func finish() {
            _ = try? channel.finish(acceptAlreadyClosed: true)
        }

        /// The client sends these lines, as one read brings them.
        func send(_ lines: [String]) throws {
            try channel.writeInbound(ByteBuffer(string: lines.map { $0 + "\n" }.joined()))
            channel.embeddedEventLoop.run()
        }
    }

    static func status(_ id: Int) -> String {
        #"{"event":"requestStatus","id":"\#(id)"}"#
    }

    /// The ids of the status answers among `lines`, in order.
    static func answered(_ lines: [String]) throws -> [String] {
        try lines.map(frame).compactMap { frame in
            guard case .responseStatus = frame.event else { return nil }
            return frame.id
        }
    }

    @Test("a client whose answers are not read is not read past 128 requests in flight, and is read again once it reads them, every request answered in order")
    func inboundBackpressure() throws {
        let client = try Connected(reading: false)
        defer { client.finish() }
        let limit = ClientRegistry.maximumInFlight
        #expect(limit == 128, "docs/PROTOCOL.md says 128")
        try client.send((1...(limit + 2)).map(Self.status))
        let (asked, reading, heldBack) = (client.server.requests, client.channel.autoRead, client.registry.heldBackCount)
        #expect(asked == (1...limit).map(String.init), "the two lines past the bound wait in the session")
        #expect(!reading, "the session stops reading the socket")
        #expect(heldBack == 1)
        // What one more read of the socket brought waits too.
        try client.send([Self.status(limit + 3)])
        let askedThen = client.server.requests.count
        #expect(askedThen == limit)

        client.end.startReading()
        client.channel.embeddedEventLoop.run()
        let (askedAfter, readingAfter, heldBackAfter) = (client.server.requests, client.channel.autoRead, client.registry.heldBackCount)
        #expect(askedAfter == (1...(limit + 3)).map(String.init))
        #expect(readingAfter, "the socket is read again")
        #expect(heldBackAfter == 0)
        let (lines, open) = (try client.channel.linesRead(), client.channel.isActive)
        #expect(try Self.answered(lines) == (1...(limit + 3)).map(String.init))
        #expect(!lines.contains { goodbyeCode($0) != nil }, "slowed, not cut off")
        #expect(open)
    }

    @Test("a client that closes its side while held back still gets every answer, and is closed once it has them")
    func halfClosedWhileHeld() throws {
        let client = try Connected(reading: false)
        defer { client.finish() }
        let count = ClientRegistry.maximumInFlight + 2
        try client.send((1...count).map(Self.status))
        // `echo … | socat`: the client's last request is sent, its side closed.
        client.channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        client.channel.embeddedEventLoop.run()
        let openUnread = client.channel.isActive
        #expect(openUnread, "its answers are not read yet")

        client.end.startReading()
        client.channel.embeddedEventLoop.run()
        let (lines, open) = (try client.channel.linesRead(), client.channel.isActive)
        #expect(try Self.answered(lines) == (1...count).map(String.init))
        #expect(!lines.contains { goodbyeCode($0) != nil }, "a client that said all it had is not told goodbye")
        #expect(!open, "closed once every request it sent is answered")
    }

    @Test("a client that reads its answers is never held back, however many requests it pipelines")
    func noBackpressureForAReader() throws {
        let client = try Connected(reading: true)
        defer { client.finish() }
        for turn in 0..<3 {
            try client.send((1...100).map { Self.status(turn * 100 + $0) })
            let reading = client.channel.autoRead
            #expect(reading)
        }
        let (asked, lines) = (client.server.requests.count, try client.channel.linesRead())
        #expect(asked == 300)
        #expect(try Self.answered(lines).count == 300)
    }

    @Test("a request line over 1 MiB is answered with the frameTooLong goodbye, after the answers to the lines before it, and the connection is closed")
    func frameTooLong() throws {
        let client = try Connected(reading: true)
        defer { client.finish() }
        try client.channel.writeInbound(ByteBuffer(string: Self.status(1) + "\n" + String(repeating: "x", count: WireProtocol.maximumRequestLength + 1)))
        client.channel.embeddedEventLoop.run()
        let (lines, open) = (try client.channel.linesRead(), client.channel.isActive)
        #expect(try Self.answered(lines) == ["1"])
        #expect(goodbyeCode(lines.last) == .frameTooLong, "the last line: \(lines.last?.prefix(200) ?? "none")")
        #expect(!open)
        #expect(WireProtocol.maximumRequestLength == 1 << 20, "docs/PROTOCOL.md says 1 MiB")
    }

    @Test("a request line of exactly 1 MiB is read: answered as the bad request it is, and the connection stays")
    func lineAtTheLimit() throws {
        let client = try Connected(reading: true)
        defer { client.finish() }
        try client.send([String(repeating: "x", count: WireProtocol.maximumRequestLength), Self.status(1)])
        let (lines, open) = (try client.channel.linesRead(), client.channel.isActive)
        let errors = try lines.map(frame).compactMap { frame -> TodoError.Code? in
            guard case .responseError(let error) = frame.event else { return nil }
            return error.code
        }
        #expect(errors == [.badRequest])
        #expect(try Self.answered(lines) == ["1"])
        #expect(open)
    }

    @Test("a client of another user gets the permissionDenied goodbye alone, and is closed")
    func anotherUser() throws {
        let client = try Connected(reading: true, uid: getuid() + 1)
        defer { client.finish() }
        let (lines, open, asked) = (try client.channel.linesRead(), client.channel.isActive, client.server.requests)
        #expect(!open)
        #expect(lines.count == 1, "only the goodbye: \(lines)")
        #expect(goodbyeCode(lines.first) == .permissionDenied)
        #expect(asked == [])
    }
}
