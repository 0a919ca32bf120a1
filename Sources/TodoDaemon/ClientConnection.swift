import Logging
import NIOCore
import TodoViewModel
import TodoWire

/// The daemon's handle on one connected client: sends it frames, keeps the bytes it has
/// not read yet under a bound, and says goodbye in whole frames.
///
/// Frames are gathered and flushed together: everything sent to a client during one turn
/// of the event loop goes out with one flush (one `writev`), small frames copied into one
/// buffer, so a batch of 32 changes costs a client one write through NIO's pipeline, not
/// 32 (measured: per-frame writes were most of the core's time with 32 busy writers). A client that
/// leaves more than `maximumUnreadBytes` unread (besides one frame larger than that: a big
/// list, which a client that reads takes in its time) is sent nothing more but its goodbye,
/// after the frames it already has, so the goodbye is the last line it reads; it is
/// closed once the goodbye is written, or after `goodbyeTimeout` if it never reads.
///
/// Answers to the client's own requests are counted until its socket took them
/// (`answersWritten`): the registry holds back the requests of a client whose answers
/// cannot leave, so a client that pipelines without reading is slowed, as by a TCP window,
/// instead of being cut off when its answers pile up past the bound.
///
/// Its state is bound to the channel's loop (the core), as the channel's handlers are: a
/// send from elsewhere hops there first.
final class ClientConnection: Sendable {
    let id: UInt64
    let channel: any Channel
    private let maximumUnreadBytes: Int
    private let logger: Logger
    private let state: NIOLoopBoundBox<State>
    /// Asks for a flush at the end of the event loop's turn; shared by every client of the loop.
    private let flusher: Flusher
    /// Told how many answers (frames sent with `answer: true`) the socket took, or that will
    /// never be written (dropped while closing): each answer is reported once.
    private let answersWritten: @Sendable (Int) -> Void

    /// How long a client that is cut off has to read its goodbye before it is closed anyway.
    static let goodbyeTimeout: TimeAmount = .seconds(30)
    /// Frames up to this size are gathered into one buffer per turn; larger ones (lists)
    /// are handed to the channel as they are, uncopied.
    static let gatheredFrameSize = 16 << 10

    private struct State {
        /// Bytes written to this client and not yet handed to its socket, but for `big`.
        var unread = 0
        /// The one frame over the bound not yet handed to the socket (0 for none).
        var big = 0
        /// Bytes written since the last flush, but for `unflushedBig`.
        var unflushed = 0
        var unflushedBig = 0
        /// The flusher has this client on its list.
        var flushScheduled = false
        /// Small frames sent this turn, not yet handed to the channel.
        var gathered: ByteBuffer?
        /// Answers sent since the last flush.
        var unflushedAnswers = 0
        var closing = false
    }

    init(id: UInt64, channel: any Channel, logger: Logger, flusher: Flusher,
         maximumUnreadBytes: Int = WireProtocol.maximumUnreadBytes,
         answersWritten: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.id = id
        self.channel = channel
        state = .makeBoxSendingValue(State(), eventLoop: channel.eventLoop)
        self.logger = logger
        self.flusher = flusher
        self.maximumUnreadBytes = maximumUnreadBytes
        self.answersWritten = answersWritten
    }

    /// On the channel's loop.
    var isClosing: Bool { state.value.closing }

