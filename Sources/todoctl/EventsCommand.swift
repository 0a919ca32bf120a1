import ArgumentParser
import TodoWire

struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events", abstract: "Print every change any client makes, one line each, until interrupted.")

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Print each event as the raw JSON line the daemon sent.") var json = false

    func run() async throws {
        try await Session.run(connection) { client in
            for await frame in client.broadcasts {
                switch frame.event {
                case .responseTodoViewModel(let change):
                    Terminal.print(json ? try WireCodec.json(frame) : "\(change.sequence) \(change.line)")
                case .responseGoodbye(let reason):
                    if json { Terminal.print(try WireCodec.json(frame)) }
                    throw Session.fail(.disconnected(reason))
                default:
                    continue
                }
            }
            throw Session.fail(.disconnected(nil))
        }
    }
}
