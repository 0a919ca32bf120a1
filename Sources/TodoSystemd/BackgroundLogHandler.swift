import Dispatch
import Logging
import Synchronization

/// Wraps a log handler so that logging never blocks the caller (the core event loop):
/// records are written by a thread of their own, in order; when more than
/// `maximumPending` wait (a log flood, a stalled journal), the newest are dropped and
/// counted. Text is made safe for a log line on the way: a client's string with a
/// newline or an escape sequence in it cannot forge a line or drive a terminal.
public struct BackgroundLogHandler: LogHandler, Sendable {
    public static let maximumPending = 10_000

    private var inner: any LogHandler
    private let writer: LogWriter

    /// The handler that writes the records.
    public var wrapped: any LogHandler { inner }

    init(_ inner: any LogHandler, writer: LogWriter = .shared) {
        self.inner = inner
        self.writer = writer
    }

    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        var safe = event
        safe.message = "\(LogText.escaped(event.message.description))"
        safe.metadata = event.metadata?.mapValues(LogText.escaped)
        let (inner, record) = (inner, safe)
        writer.write { inner.log(event: record) }
    }
}

/// The thread that writes log records, and its bound.
final class LogWriter: Sendable {
    static let shared = LogWriter()

    private let queue = DispatchQueue(label: "todod.log")
    private let pending = Mutex((count: 0, dropped: 0))

    func write(_ record: @escaping @Sendable () -> Void) {
        let admitted = pending.withLock { pending in
            guard pending.count < BackgroundLogHandler.maximumPending else {
                pending.dropped += 1
                return false
            }
            pending.count += 1
            return true
        }
        guard admitted else { return }
        queue.async {
            record()
            let dropped = self.pending.withLock { pending in
                pending.count -= 1
                defer { pending.dropped = 0 }
                return pending.count == 0 ? pending.dropped : 0
            }
            if dropped > 0 {
                JournalLogHandler.writeToStderr("todod: \(dropped) log messages were dropped: logging could not keep up\n")
            }
        }
    }

    /// Returns once every record handed over so far is written.
    func flush() {
        queue.sync {}
    }
}

/// Text made safe for one log line.
enum LogText {
    /// Control characters (newlines, escapes, C1 controls) shown as `\n`, `\u{1B}`…
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func escaped(_ value: Logger.MetadataValue) -> Logger.MetadataValue {
        switch value {
        case .string(let text): .string(escaped(text))
        case .stringConvertible(let convertible): .string(escaped(convertible.description))
        case .array(let values): .array(values.map(escaped))
        case .dictionary(let values): .dictionary(values.mapValues(escaped))
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
