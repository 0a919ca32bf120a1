import Foundation
import TodoClient
import TodoEvents
import TodoViewModel
import TodoWire

/// A connection to todod that comes back: it connects, hands over every change, and
/// when the daemon goes away it says so and tries again, waiting longer each time
/// (0.1 s doubling up to 5 s), forever, until its task is cancelled. Back, it catches up
/// with `requestChanges`: the changes made while it was away come first, each once; when
/// more were made than one answer holds, `.missed` says to read the list again. So it does,
/// at once, when its client dropped changes that were not read in time (`Broadcast.missed`):
/// waiting for the next change to tell the gap left a reader that resumed after a burst
/// unaware until someone changed something else (issue 25).
struct DaemonLink: Sendable {
    enum Update: Sendable {
        case connected(TodoClient)
        /// A change, and the frame it came in (for `events --json`).
        case change(TodoChange, frame: WireFrame)
        /// Changes were dropped (not read in time, or too many made while away) and are not
        /// delivered: those after `after`, up to `through` (nil: not known). Ask for the list again.
        case missed(after: UInt64, through: UInt64?)
        case disconnected(reason: String, retryIn: Duration)
        /// The shared store became unreachable, or reachable again.
        case sharedStore(SharedStoreStatus)
    }

    let socketPath: String
    /// How this client is named in the journal.
    var program = ClientProgram.todoctl

    /// Runs until cancelled. `deliver` is called in order, on this task: while it works,
    /// the link reads nothing more, and the client's bound on unread changes holds.
    func run(_ deliver: (Update) -> Void) async {
        var delay = Duration.milliseconds(100)
        var last: UInt64?
        while !Task.isCancelled {
            var reason = "todod is not running"
            do {
                let client = try await TodoClient.connect(to: socketPath, program: program)
                delay = .milliseconds(100)
                deliver(.connected(client))
                if let seen = last, client.hello.sequence > seen {
                    last = await catchUp(client, after: seen, deliver) ?? client.hello.sequence
                } else {
                    last = client.hello.sequence
                }
                for await broadcast in client.broadcasts {
                    switch broadcast {
                    case .frame(let frame):
                        switch frame.event {
                        case .responseTodoViewModel(let change) where change.sequence > last ?? 0:
                            last = change.sequence
                            deliver(.change(change, frame: frame))
                        case .responseGoodbye(let goodbye): reason = goodbye.message
                        case .responseSharedStore(let status):
                            // Changes kept on the daemon's machine were made again on others': the numbers after
                            // the base are the store's now, and its changes, which follow, are delivered too.
                            if let base = status.rewoundTo, let seen = last, seen > base { last = base }
                            deliver(.sharedStore(status))
                        default: break
                        }
                    case .missed:
                        // Read the dropped changes from the journal now: no later change may come to show the gap.
                        let seen = last ?? client.hello.sequence
                        last = await catchUp(client, after: seen, deliver) ?? seen
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

    /// Delivers the changes after `seen` and returns the last change now accounted for: up
    /// to it, each was delivered or said missed. Nil when the daemon did not answer.
    private func catchUp(_ client: TodoClient, after seen: UInt64, _ deliver: (Update) -> Void) async -> UInt64? {
        guard case .responseChanges(let list)? = try? await client.request(.requestChanges(ChangesRequest(since: seen))) else {
            deliver(.missed(after: seen, through: nil))
            return nil
        }
        if list.tooFarBehind { deliver(.missed(after: seen, through: list.seq)) }
        for change in list.changes {
            let broadcast = change.change
            deliver(.change(broadcast, frame: WireFrame(event: .responseTodoViewModel(broadcast))))
        }
        return list.seq
    }
}
