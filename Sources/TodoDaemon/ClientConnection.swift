import NIOCore
import Synchronization
import TodoViewModel
import TodoWire

/// The daemon's handle on one connected client: sends it frames, and keeps the bytes
/// it has not read yet under a bound, so a client that stops reading costs bounded
/// memory and never slows the others.
final class ClientConnection: Sendable {
    let id: UInt64
    let channel: any Channel
    private let maximumUnreadBytes: Int
    private let unreadBytes = Mutex(0)
    private let closing = Mutex(false)

    init(id: UInt64, channel: any Channel, maximumUnreadBytes: Int = WireProtocol.maximumUnreadBytes) {
        self.id = id
        self.channel = channel
        self.maximumUnreadBytes = maximumUnreadBytes
    }

    /// Queues a frame; a client already over its bound is disconnected instead.
    func send(_ frame: ByteBuffer) {
        let size = frame.readableBytes
        let admitted = unreadBytes.withLock { unread in
            // One frame always fits, so that a big list reaches a client that reads.
            guard unread == 0 || unread + size <= maximumUnreadBytes else { return false }
            unread += size
            return true
        }
        guard admitted else {
            close(saying: TodoError(.overloaded, "you left more than \(maximumUnreadBytes >> 20) MiB of events unread, so the daemon disconnected you: read faster, then reconnect and ask for the list again"))
            return
        }
        let written = channel.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { _ in self.unreadBytes.withLock { $0 -= size } }
        channel.writeAndFlush(frame, promise: written)
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

    // Queued on the event loop, so that it follows every frame already sent from any thread.
    private func closeAfter(_ last: ByteBuffer) {
        let channel = channel
        channel.eventLoop.execute {
            channel.writeAndFlush(last).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    var isClosing: Bool { closing.withLock { $0 } }
}
