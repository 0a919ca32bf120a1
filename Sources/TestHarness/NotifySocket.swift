import Foundation
import UnixSocket

/// A datagram socket standing in for systemd's notification socket (`NOTIFY_SOCKET`): a
/// daemon's `READY=1` is the event a test or the bench waits for before it talks to it, and a
/// test reads what a notifier sent. A thread reads every datagram as it comes, as systemd
/// does, so the sender never waits on it; `close()` (or dropping it) ends the thread.
public final class NotifySocket: Sendable {
    /// Where it listens: a path, or `@name` in the abstract namespace.
    public let path: String
    private let fd: Int32
    private let datagrams = Datagrams()

    /// Listens at `path` (a path, or `@name` in the abstract namespace).
    public init(path: String) throws {
        self.path = path
        let doing = "listen for notifications at \(path)"
        do {
            fd = try openUnixSocket(SOCK_DGRAM, UnixAddress.bind, UnixAddress(notifySocket: path) ?? UnixAddress(path: path), doing: doing)
        } catch let error as UnixAddress.TooLong {
            throw HarnessFailure("cannot \(doing): \(error)")
        }
        Thread { [fd, datagrams] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count < 0 && errno == EINTR { continue }
                // 0 or an error: close() shut the socket down. The descriptor is closed here,
                // after the last recv, so that it is never another file's by then.
                guard count > 0 else {
                    Glibc.close(fd)
                    return
                }
                datagrams.append(String(decoding: buffer[..<count], as: UTF8.self))
            }
        }.start()
    }

    /// A socket of a name no other test uses: in /tmp, or in the abstract namespace ("@name" in
    /// `$NOTIFY_SOCKET`, as some managers use).
    public convenience init(abstract: Bool = false) throws {
        let name = "todod-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try self.init(path: abstract ? "@" + name : "/tmp/\(name).sock")
    }

    /// Every datagram received so far.
    public var received: [String] { datagrams.all }

    /// The next datagram `receive` has not returned yet, or nil when none comes within `timeout`
    /// seconds: for a test that checks what a notifier sends, message by message.
    public func receive(timeout: TimeInterval = 2) -> String? {
        datagrams.next(until: Date().addingTimeInterval(timeout))
    }

    /// The first datagram (from the start) containing `needle`. Fails after `timeout` seconds,
    /// or at once when `senderRuns` (asked every 0.1 s) says the sender ended without it.
    @discardableResult
    public func awaitMessage(
        containing needle: String, timeout: TimeInterval = 20, while senderRuns: @escaping @Sendable () -> Bool = { true }
    ) async throws -> String {
        try await blocking { [datagrams] in
            try datagrams.first(containing: needle, timeout: timeout, while: senderRuns)
        }
    }

    /// Stops the reader, which closes the socket; removes the socket file.
    public func close() {
        guard datagrams.close() else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        if path.hasPrefix("/") { unlink(path) }
    }

    deinit { close() }
}

/// The datagrams a NotifySocket received, shared between its reader thread and its callers.
/// Unchecked: every property is read and written under `condition`, which the waits need.
private final class Datagrams: @unchecked Sendable {
    private let condition = NSCondition()
    private var messages: [String] = []
    /// How many `next` has returned.
    private var taken = 0
    private var closed = false

    func append(_ message: String) {
        condition.withLock {
            messages.append(message)
            condition.broadcast()
        }
    }

    var all: [String] { condition.withLock { messages } }

    func next(until deadline: Date) -> String? {
        condition.withLock {
            while taken == messages.count {
                guard condition.wait(until: deadline) else { return nil }
            }
            defer { taken += 1 }
            return messages[taken]
        }
    }

    func first(containing needle: String, timeout: TimeInterval, while senderRuns: () -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        return try condition.withLock {
            while true {
                if let found = messages.first(where: { $0.contains(needle) }) { return found }
                // Asked after the messages: a sender that said it and then ended has said it.
                guard senderRuns() else { throw HarnessFailure("the sender ended without sending \(needle)") }
                let now = Date()
                guard now < deadline else { throw HarnessFailure("no \(needle) within \(Int(timeout)) s; received: \(messages)") }
                _ = condition.wait(until: min(deadline, now.addingTimeInterval(0.1)))
            }
        }
    }

    /// Marks it closed; false if it was already.
    func close() -> Bool {
        condition.withLock {
            defer { closed = true }
            return !closed
        }
    }
}
