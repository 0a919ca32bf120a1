/// Who made a change: the daemon's number for the connection, and the program the client
/// named in its first request (`todoctl`, `watch`; empty when it named none). Client 0
/// is the daemon itself (a migration, a replay).
///
/// With a shared store (`todod --store`), a change another machine made also names that
/// machine (its replica's name, `todod --machine`): client numbers are each daemon's own, so
/// two machines' "client 8" read alike (outside probe 11, F13). A change of this machine's
/// names none, and neither does one journaled before machines were named.
public struct ChangeAuthor: Sendable, Codable, Hashable {
    public var client: UInt64
    public var program: String
    /// The machine whose daemon made the change, when it is another's than the reader's.
    public var machine: String?

    public init(client: UInt64 = 0, program: String = "", machine: String? = nil) {
        self.client = client
        self.program = program
        self.machine = machine
    }

    /// `todoctl (client 3)`, or `client 3` when the program is unnamed; `todod` for a change
    /// the daemon made itself (a todo's waiting ended, a calendar file read), which no
    /// client asked for: "client 0" would name a client that never was. Another machine's
    /// says which with the client, whose number is that machine's: `todoctl on pts/3 (client 8
    /// on laptop)`, `todod on laptop` (the program may name a terminal: `on pts/3`).
    public var description: String {
        let on = machine.map { " on \($0)" } ?? ""
        if client == 0 && program.isEmpty { return "todod" + on }
        return program.isEmpty ? "client \(client)" + on : "\(program) (client \(client)\(on))"
    }

    /// This author as another machine reads it: named `machine`, unless it names one already.
    public func on(_ machine: String) -> ChangeAuthor {
        var author = self
        author.machine = author.machine ?? machine
        return author
    }

    /// This author as the machine `machine` reads it: its own changes name no machine.
    public func read(on machine: String) -> ChangeAuthor {
        var author = self
        if author.machine == machine { author.machine = nil }
        return author
    }
}
