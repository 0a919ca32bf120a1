import ArgumentParser
import TodoWire

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the daemon's version, uptime, clients, counts and paths.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let status = try Session.run(connection) { client in
            try client.ask(.requestStatus) { if case .responseStatus(let status) = $0 { status } else { nil } }
        }
        if output.json { return try Terminal.printJSON(status) }
        let lines = [
            ("todod", "\(status.serverVersion) (protocol \(status.protocolVersion)), pid \(status.processID)"),
            ("uptime", Self.describe(seconds: status.uptimeSeconds)),
            ("clients", "\(status.connectedClients)" + Self.heldBack(status.heldBackClients ?? 0)),
            ("todos", "\(status.openTodos) open, \(status.completedTodos) done, \(status.deletedTodos) deleted"),
            ("changes", "\(status.sequence)"),
            ("database", status.databasePath),
            ("socket", status.socketPath),
        ] + (status.sharedStore.map { [("store", "\($0.store), \($0.state)")] } ?? [])
        for (name, value) in lines { Terminal.print("\(name.padding(toLength: 10, withPad: " ", startingAt: 0))\(value)") }
    }

    static func heldBack(_ count: Int) -> String {
        count == 0 ? "" : ", \(count) held back (\(count == 1 ? "it asks" : "they ask") faster than \(count == 1 ? "it reads" : "they read"))"
    }

    static func describe(seconds: Double) -> String {
        let total = Int(seconds)
        let (days, hours, minutes, rest) = (total / 86_400, total / 3600 % 24, total / 60 % 60, total % 60)
        if days > 0 { return "\(days)d \(hours)h \(minutes)m" }
        if hours > 0 { return "\(hours)h \(minutes)m" }
        return minutes > 0 ? "\(minutes)m \(rest)s" : "\(rest)s"
    }
}
