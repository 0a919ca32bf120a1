import ArgumentParser
import Dispatch
import Foundation
import TodoTerminal

/// The terminal while `todoctl watch` owns it: raw keys, the alternate screen, no
/// cursor, no line wrap. `restore()` puts back exactly what was there; it runs on quit,
/// on a signal and on an error.
final class WatchTerminal: @unchecked Sendable {
    private var original = termios()
    private let lock = NSLock()
    private var active = false
    private var lastFrame: [String] = []

    /// Takes the terminal: raw mode, alternate screen, hidden cursor.
    func enter() throws {
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { throw ValidationError("watch needs a terminal on stdin; use --plain in pipes") }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        raw.c_oflag &= ~tcflag_t(OPOST)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        lock.withLock { active = true }
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[2J")
    }

    /// Gives the terminal back as it was; safe to call more than once.
    func restore() {
        let wasActive = lock.withLock { defer { active = false }; return active }
        guard wasActive else { return }
        // The settings first, and without dropping pending input (TCSAFLUSH would): once the
        // shell's screen is back, what the user types meets a terminal as it was.
        tcsetattr(STDIN_FILENO, TCSADRAIN, &original)
        write("\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l")
    }

    var size: (rows: Int, columns: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0 else { return (24, 80) }
        return (Int(window.ws_row), Int(window.ws_col))
    }

    /// Writes only the lines that differ from the last frame drawn.
    func draw(_ frame: [String]) {
        let changed = WatchRenderer.changedLines(from: lastFrame, to: frame)
        lastFrame = frame
        guard !changed.isEmpty else { return }
        var output = changed.count == frame.count ? "\u{1B}[2J" : ""
        // Cleared before it is written: with line wrap off the cursor stays on the last
        // column, and a clear after a full-width line would take its last character.
        for index in changed { output += "\u{1B}[\(index + 1);1H\u{1B}[2K\(frame[index])" }
        write(output)
    }

    /// Forgets the last frame, so the next draw repaints everything (after a resize).
    func invalidate() {
        lastFrame = []
    }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Calls `handler` on these signals instead of their default action.
    static func onSignals(_ signals: [Int32], _ handler: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
        signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }
}
