import Logging
import NIOCore
import NIOEmbedded
import Testing
import TodoViewModel
import TodoWire
@testable import TodoDaemon

/// One client's way out (docs/PROTOCOL.md, "Unread bytes"), on an `EmbeddedChannel` whose
/// `ClientEnd` reads or does not: the bound on what a client leaves unread, the goodbye
/// after whole frames, and a turn's frames gathered into one write and one flush.
@Suite("ClientConnection")
struct ClientConnectionTests {
    static let bound = WireProtocol.maximumUnreadBytes
    static let quiet = Logger(label: "todod-tests") { _ in SwiftLogNoOpLogHandler() }

    /// A connection on a channel of its own, active as an accepted one is, and its client's end.
    private func connected(reading: Bool, on loop: EmbeddedEventLoop = EmbeddedEventLoop(), flusher: Flusher? = nil) throws
        -> (channel: EmbeddedChannel, end: ClientEnd, connection: ClientConnection)
    {
        let end = ClientEnd(reading: reading)
        let channel = EmbeddedChannel(handlers: [end], loop: loop)
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/todod-tests.sock")).wait()
        let connection = ClientConnection(
            id: 7, channel: channel, logger: Self.quiet, flusher: flusher ?? Flusher(eventLoop: loop))
        return (channel, end, connection)
    }

    /// An answer of exactly `size` bytes, its newline included, that says which one it is.
    static func frame(_ number: Int, size: Int) throws -> ByteBuffer {
        func answer(padding: Int) throws -> ByteBuffer {
            let message = "frame \(number) " + String(repeating: "x", count: padding)
            return try WireCodec().encode(WireFrame(event: .responseError(TodoError(.notFound, message)), id: "r\(number)", client: 7))
        }
        let framed = try answer(padding: size - answer(padding: 0).readableBytes)
        try #require(framed.readableBytes == size)
        return framed
    }

    /// The line a frame is read as.
    static func line(_ frame: ByteBuffer) -> String {
        String(String(buffer: frame).dropLast())
    }

