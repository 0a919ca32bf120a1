import Foundation
import Synchronization
import TodoClient
import TodoEvents
import TodoModel
import TodoViewModel

/// Writers adding todos as fast as they are answered, each outcome kept by title, until stopped.
final class WriterStorm: Sendable {
    struct Tally: Sendable {
        var acknowledged: Set<String> = []
        /// Refused saying nothing was written.
        var refused: Set<String> = []
        /// Refused saying it is not known yet whether it was written.
        var inDoubt: Set<String> = []
        /// Anything else: a failure of the test.
        var unexpected: [String] = []
    }

    private let state = Mutex((tally: Tally(), stopped: false))

    var tally: Tally { state.withLock { $0.tally } }

    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// `count` writers, each on a connection of its own, spread over `daemons` in turn,
    /// writing until `stop()`.
    func run(_ count: Int, over daemons: [DaemonProcess]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<count {
                let client = try await TodoClient.connect(to: daemons[writer % daemons.count].socketPath)
                group.addTask { await self.write(as: writer, through: client) }
            }
            try await group.waitForAll()
        }
    }

    func write(as writer: Int, through client: TodoClient) async {
        var index = 0
        while !state.withLock({ $0.stopped }) {
            index += 1
            let title = "writer \(writer) todo \(index)"
            let outcome: Result<Event, TodoClientError>
            do {
                outcome = .success(try await client.request(.requestNewTodo(NewTodo(title: title))))
            } catch {
                outcome = .failure(error)
            }
            state.withLock { state in
                switch outcome {
                case .success: state.tally.acknowledged.insert(title)
                case .failure(.refused(let error)) where error.message.contains("cannot tell yet whether it was written"):
                    state.tally.inDoubt.insert(title)
                case .failure(.refused(let error)) where error.message.contains("nothing was written"):
                    state.tally.refused.insert(title)
                case .failure(let error): state.tally.unexpected.append("\(title): \(error)")
                }
            }
            // A refusal comes at once while PostgreSQL is away: no need to hammer the daemon meanwhile.
            if case .failure = outcome { try? await Task.sleep(for: .milliseconds(20)) }
        }
        await client.close()
    }

    /// Waits until `condition` holds of the tally (no event says so; read every 20 ms).
    func await(_ what: String, timeout: TimeInterval = 30, _ condition: (Tally) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(tally) {
            guard Date() < deadline else { throw TestFailure("waited \(Int(timeout)) s for \(what); the writers: \(tally)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
