import Foundation
import TodoTerminal

/// Reads keys from stdin on a thread of its own until stdin ends, and stops reading
/// while an editor has the terminal: a second reader would take the editor's keys.
final class WatchKeyReader: @unchecked Sendable {
    private let lock = NSCondition()
    private var paused = false
    private var reading = true
    /// Wakes the reader from `poll` when it is asked to pause.
    private var wake: [Int32] = [-1, -1]

    init(_ deliver: @escaping @Sendable (Key) -> Void) {
        pipe(&wake)
        Thread { [self] in read(deliver) }.start()
    }

    /// Returns once the reader has stopped reading.
    func pause() {
        lock.lock()
        paused = true
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
        while reading { lock.wait() }
        lock.unlock()
    }

    func resume() {
        lock.lock()
        paused = false
        lock.broadcast()
        lock.unlock()
    }

    private func read(_ deliver: @Sendable (Key) -> Void) {
        var parser = KeyParser()
        var buffer = [UInt8](repeating: 0, count: 256)
        // Once stdin has ended there is nothing to pause.
        defer { waitWhilePaused(ended: true) }
        while true {
            var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return deliver(.controlD) }
            if fds[1].revents != 0 {
                var byte: UInt8 = 0
                _ = Glibc.read(wake[0], &byte, 1)
                waitWhilePaused()
                continue
            }
            guard fds[0].revents != 0 else { continue }
            let count = Glibc.read(STDIN_FILENO, &buffer, buffer.count)
            guard count > 0 else { return deliver(.controlD) }
            parser.keys(from: Array(buffer[..<count])).forEach(deliver)
            if let escape = parser.flushEscape() { deliver(escape) }
        }
    }

    private func waitWhilePaused(ended: Bool = false) {
        lock.lock()
        reading = false
        lock.broadcast()
        if ended { return lock.unlock() }
        while paused { lock.wait() }
        reading = true
        lock.unlock()
    }
}
