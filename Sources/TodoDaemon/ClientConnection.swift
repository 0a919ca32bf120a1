import Logging
import NIOCore
import Synchronization
import TodoViewModel
import TodoWire

/// The daemon's handle on one connected client: sends it frames, and keeps the bytes
/// it has not read yet under a bound, so a client that stops reading costs bounded
/// memory and never slows the others.
///
/// Frames wait in an outbox until the connection's event loop writes them: everything
/// that gathered meanwhile goes out with one flush (one `writev`), so a burst of changes
/// costs a client one system call, not one per frame.
final class ClientConnection: Sendable {
    let id: UInt64
    let channel: any Channel
    private let maximumUnreadBytes: Int
    private let logger: Logger
    private let outbox = Mutex(Outbox())
    private let closing = Mutex(false)

    private struct Outbox {
        /// Bytes sent to this client and not yet handed to its socket.
        var unread = 0
        var frames: [ByteBuffer] = []
        /// A `writePending` is queued on the event loop and will take `frames`.
        var scheduled = false
    }

    init(id: UInt64, channel: any Channel, logger: Logger, maximumUnreadBytes: Int = WireProtocol.maximumUnreadBytes) {
        self.id = id
        self.channel = channel
        self.logger = logger
        self.maximumUnreadBytes = maximumUnreadBytes
    }

    /// Queues a frame; a client already over its bound is disconnected instead.
    func send(_ frame: ByteBuffer) {
        if enqueue(frame) { channel.eventLoop.execute { self.writePending() } }
    }

    /// Sends one frame to many clients, with one task per event loop rather than one per client.
    static func broadcast(_ frame: ByteBuffer, to clients: [ClientConnection]) {
        var byLoop: [ObjectIdentifier: (loop: any EventLoop, clients: [ClientConnection])] = [:]
        for client in clients where client.enqueue(frame) {
            let loop = client.channel.eventLoop
            byLoop[ObjectIdentifier(loop), default: (loop, [])].clients.append(client)
        }
        for (loop, clients) in byLoop.values {
            loop.execute { for client in clients { client.writePending() } }
        }
    }

    /// Puts a frame in the outbox; true when the caller must have the event loop call
    /// `writePending` (none is queued yet).
    private func enqueue(_ frame: ByteBuffer) -> Bool {
        let size = frame.readableBytes
        let admitted: Bool?  // nil: over the bound
        admitted = outbox.withLock { outbox -> Bool? in
            // One frame always fits, so that a big list reaches a client that reads.
            guard outbox.unread == 0 || outbox.unread + size <= maximumUnreadBytes else { return nil }
            outbox.unread += size
            outbox.frames.append(frame)
            defer { outbox.scheduled = true }
            return !outbox.scheduled
        }
        guard let schedule = admitted else {
            if !isClosing { logger.notice("disconnecting a client that left more than \(maximumUnreadBytes >> 20) MiB unread") }
            close(saying: TodoError(.overloaded, "you left more than \(maximumUnreadBytes >> 20) MiB of events unread, so the daemon disconnected you: read faster, then reconnect and ask for the list again"))
            return false
        }
        return schedule
    }

    /// On the event loop: writes everything in the outbox, then flushes once.
    private func writePending() {
        var frames: [ByteBuffer] = []
        outbox.withLock { outbox in
            swap(&frames, &outbox.frames)
            outbox.scheduled = false
        }
        guard let last = frames.popLast() else { return }
        let size = frames.reduce(last.readableBytes) { $0 + $1.readableBytes }
        for frame in frames { channel.write(frame, promise: nil) }
        // Writes complete in order: when the last is written, so are the others.
        let written = channel.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { _ in self.outbox.withLock { $0.unread -= size } }
        channel.writeAndFlush(last, promise: written)
    }

    /// Says goodbye with a reason, then closes the connection (once).
    func close(saying reason: TodoError) {
        guard closing.withLock({ closing in defer { closing = true }; return !closing }) else { return }
        let goodbye = (try? WireCodec().encode(WireFrame(event: .responseGoodbye(reason), client: id))) ?? ByteBuffer()
        closeAfter(goodbye)
        // A client that does not read its goodbye is not waited for long.
        let channel = channel
        channel.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
    }

    /// Closes the connection once what was sent to it is written.
    func finish() {
        guard closing.withLock({ closing in defer { closing = true }; return !closing }) else { return }
        closeAfter(ByteBuffer())
    }

    // Queued on the event loop after every frame already sent from any thread, and writes
    // the outbox first, so that the last frame is the last one out.
    private func closeAfter(_ last: ByteBuffer) {
        let channel = channel
        channel.eventLoop.execute {
            self.writePending()
            channel.writeAndFlush(last).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    var isClosing: Bool { closing.withLock { $0 } }
}
