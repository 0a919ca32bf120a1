import Foundation
import NIOCore
import TodoEvents
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
public struct WireCodec: Sendable {
    public init() {}

    /// The frame as one JSON line, newline included.
    ///
    /// The frames that cross the socket most often are written by `FastFrameWriter`, the
    /// others by `JSONEncoder`; the bytes are the same either way (debug builds check).
    public func encode(_ frame: WireFrame) throws -> ByteBuffer {
        var writer = FastFrameWriter()
        guard writer.write(frame) else { return ByteBuffer(bytes: try WireCodec.encodeWithFoundation(frame)) }
        assert(writer.byteCount > WireCodec.checkedSize || WireCodec.sameBytes(writer.bytes, frame),
               "FastFrameWriter and JSONEncoder disagree on \(frame)")
        return writer.buffer
    }

    /// Debug builds check the fast path against Foundation on frames up to this size: every
    /// field of every type shows up in small frames (a change, a detail, a short list),
    /// and checking long lists too would make a debug daemon several times slower.
    static let checkedSize = 8 << 10

    /// The frame as `JSONEncoder` writes it, newline included.
    static func encodeWithFoundation(_ frame: WireFrame) throws -> Data {
        var data = try WireCodec.encoder.encode(frame)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    private static func sameBytes(_ fast: [UInt8], _ frame: WireFrame) -> Bool {
        guard let slow = try? encodeWithFoundation(frame), Array(slow) == fast else {
            let slow = (try? encodeWithFoundation(frame)).map { String(decoding: $0, as: UTF8.self) } ?? "(fails)"
            print("FastFrameWriter wrote\n\(String(decoding: fast, as: UTF8.self))JSONEncoder wrote\n\(slow)")
            return false
        }
        return true
    }

    public func encode(_ envelope: Envelope) throws -> ByteBuffer {
        try encode(WireFrame(envelope))
    }

    /// Any value as JSON with the protocol's conventions (dates, sorted keys), for
    /// `--json` output.
    public static func json<T: Encodable>(_ value: T, pretty: Bool = false) throws -> String {
        let data = try (pretty ? prettyEncoder : encoder).encode(value)
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads a request a client sent, or the error to answer it with: the frame is not
    /// UTF-8, not JSON, names no or an unknown event, names a response or a model event,
    /// or its data does not fit the event.
    public func decodeRequest(_ line: ByteBuffer) -> Result<WireFrame, RejectedFrame> {
        // Most requests are read by FastFrameReader; anything it does not take (and every
        // error) goes the long way below, which has the words for what is wrong.
        if let frame = WireCodec.fastFrame(line, requestsOnly: true), WireCodec.isUTF8(line) {
            assert(line.readableBytes > WireCodec.checkedSize || WireCodec.decodeRequestWithFoundation(line) == .success(frame),
                   "FastFrameReader and JSONDecoder disagree on \(frame)")
            return .success(frame)
        }
        return WireCodec.decodeRequestWithFoundation(line)
    }

    private static func decodeRequestWithFoundation(_ line: ByteBuffer) -> Result<WireFrame, RejectedFrame> {
        let bytes = Data(line.readableBytesView)
        guard !bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return .failure(.blank) }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            return .failure(RejectedFrame(id: nil, "the line is not valid UTF-8: send one JSON object per line, UTF-8 encoded"))
        }
        let header: FrameHeader
        do {
            header = try WireCodec.decoder.decode(FrameHeader.self, from: bytes)
        } catch {
            return .failure(RejectedFrame(id: nil, "cannot read the line as a frame (\(WireCodec.describe(error))): each line is a JSON object with a string \"event\" and an optional string \"id\", see docs/PROTOCOL.md"))
        }
        guard let kind = EventKind(rawValue: header.event) else {
            return .failure(RejectedFrame(id: header.id, "unknown event \"\(header.event)\": the requests are \(WireCodec.requestNames)"))
        }
        guard EventKind.viewRequests.contains(kind) else {
            let what = kind.isModelEvent ? "a model event, which never crosses the socket" : "a response, which only the daemon sends"
            return .failure(RejectedFrame(id: header.id, "\"\(kind.rawValue)\" is \(what): the requests are \(WireCodec.requestNames)"))
        }
        do {
            return .success(try WireCodec.decoder.decode(WireFrame.self, from: bytes))
        } catch {
            return .failure(RejectedFrame(id: header.id, "\"\(kind.rawValue)\" has bad data: \(WireCodec.describe(error))"))
        }
    }

    /// The correlation of a frame that did not decode (a newer daemon's event), so that
    /// a client can fail the one request it answers and ignore the rest.
    public func correlation(of line: ByteBuffer) -> (id: String, client: UInt64?)? {
        struct Correlated: Decodable {
            var id: String
            var client: UInt64?
        }
        return (try? WireCodec.decoder.decode(Correlated.self, from: Data(line.readableBytesView))).map { ($0.id, $0.client) }
    }

    /// Reads a frame the daemon sent: by `FastFrameReader` when it can, else by `JSONDecoder`.
    public func decodeResponse(_ line: ByteBuffer) throws -> WireFrame {
        if let frame = WireCodec.fastFrame(line, requestsOnly: false) {
            assert(line.readableBytes > WireCodec.checkedSize || (try? WireCodec.decodeResponseWithFoundation(line)) == frame,
                   "FastFrameReader and JSONDecoder disagree on \(frame)")
            return frame
        }
        return try WireCodec.decodeResponseWithFoundation(line)
    }

    private static func decodeResponseWithFoundation(_ line: ByteBuffer) throws -> WireFrame {
        try WireCodec.decoder.decode(WireFrame.self, from: Data(line.readableBytesView))
    }

    private static func fastFrame(_ line: ByteBuffer, requestsOnly: Bool) -> WireFrame? {
        line.withUnsafeReadableBytes { bytes in
            do {
                return try FastFrameReader.frame(bytes, requestsOnly: requestsOnly)
            } catch {
                return nil
            }
        }
    }

    /// Whether the line is valid UTF-8 (at once when it is ASCII, as requests mostly are).
    private static func isUTF8(_ line: ByteBuffer) -> Bool {
        line.withUnsafeReadableBytes { bytes in
            bytes.allSatisfy { $0 < 0x80 } || String(validating: bytes, as: UTF8.self) != nil
        }
    }

    private struct FrameHeader: Decodable {
        var event: String
        var id: String?

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            event = try c.decode(String.self, forKey: .event)
            guard (try? c.decodeNil(forKey: .id)) != false || (try? c.decode(String.self, forKey: .id)) != nil else {
                throw DecodingError.typeMismatch(String.self, .init(codingPath: [CodingKeys.id], debugDescription: "\"id\" must be a string"))
            }
            id = try? c.decodeIfPresent(String.self, forKey: .id)
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

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = parseTimestamp(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not an ISO 8601 time"))
            }
            return date
        }
        return decoder
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
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "" : "at \(keys.joined(separator: ".")): "
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context))missing field \"\(key.stringValue)\""
        case .typeMismatch(let type, let context): return "\(path(context))expected \(type)"
        case .valueNotFound(let type, let context): return "\(path(context))expected \(type), found null"
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
