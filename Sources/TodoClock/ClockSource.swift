import Foundation

extension WallClock {
    /// Where the instant comes from.
    public enum Source: Sendable, Equatable {
        case system
        case fixed(Date)
        /// A file holding one ISO 8601 instant, read at every call.
        case file(String)

        /// The source `TODOD_TEST_NOW`'s value names: empty for the real clock, an instant,
        /// or `@` and a file's path.
        public init(_ value: String) throws(ClockError) {
            let value = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if value.isEmpty {
                self = .system
            } else if value.hasPrefix("@") {
                let path = String(value.dropFirst())
                _ = try Source.read(path)
                self = .file(path)
            } else {
                self = .fixed(try Source.instant(value))
            }
        }

        /// The instant now, by this source.
        public func now() -> Date {
            switch self {
            case .system: Date()
            case .fixed(let date): date
            // A file that vanished mid-test is the test's bug: the last good reading is not kept.
            case .file(let path): (try? Source.read(path)) ?? Date()
            }
        }

        static func read(_ path: String) throws(ClockError) -> Date {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ClockError(message: "cannot read \(path); write an ISO 8601 instant such as 2026-11-23T09:00:00Z into it")
            }
            return try instant(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }

        static func instant(_ text: String) throws(ClockError) -> Date {
            let styles = [
                Date.ISO8601FormatStyle(includingFractionalSeconds: true),
                Date.ISO8601FormatStyle(includingFractionalSeconds: false),
            ]
            for style in styles { if let date = try? style.parse(text) { return date } }
            throw ClockError(message: "\"\(text)\" is not an ISO 8601 instant; write one such as 2026-11-23T09:00:00Z, or @FILE holding one")
        }
    }
}
