import CSystemd
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A swift-log handler that writes structured records to the systemd journal (`sd_journal_sendv(3)`).
///
/// Each record carries `MESSAGE`, `PRIORITY`, `SYSLOG_IDENTIFIER` (the label), `CODE_FILE`,
/// `CODE_LINE`, `CODE_FUNC`, and one `TODOD_<KEY>` field per metadata key.
public struct JournalLogHandler: LogHandler, Sendable {
    /// The journal's `SYSLOG_IDENTIFIER`, e.g. "todod".
    public let label: String
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata
    public var metadataProvider: Logger.MetadataProvider?

    /// Creates a handler for `label`, picking up the global metadata provider like `StreamLogHandler`.
    public init(
        label: String,
        logLevel: Logger.Level = .info,
        metadata: Logger.Metadata = [:],
        metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider
    ) {
        self.label = label
        self.logLevel = logLevel
        self.metadata = metadata
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        if Self.send(fields(for: event)) < 0 {
            // journald is unreachable (restarting?): stderr still gets the line to someone, as plain text.
            Self.writeToStderr("\(label): \(event.level): \(event.message)\n")
        }
    }

    /// The `FIELD=value` assignments sent for `event`, in order.
    func fields(for event: LogEvent) -> [String] {
        var fields = [
            "MESSAGE=\(event.message)",
            "PRIORITY=\(Self.priority(for: event.level))",
            "CODE_FILE=\(event.file)",
            "CODE_LINE=\(event.line)",
            "CODE_FUNC=\(event.function)",
        ]
        if !label.isEmpty { fields.append("SYSLOG_IDENTIFIER=\(label)") }
        for (key, value) in mergedMetadata(event) {
            fields.append("\(Self.fieldName(forMetadataKey: key))=\(value)")
        }
        return fields
    }

    /// Handler metadata, then the provider's, then the call's, later ones winning (as `StreamLogHandler`).
    func mergedMetadata(_ event: LogEvent) -> Logger.Metadata {
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty {
            merged.merge(provided) { _, new in new }
        }
        if let explicit = event.metadata, !explicit.isEmpty {
            merged.merge(explicit) { _, new in new }
        }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        return merged
    }

    /// The journal field for a metadata key: "client" → `TODOD_CLIENT`, "peer-uid" → `TODOD_PEER_UID`.
    ///
    /// Journal field names allow only `A-Z`, `0-9`, `_`, must not start with `_` or a digit,
    /// and are at most 64 characters; journald silently drops anything else.
    public static func fieldName(forMetadataKey key: String) -> String {
        var name = "TODOD_"
        for scalar in key.unicodeScalars {
            switch scalar {
            case "A"..."Z", "0"..."9", "_": name.unicodeScalars.append(scalar)
            case "a"..."z": name.unicodeScalars.append(Unicode.Scalar(scalar.value - 32)!)
            default: name.append("_")
            }
        }
        return String(name.prefix(64))
    }

    /// The syslog priority for a level: trace/debug 7, info 6, notice 5, warning 4, error 3, critical 2.
    public static func priority(for level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// Sends the assignments as one journal entry; returns sd_journal_sendv's result (negative errno on failure).
    static func send(_ fields: [String]) -> CInt {
        // One contiguous buffer, so every iovec points into memory that stays alive during the call.
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for field in fields {
            let start = bytes.count
            bytes.append(contentsOf: field.utf8)
            ranges.append(start..<bytes.count)
        }
        return bytes.withUnsafeMutableBytes { buffer in
            let base = buffer.baseAddress
            let vectors = ranges.map { range in
                iovec(iov_base: base.map { $0 + range.lowerBound }, iov_len: range.count)
            }
            return sd_journal_sendv(vectors, CInt(vectors.count))
        }
    }

    /// Last-resort output that needs no Foundation and no locks.
    static func writeToStderr(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            _ = write(STDERR_FILENO, buffer.baseAddress, buffer.count)
        }
    }
}