    /// Writes a frame, flushed at the end of this turn of the event loop. A client already
    /// over its bound is cut off instead; one that is closing gets nothing more. `answer`:
    /// the frame answers one of this client's requests, reported to `answersWritten` once written.
    func send(_ frame: ByteBuffer, answer: Bool = false) {
        guard channel.eventLoop.inEventLoop else {
            channel.eventLoop.execute { self.send(frame, answer: answer) }
            return
        }
        let size = frame.readableBytes
        enum Admission { case gathered(scheduleFlush: Bool), write(before: ByteBuffer?, scheduleFlush: Bool), drop, overload }
        let admission = state.withValue { state -> Admission in
            guard !state.closing else { return .drop }
            if size > maximumUnreadBytes {
                // One such frame at a time, beside the bound's worth of others: a big list reaches a client that
                // reads, also when changes are broadcast while it does (they were cutting watch off for good).
                guard state.big == 0 else { return .overload }
                state.big = size
                state.unflushedBig = size
            } else {
                guard state.unread + size <= maximumUnreadBytes else { return .overload }
                state.unread += size
                state.unflushed += size
            }
            defer { state.flushScheduled = true }
            if answer { state.unflushedAnswers += 1 }
            guard size <= ClientConnection.gatheredFrameSize else {
                defer { state.gathered = nil }
                return .write(before: state.gathered, scheduleFlush: !state.flushScheduled)
            }
            if state.gathered == nil { state.gathered = frame } else { state.gathered!.writeImmutableBuffer(frame) }
            return .gathered(scheduleFlush: !state.flushScheduled)
        }
        switch admission {
        case .gathered(let scheduleFlush):
            if scheduleFlush { flusher.needsFlush(self) }
        case .write(let before, let scheduleFlush):
            if let before { channel.write(before, promise: nil) }
            channel.write(frame, promise: nil)
            if scheduleFlush { flusher.needsFlush(self) }
        case .drop:
            if answer { answersWritten(1) }
        case .overload:
            if answer { answersWritten(1) }
            logger.notice("disconnecting a client that left more than \(maximumUnreadBytes >> 20) MiB unread")
            close(saying: TodoError(.overloaded, "you left more than \(maximumUnreadBytes >> 20) MiB of events unread, so the daemon disconnected you: read faster, then reconnect and ask for the list again"))
        }
    }

    /// Flushes what this turn wrote; the bytes count as read once the socket took them.
    func flush() {
        let (size, big, gathered, answers) = state.withValue { state in
            defer {
                state.unflushed = 0; state.unflushedBig = 0; state.flushScheduled = false; state.gathered = nil
                state.unflushedAnswers = 0
            }
            return (state.unflushed, state.unflushedBig, state.gathered, state.unflushedAnswers)
        }
        guard size + big > 0 else { return }
        // Writes complete in order: when this last one completes, so have those before it.
        // (A failed write, the connection gone, also ends the answers' wait.)
        let written = channel.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { _ in
            self.state.withValue { state in
                state.unread -= size
                state.big -= big
            }
            if answers > 0 { self.answersWritten(answers) }
        }
        channel.writeAndFlush(gathered ?? ByteBuffer(), promise: written)
    }

    /// Says goodbye with a reason after the frames already sent, then closes (once).
    func close(saying reason: TodoError, timeout: TimeAmount = ClientConnection.goodbyeTimeout) {
        let goodbye = (try? WireCodec().encode(WireFrame(event: .responseGoodbye(reason), client: id))) ?? ByteBuffer()
        closeAfter(goodbye, timeout: timeout)
    }

    /// Closes the connection once what was sent to it is written.
    func finish() {
        closeAfter(ByteBuffer(), timeout: nil)
    }

    private func closeAfter(_ last: ByteBuffer, timeout: TimeAmount?) {
        guard channel.eventLoop.inEventLoop else {
            channel.eventLoop.execute { self.closeAfter(last, timeout: timeout) }
            return
        }
        let (first, gathered) = state.withValue { state in
            defer { state.closing = true; state.gathered = nil }
            return (!state.closing, state.gathered)
        }
        guard first else { return }
        let channel = channel
        // What this turn gathered goes first: the last frame is the last one out.
        if let gathered { channel.write(gathered, promise: nil) }
        // Read (and drop) what the client still sends, so that one blocked writing to us
        // gets to read its goodbye.
        channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        channel.writeAndFlush(last).whenComplete { _ in channel.close(promise: nil) }
        // A client that never reads its goodbye is not waited for for ever.
        if let timeout { channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) } }
    }
}

/// Flushes, once per turn of an event loop, every client written to during that turn.
/// Bound to that loop, as its clients are.
final class Flusher: Sendable {
    private let eventLoop: any EventLoop
    private let pending: NIOLoopBoundBox<[ClientConnection]>

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        pending = .makeBoxSendingValue([], eventLoop: eventLoop)
    }

    /// On the loop.
    func needsFlush(_ client: ClientConnection) {
        let first = pending.withValue { pending in
            pending.append(client)
            return pending.count == 1
        }
        if first { eventLoop.execute { self.flushAll() } }
    }

    private func flushAll() {
        let clients = pending.withValue { pending in
            defer { pending = [] }
            return pending
        }
        for client in clients { client.flush() }
    }
}
