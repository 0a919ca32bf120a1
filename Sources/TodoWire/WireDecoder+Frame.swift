import TodoEvents
import TodoViewModel

/// The frames every one-shot command reads, read from their members: the hello that opens
/// each connection, and a todo's detail (`todoctl show`).
///
/// Why: through the conformances (`WireFrame`, `Event`, `ServerHello`), a process met Codable's
/// generic containers for the first time on its hello, and the runtime's instantiation of
/// each, with its scans of every conformance record in the binary, was 16% of the CPU of
/// `todoctl show` (perf, 300 runs; docs/PERFORMANCE.md, "Start-up"). Every other event
/// still goes through the conformances, which stay the definition of the shape; so does a
/// frame these readers do not take (a field missing, null or of another type), so that its
/// error has the conformance's words. The codec's tests read every frame both ways.
extension WireDecoder {
    /// The frame, as `WireFrame.init(from:)` reads it.
    func responseFrame() throws -> WireFrame {
        if let frame = try? quickFrame() { return frame }
        return try WireFrame(from: self)
    }

    /// The frame when it is a hello or a detail these readers take whole; nil otherwise.
    private func quickFrame() throws -> WireFrame? {
        guard kind == .object else { return nil }
        var event: String?, id: String?, client: UInt64?, program: String?, data: WireDecoder?
        try forEachMember { key, value in
            let present = value.kind != .null
            switch key {
            case "event": event = try value.text()
            case "id" where present: id = try value.text()
            case "client" where present: client = try value.integer(UInt64.self)
            case "program" where present: program = try value.text()
            case "data" where present: data = value
            default: return  // unknown members are a newer daemon's, skipped as the conformances skip them
            }
        }
        guard let data else { return nil }
        let decoded: Event
        switch event {
        case EventKind.responseHello.rawValue?:
            guard let hello = try data.hello() else { return nil }
            decoded = .responseHello(hello)
        case EventKind.responseTodoDetail.rawValue?: decoded = .responseTodoDetail(try data.detail())
        default: return nil
        }
        return WireFrame(event: decoded, id: id, client: client, program: program)
    }

    /// `{"protocol": 1, "server": "0.1.0", "client": 3, "seq": 42}`; nil when a field is missing.
    private func hello() throws -> ServerHello? {
        guard kind == .object else { return nil }
        var version: Int?, server: String?, client: UInt64?, sequence: UInt64?
        try forEachMember { key, value in
            switch key {
            case "protocol": version = try value.integer(Int.self)
            case "server": server = try value.text()
            case "client": client = try value.integer(UInt64.self)
            case "seq": sequence = try value.integer(UInt64.self)
            default: return
            }
        }
        guard let version, let server, let client, let sequence else { return nil }
        return ServerHello(protocolVersion: version, serverVersion: server, client: client, sequence: sequence)
    }
}
