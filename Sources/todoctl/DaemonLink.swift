import Foundation
import TodoClient
import TodoViewModel
import TodoWire

/// A connection to todod that comes back: it connects, hands over every change, and
/// when the daemon goes away it says so and tries again, waiting longer each time
/// (0.1 s doubling up to 5 s), forever, until its task is cancelled.
struct DaemonLink: Sendable {
    enum Update: Sendable {
        case connected(TodoClient)
        case change(TodoChange)
        case disconnected(reason: String, retryIn: Duration)
    }

    let socketPath: String

    func run(_ deliver: @escaping @Sendable (Update) -> Void) async {
        var delay = Duration.milliseconds(100)
        while !Task.isCancelled {
            var reason = "todod is not running"
            do {
                let client = try await TodoClient.connect(to: socketPath)
                delay = .milliseconds(100)
                deliver(.connected(client))
                for await frame in client.broadcasts {
                    switch frame.event {
                    case .responseTodoViewModel(let change): deliver(.change(change))
                    case .responseGoodbye(let goodbye): reason = goodbye.message
                    default: break
                    }
                }
                await client.close()
            } catch {
                reason = error.description
            }
            deliver(.disconnected(reason: reason, retryIn: delay))
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(5))
        }
    }
}
