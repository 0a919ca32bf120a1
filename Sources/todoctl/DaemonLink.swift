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
        /// A change, and the frame it came in (for `events --json`).
        case change(TodoChange, frame: WireFrame)
        /// Changes were dropped because they were not read in time: ask for the list again.
        case missed
        case disconnected(reason: String, retryIn: Duration)
    }

    let socketPath: String

    /// Runs until cancelled. `deliver` is called in order, on this task: while it works,
    /// the link reads nothing more, and the client's bound on unread changes holds.
    func run(_ deliver: (Update) -> Void) async {
        var delay = Duration.milliseconds(100)
        while !Task.isCancelled {
            var reason = "todod is not running"
            do {
                let client = try await TodoClient.connect(to: socketPath)
                delay = .milliseconds(100)
                deliver(.connected(client))
                for await broadcast in client.broadcasts {
                    switch broadcast {
                    case .frame(let frame):
                        switch frame.event {
                        case .responseTodoViewModel(let change): deliver(.change(change, frame: frame))
                        case .responseGoodbye(let goodbye): reason = goodbye.message
                        default: break
                        }
                    case .missed:
                        deliver(.missed)
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