    /// Where `read` first differs from `sent`, for a failure that names it instead of printing megabytes.
    static func firstDifference(_ read: [String], _ sent: [String]) -> String? {
        if let index = zip(read, sent).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return "line \(index): read \(read[index].prefix(60))… (\(read[index].utf8.count) bytes), sent \(sent[index].prefix(60))… (\(sent[index].utf8.count) bytes)"
        }
        return read.count == sent.count ? nil : "read \(read.count) lines, sent \(sent.count)"
    }

    /// The client reads at last: it reads `queued`, whole and in order, then a goodbye with
    /// `code`, and the connection closes once it has.
    static func expectReadAtLast(
        _ queued: [String], then code: TodoError.Code, from channel: EmbeddedChannel, _ end: ClientEnd,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        end.startReading()
        channel.embeddedEventLoop.run()
        let lines = try channel.linesRead()
        #expect(firstDifference(Array(lines.dropLast()), queued) == nil, sourceLocation: sourceLocation)
        #expect(goodbyeCode(lines.last) == code, "the last line: \(lines.last?.prefix(200) ?? "none")", sourceLocation: sourceLocation)
        let closed = !channel.isActive
        #expect(closed, "closed once its goodbye was read", sourceLocation: sourceLocation)
    }

    @Test("a client that does not read is queued every whole frame up to the unread bound, then the overloaded goodbye, and no part of the frame that would cross it")
    func unreadBound() throws {
        let (channel, end, connection) = try connected(reading: false)
        defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
        // 8 MiB is not a multiple of 100,000: the 84th frame would cross the bound by part of itself.
        let size = 100_000
        let fitting = Self.bound / size
        var queued: [String] = []
        for number in 1...(fitting + 3) {
            let frame = try Self.frame(number, size: size)
            connection.send(frame)
            if number <= fitting { queued.append(Self.line(frame)) }
            // A turn per frame: each one is flushed, and none is read.
            channel.embeddedEventLoop.run()
        }
        let (open, closing) = (channel.isActive, connection.isClosing)
        #expect(open, "the connection waits for its client to read the goodbye")
        #expect(closing)

        try Self.expectReadAtLast(queued, then: .overloaded, from: channel, end)
    }

    @Test("the goodbye comes after the whole frames already queued, those gathered in its own turn too; nothing is sent after it, and the connection closes once it is read")
    func goodbyeAfterQueuedFrames() throws {
        let (channel, end, connection) = try connected(reading: false)
        defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
        // Seven turns of 1 MiB frames, unread: 1 MiB of the bound is left.
        var queued: [String] = []
        for number in 1...7 {
            let frame = try Self.frame(number, size: 1 << 20)
            connection.send(frame)
            queued.append(Self.line(frame))
            channel.embeddedEventLoop.run()
        }
        // One turn of small frames, gathered: 104 of 10,000 bytes fit in the MiB left, the
        // 105th does not; the 106th comes after the goodbye.
        for number in 8...113 {
            let frame = try Self.frame(number, size: 10_000)
            connection.send(frame)
            if number < 8 + 104 { queued.append(Self.line(frame)) }
        }
        channel.embeddedEventLoop.run()
        connection.send(try Self.frame(114, size: 100))
        channel.embeddedEventLoop.run()
        let waiting = channel.isActive
        #expect(waiting, "the connection waits for its client to read the goodbye")

        try Self.expectReadAtLast(queued, then: .overloaded, from: channel, end)
    }

    @Test("a client that never reads its goodbye is closed 30 seconds after it, not before")
    func goodbyeTimeout() throws {
        let (channel, _, connection) = try connected(reading: false)
        defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
        for number in 1...9 {
            connection.send(try Self.frame(number, size: 1 << 20))
            channel.embeddedEventLoop.run()
        }
        let closing = connection.isClosing
        #expect(closing, "9 MiB unread is past the bound")
        channel.embeddedEventLoop.advanceTime(by: ClientConnection.goodbyeTimeout - .seconds(1))
        let openBefore = channel.isActive
        #expect(openBefore, "open until the goodbye's time is up")
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        let closedThen = !channel.isActive
        #expect(closedThen, "closed \(ClientConnection.goodbyeTimeout) after the goodbye")
        let lines = try channel.linesRead()
        #expect(lines == [], "it read nothing, so nothing reached it")
        #expect(ClientConnection.goodbyeTimeout == .seconds(30), "docs/PROTOCOL.md says 30 s")
    }

    @Test("one frame larger than the bound is queued beside the bound's worth of others; a second one before the first is read is over the bound")
    func oneFrameOverTheBound() throws {
        let (channel, end, connection) = try connected(reading: false)
        defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
        let list = try Self.frame(1, size: Self.bound + 1)
        let change = try Self.frame(2, size: 1000)
        connection.send(list)
        connection.send(change)
        channel.embeddedEventLoop.run()
        let cutOff = connection.isClosing
        #expect(!cutOff, "a big list and a change are a client's to read in its time")
        connection.send(try Self.frame(3, size: Self.bound + 1))
        channel.embeddedEventLoop.run()
        let closing = connection.isClosing
        #expect(closing, "a second frame over the bound, the first unread")

        try Self.expectReadAtLast([Self.line(list), Self.line(change)], then: .overloaded, from: channel, end)
    }

    @Test("a client that reads takes one frame over the bound after another, each read before the next")
    func framesOverTheBoundOneAtATime() throws {
        let (channel, _, connection) = try connected(reading: true)
        defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
        var sent: [String] = []
        for number in 1...3 {
            let list = try Self.frame(number, size: Self.bound + 1)
            connection.send(list)
            sent.append(Self.line(list))
            channel.embeddedEventLoop.run()
        }
        let closing = connection.isClosing
        #expect(!closing)
        let lines = try channel.linesRead()
        #expect(Self.firstDifference(lines, sent) == nil)
    }

    @Test("the frames sent in one turn reach the socket in one write and one flush, in order")
    func gathering() throws {
        let (channel, end, connection) = try connected(reading: true)
        defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
        let frames = try (1...5).map { try Self.frame($0, size: 200) }
        for frame in frames { connection.send(frame) }
        let (flushesBefore, linesBefore) = (end.flushes, try channel.linesRead())
        #expect(flushesBefore == 0, "nothing is flushed before the turn ends")
        #expect(linesBefore == [])

        channel.embeddedEventLoop.run()
        let (writes, flushes, lines) = (end.writes, end.flushes, try channel.linesRead())
        #expect(writes == 1, "one write of the five frames")
        #expect(flushes == 1)
        #expect(lines == frames.map(Self.line))

        // The next turn is flushed on its own, once.
        connection.send(try Self.frame(6, size: 200))
        connection.send(try Self.frame(7, size: 200))
        channel.embeddedEventLoop.run()
        let (writesThen, flushesThen) = (end.writes, end.flushes)
        #expect(writesThen == 2)
        #expect(flushesThen == 2)
    }

    @Test("a frame over 16 KiB is written as it is between the gathered ones, in order, with the one flush of the turn")
    func largeFrameUncopied() throws {
        let (channel, end, connection) = try connected(reading: true)
        defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
        let frames = [
            try Self.frame(1, size: 300), try Self.frame(2, size: 300),
            try Self.frame(3, size: ClientConnection.gatheredFrameSize + 1),
            try Self.frame(4, size: 300),
        ]
        for frame in frames { connection.send(frame) }
        channel.embeddedEventLoop.run()
        let (writes, flushes, lines) = (end.writes, end.flushes, try channel.linesRead())
        #expect(writes == 3, "the two small frames gathered, the large one, the last small one")
        #expect(flushes == 1)
        #expect(lines == frames.map(Self.line))
    }

    @Test("every client written to in a turn is flushed once at its end, by the loop's one flusher")
    func oneFlushPerClientPerTurn() throws {
        let loop = EmbeddedEventLoop()
        let flusher = Flusher(eventLoop: loop)
        let first = try connected(reading: true, on: loop, flusher: flusher)
        let second = try connected(reading: true, on: loop, flusher: flusher)
        defer { for channel in [first.channel, second.channel] { _ = try? channel.finish(acceptAlreadyClosed: true) } }
        for number in 1...3 {
            first.connection.send(try Self.frame(number, size: 200))
            second.connection.send(try Self.frame(number, size: 200))
        }
        loop.run()
        let flushes = [first.end.flushes, second.end.flushes]
        let writes = [first.end.writes, second.end.writes]
        let lines = [try first.channel.linesRead().count, try second.channel.linesRead().count]
        #expect(flushes == [1, 1])
        #expect(writes == [1, 1])
        #expect(lines == [3, 3])
    }
}
