/// Who made a change: the daemon's number for the connection, and the program the client
/// named in its first request (`todoctl`, `watch`; empty when it named none). Client 0
/// is the daemon itself (a migration, a replay).
public struct ChangeAuthor: Sendable, Codable, Hashable {
    public var client: UInt64
    public var program: String

    public init(client: UInt64 = 0, program: String = "") {
        self.client = client
        self.program = program
    }

    /// `todoctl (client 3)`, or `client 3` when the program is unnamed; `todod` for a change
    /// the daemon made itself (a todo's waiting ended, a calendar file read), which no
    /// client asked for: "client 0" would name a client that never was.
    public var description: String {
        if client == 0 && program.isEmpty { return "todod" }
        return program.isEmpty ? "client \(client)" : "\(program) (client \(client))"
    }
}
