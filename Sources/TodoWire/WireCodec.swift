import Foundation
import NIOCore
import TodoEvents
import TodoModel
import TodoViewModel

/// A request line the daemon could not take, with the error to answer and the request's
/// `id` when it could be read, so that the asker still gets its answer.
public struct RejectedFrame: Error, Sendable, Equatable {
    public var id: String?
    public var error: TodoError

    public init(id: String?, _ message: String) {
        self.id = id
        error = TodoError(.badRequest, message)
    }

    /// An empty line, which people typing into socat send by accident: not answered.
    public static let blank = RejectedFrame(id: nil, "")

    public var isBlank: Bool { self == .blank }
}

/// Reads and writes frames as JSON lines. Instants are ISO 8601 in UTC with
/// milliseconds (`2026-11-22T09:30:00.000Z`); due dates are `YYYY-MM-DD`.
///
/// Lines are read by `JSONDocument` (strict RFC 8259, bounded nesting, capped arrays in
/// requests) and decoded by `WireDecoder`; frames are written by `WireEncoder`. Both go
/// through the types' `Codable` conformances, the one definition of the JSON shape, except
/// for the few frames a one-shot command sends and reads, and the daemon's most frequent
/// requests and answers, which are written and read from their members
/// (`WireEncoder+Request.swift`, `WireEncoder+Response.swift`, `WireDecoder+Frame.swift`) and
/// checked against the conformances byte for byte.
public struct WireCodec: Sendable {
    /// The day a client reads its rows' relative texts against ("in 3 days", overdue).
    public typealias Today = @Sendable () -> LocalDate

    /// Where decoded rows get their day: asked once per frame, of the client's clock (todoctl
    /// passes its own, which tests set with TODOD_TEST_NOW). The wire reads no clock itself;
    /// without one (the daemon, whose rows are only sent) rows carry no day.
    public let today: Today?

    /// The minute it is now on that day, for due times ("in 2 h", overdue from 15:00).
    public typealias Now = @Sendable () -> TimeOfDay

    /// Asked with `today`, of the same clock; without one, rows are read by the day.
    public let now: Now?

    public init(today: Today? = nil, now: Now? = nil) {
        self.today = today
        self.now = now
    }

    /// The frame as one JSON line, newline included.
    public func encode(_ frame: WireFrame) throws -> ByteBuffer {
        var buffer = ByteBuffer()
        if let quick = WireEncoder.quickRequest(frame) {
            buffer.reserveCapacity(quick.count + 1)
            buffer.writeBytes(quick)
        } else if var spliced = try WireEncoder.quickResponse(frame) {
            spliced.write(into: &buffer)
        } else {
            try WireEncoder.write(frame, into: &buffer)
        }
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }

    /// A view event as it goes out to a client, correlated with the request it answers.
    public func encode(_ event: Event, correlation: Correlation?) throws -> ByteBuffer {
        try encode(WireFrame(event, correlation: correlation))
    }

