import TodoPaths
import NIOCore
import TodoEvents
import TodoViewModel
import TodoWire

#if canImport(Glibc)
import Glibc
#endif

/// A blocking connection to todod, for a command that asks and exits: a socket, a
/// write and a read, with no event loop or thread to start. It checks the server as
/// `TodoClient` does (`TrustedSocket`), and keeps the same correlation rule: the answer
/// is the frame with this request's `id` and this client's number; the changes other
/// clients make meanwhile are skipped.
///
/// ```swift
/// let connection = try TodoConnection(path: DefaultPaths.socketPath())
/// let answer = try connection.request(.requestTodoDetail(TodoRef("3")!))
/// ```
///
/// A connection serves one command: its writes are one journal step, so that one `undo`
/// takes back `todoctl done 1 2 3` whole. The first write begins the step and each later
/// one names it (`WireFrame.step`), as the last answer gave it; undo, redo, replay and purge
/// are steps of their own and name none.
///
/// One thread uses it at a time; the socket closes when it goes away.
public final class TodoConnection {
    /// What the daemon said on connecting: versions, this client's number, the last change.
    public let hello: ServerHello
    private let fd: Int32
    private var reader: FrameReader
    private var lastRequestID = 0
    private let codec: WireCodec
    /// Named on the first request, for the journal's "who"; nil once sent.
    private var program: String?
    /// The step this connection's writes go on: the one its last written change went on.
    private var step: UInt64?

    /// Connects, checks who listens, and reads the daemon's hello. `program` names this
    /// client in the journal (`todoctl`); `today` is the day the rows it reads say "in 3
    /// days" and overdue against, from the command's clock (none: rows without a day).
    public init(path: String, program: String? = nil, today: WireCodec.Today? = nil, now: WireCodec.Now? = nil) throws(TodoClientError) {
        self.program = program
        codec = WireCodec(today: today, now: now)
        let fd = try TrustedSocket.connect(to: path)
        var reader = FrameReader(fd: fd)
        do {
            // Another program's socket may never answer: the hello is waited for `helloWait`, no longer
            // (todoctl hung there; outside probe 11, F13). The daemon's answers are waited for as long as they take.
            Self.limitReads(of: fd, to: Self.helloWait)
            hello = try Self.readHello(&reader, codec: codec, path: path)
            Self.limitReads(of: fd, to: 0)
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
        self.reader = reader
    }

    deinit { close(fd) }

    /// Sends a view request and returns the daemon's answer to it; an error answer is
    /// thrown as `.refused`, a goodbye (a request over 1 MiB is answered `frameTooLong`)
    /// as `.disconnected` with the daemon's words.
    public func request(_ event: Event) throws(TodoClientError) -> Event {
        lastRequestID += 1
        let id = "r\(lastRequestID)"
        let frame: ByteBuffer
        do {
            frame = try codec.encode(WireFrame(event: event, id: id, program: program, step: event.goesOnAStep ? step : nil))
            program = nil
        } catch {
            throw .protocolViolation("could not encode the request: \(error)")
        }
        var goodbye: TodoError?
        if !send(frame) {
            // The daemon hung up while the request was going out: it said why before it did.
            while goodbye == nil, let line = try? reader.next() {
                if case .responseGoodbye(let reason)? = try? codec.decodeResponse(line).event { goodbye = reason }
            }
            throw .disconnected(goodbye)
        }
        while let line = try reader.next() {
            let answer: WireFrame
            do {
                answer = try codec.decodeResponse(line)
            } catch {
                // A frame this client does not know (a newer daemon's) matters only if it answers us.
                if let (answerID, client) = codec.correlation(of: line), answerID == id, client == hello.client {
                    throw .protocolViolation("\(error)")
                }
                continue
            }
            if case .responseGoodbye(let reason) = answer.event { goodbye = reason; continue }
            // A request the daemon could not read (over a limit) is answered without its id;
            // with one request in flight, an error to this client without an id is its answer.
            if answer.id == nil, answer.client == hello.client, case .responseError(let error) = answer.event { throw .refused(error) }
            guard answer.id == id, answer.client == hello.client else { continue }
            if case .responseError(let error) = answer.event { throw .refused(error) }
            switch answer.event {
            case .responseTodoViewModel(let change): step = change.stepToContinue ?? step
            case .responseImportTodos(let result): step = result.changes.last { $0.stepToContinue != nil }?.stepToContinue ?? step
            default: break
            }
            return answer.event
        }
        throw .disconnected(goodbye)
    }

    /// Writes the whole frame; false when the daemon closed its side.
    private func send(_ frame: ByteBuffer) -> Bool {
        var rest = frame
        while rest.readableBytes > 0 {
            // send(2) takes the bytes by address (MSG_NOSIGNAL, which write(2) has no way to say), for the call only.
            let sent = rest.withUnsafeReadableBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            rest.moveReaderIndex(forwardBy: sent)
        }
        return true
    }

    /// How long todod's hello is waited for: it says it as it accepts, but a todod started by its
    /// socket (systemd) says it once started, after catching up with its shared store.
    public static let helloWait = 10

    /// Why a socket that never said hello is not todod's.
    static let nothingCame = "nothing came within \(helloWait) s, where todod says hello at once"

    /// Why a socket whose first line, `line`, is no frame of todod's is not todod's.
    static func said(_ line: ByteBuffer) -> String {
        "it said \(String(decoding: line.readableBytesView.prefix(40), as: UTF8.self).debugDescription), not todod's hello"
    }

    /// Each read of `fd` fails after `seconds` without a byte (0: waits for ever).
    private static func limitReads(of fd: Int32, to seconds: Int) {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The first frame: the hello, or the goodbye of a daemon that refuses us. Nothing within
    /// `helloWait`, or a line that is no frame of todod's, is another program's socket.
    private static func readHello(_ reader: inout FrameReader, codec: WireCodec, path: String) throws(TodoClientError) -> ServerHello {
        let first: ByteBuffer?
        do {
            first = try reader.next()
        } catch .disconnected(nil) where reader.timedOut {
            throw .notTodod(path: path, reason: nothingCame)
        }
        guard let line = first else { throw .disconnected(nil) }
        let frame: WireFrame
        do {
            frame = try codec.decodeResponse(line)
        } catch {
            throw .notTodod(path: path, reason: said(line))
        }
        switch frame.event {
        case .responseHello(let hello): return hello
        case .responseGoodbye(let reason): throw .disconnected(reason)
        default: throw .protocolViolation("expected a hello first, got \(frame.event.kind.rawValue)")
        }
    }
}

extension Event {
    /// A write that may go on a step an earlier request began (not an undo, a redo, a replay
    /// or a purge, which are steps of their own).
    var goesOnAStep: Bool {
        switch self {
        case .requestNewTodo, .requestUpdateTodoDetail, .requestCompleteTodo, .requestCompleteTodoWithChildren, .requestReopenTodo,
             .requestToggleComplete, .requestDeleteTodo, .requestRestoreTodo, .requestImportTodos:
            true
        default: false
        }
    }
}