    /// Any value as JSON with the protocol's conventions (dates, sorted keys), for
    /// `--json` output. (Through `JSONEncoder`, for its pretty printing; the tests check
    /// that the compact form is the bytes `encode(_:)` sends.)
    public static func json<T: Encodable>(_ value: T, pretty: Bool = false) throws -> String {
        let data = try (pretty ? prettyEncoder : encoder).encode(value)
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads a request a client sent, or the error to answer it with: the frame is not
    /// UTF-8, not JSON (RFC 8259, strictly), nested too deep, holds too long an array,
    /// names no or an unknown event, names a response or a model event, or its data does
    /// not fit the event. A blank line is `RejectedFrame.blank`, which is not answered.
    public func decodeRequest(_ line: ByteBuffer) -> Result<WireFrame, RejectedFrame> {
        let bytes = Array(line.readableBytesView)
        guard !bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return .failure(.blank) }
        guard WireCodec.isUTF8(bytes) else {
            return .failure(RejectedFrame(id: nil, "the line is not valid UTF-8: send one JSON object per line, UTF-8 encoded"))
        }
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: bytes, limits: .request)
        } catch {
            return .failure(WireCodec.unreadable(error))
        }
        // The frequent requests are read from their members at once (`WireDecoder+Frame.swift`):
        // reading the header through its conformance first was a quarter of the request's
        // decoding (callgrind). Whatever they do not take whole, a bad one included, is read
        // below, as before, so that its error has the same words.
        if let frame = WireDecoder(document: document).quickRequestFrame(),
            (frame.id?.utf8.count ?? 0) <= WireProtocol.maximumIDBytes {
            return .success(frame)
        }
        let header: FrameHeader
        do {
            header = try FrameHeader(from: WireDecoder(document: document))
        } catch {
            return .failure(WireCodec.unreadable(error))
        }
        if let id = header.id, id.utf8.count > WireProtocol.maximumIDBytes {
            // Not echoed: the id comes back with every answer, and is kept while its request is in flight.
            return .failure(RejectedFrame(id: nil, "the id is \(id.utf8.count) bytes of UTF-8; the most is \(WireProtocol.maximumIDBytes): choose a shorter one"))
        }
        if ModelEvent.Kind(rawValue: header.event) != nil {
            return .failure(RejectedFrame(id: header.id, "\"\(header.event)\" is a model event, which never crosses the socket: the requests are \(WireCodec.requestNames)"))
        }
        guard let kind = EventKind(rawValue: header.event) else {
            return .failure(RejectedFrame(id: header.id, "unknown event \"\(header.event)\": the requests are \(WireCodec.requestNames)"))
        }
        guard EventKind.viewRequests.contains(kind) else {
            return .failure(RejectedFrame(id: header.id, "\"\(kind.rawValue)\" is a response, which only the daemon sends: the requests are \(WireCodec.requestNames)"))
        }
        do {
            return .success(try WireFrame(from: WireDecoder(document: document)))
        } catch {
            return .failure(RejectedFrame(id: header.id, "\"\(kind.rawValue)\" has bad data: \(WireCodec.describe(error))"))
        }
    }

    /// A line that is not JSON, or no frame: no event named, or not as a string.
    private static func unreadable(_ error: any Error) -> RejectedFrame {
        RejectedFrame(id: nil, "cannot read the line as a frame (\(WireCodec.describe(error))): each line is a JSON object with a string \"event\" and an optional string \"id\", see docs/PROTOCOL.md")
    }

    /// The correlation of a frame that did not decode (a newer daemon's event), so that
    /// a client can fail the one request it answers and ignore the rest.
    public func correlation(of line: ByteBuffer) -> (id: String, client: UInt64?)? {
        struct Correlated: Decodable {
            var id: String
            var client: UInt64?
        }
        guard let document = try? JSONDocument(bytes: Array(line.readableBytesView), limits: .response),
            let correlated = try? Correlated(from: WireDecoder(document: document))
        else { return nil }
        return (correlated.id, correlated.client)
    }

    /// Reads a frame the daemon sent. Its UTF-8 is checked by the reader alone: JSON allows
    /// bytes above 0x7F only inside strings, and `JSONParser.string` validates those (a
    /// second pass over the whole line first was 4% of `todoctl next`'s instructions).
    public func decodeResponse(_ line: ByteBuffer) throws -> WireFrame {
        let document = try JSONDocument(bytes: Array(line.readableBytesView), limits: .response)
        return try WireDecoder(document: document, context: .init(day: today, time: now)).responseFrame()
    }

    /// Reads one value written by `json(_:)` (a line of `todoctl log --json`), with the
    /// protocol's rules for dates, ids and strictness.
    public static func decode<T: Decodable>(_ type: T.Type, from line: String, today: Today? = nil, now: Now? = nil) throws -> T {
        let document = try JSONDocument(bytes: Array(line.utf8), limits: .response)
        return try T(from: WireDecoder(document: document, context: .init(day: today, time: now)))
    }

    /// Whether the line is valid UTF-8 (at once when it is ASCII, as requests mostly are).
    private static func isUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 < 0x80 } || String(validating: bytes, as: UTF8.self) != nil
    }

    private struct FrameHeader: Decodable {
        var event: String
        var id: String?

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            event = try c.decode(String.self, forKey: .event)
            // A non-string id is refused; the frame's answer then carries no id (PROTOCOL.md).
            id = try c.decodeIfPresent(String.self, forKey: .id)
        }

        private enum CodingKeys: String, CodingKey { case event, id }
    }

    private static let requestNames = EventKind.viewRequests.map(\.rawValue).sorted().joined(separator: ", ")

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(timestamp(date))
        }
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    private static let prettyEncoder: JSONEncoder = {
        let pretty = JSONEncoder()
        pretty.dateEncodingStrategy = encoder.dateEncodingStrategy
        pretty.outputFormatting = [.withoutEscapingSlashes, .sortedKeys, .prettyPrinted]
        return pretty
    }()

    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// An ISO 8601 instant with fractional seconds, to the millisecond, as frames are read.
    static func parseTimestamp(_ text: String) -> Date? {
        (try? timestampStyle.parse(text))?.roundedToMilliseconds
    }

    /// `2026-11-22T09:30:00.123Z`, exact to the millisecond: the whole seconds formatted,
    /// the milliseconds written from the integer, so no binary fraction can drop one.
    static func timestamp(_ date: Date) -> String {
        let milliseconds = date.millisecondsSince1970
        let (seconds, fraction) = (milliseconds.floorDivided(by: 1000), milliseconds.floorRemainder(by: 1000))
        let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601)
        return whole.dropLast() + "." + String(fraction + 1000).dropFirst() + "Z"
    }

    /// A decoding error in a person's words: where in the JSON, and what was wrong.
    static func describe(_ error: any Error) -> String {
        if let error = error as? JSONSyntaxError { return error.description }
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "" : "at \(keys.joined(separator: ".")): "
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context))missing field \"\(key.stringValue)\""
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\(path(context))" + (context.debugDescription.isEmpty ? "expected \(type)" : context.debugDescription)
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0.localizedDescription))" } ?? ""
            return "\(path(context))\(context.debugDescription)\(underlying)"
        @unknown default: return "\(error)"
        }
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        (self - floorRemainder(by: divisor)) / divisor
    }

    fileprivate func floorRemainder(by divisor: Int64) -> Int64 {
        ((self % divisor) + divisor) % divisor
    }
}

/// A frame is written straight into the buffer it is sent in.
extension ByteBuffer: JSONSink {
    mutating func append(_ byte: UInt8) { writeInteger(byte) }
    mutating func append<Bytes: Sequence<UInt8>>(contentsOf bytes: Bytes) { writeBytes(bytes) }
    /// Room for the newline too.
    mutating func reserve(_ count: Int) { reserveCapacity(minimumWritableBytes: count + 1) }
}
