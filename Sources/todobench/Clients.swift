import Foundation
import Synchronization
import TodoClient
import TodoEvents
import TodoModel
import TodoViewModel

/// Connects a TodoClient and reads its broadcasts away (they would pile up otherwise).
func connectClient(_ daemon: BenchDaemon) async throws -> TodoClient {
    let client = try await TodoClient.connect(to: daemon.socketPath)
    Task.detached { for await _ in client.broadcasts {} }
    return client
}

func connectClients(_ count: Int, _ daemon: BenchDaemon) async throws -> [TodoClient] {
    var clients: [TodoClient] = []
    for _ in 0..<count { clients.append(try await connectClient(daemon)) }
    return clients
}

func closeAll(_ clients: [TodoClient]) async {
    for client in clients { await client.close() }
}

/// A todo as people make them: some with notes, a due date, tags, a priority.
func sampleTodo(_ index: Int) -> NewTodo {
    let priorities: [Priority] = [.normal, .high, .normal, .low]
    let tags: [[String]] = [[], ["home"], ["work", "bench"], []]
    return NewTodo(
        title: "Bench todo \(index): check the figures again",
        notes: index % 4 == 0 ? "Seeded by todobench; notes long enough to look like real ones." : "",
        priority: priorities[index % priorities.count],
        due: index % 3 == 0 ? LocalDate(year: 2030, month: 1 + index % 12, day: 1 + index % 28) : nil,
        tags: tags[index % tags.count])
}

/// Adds `count` todos through the daemon, 8 clients with 8 requests in flight each.
func seed(_ daemon: BenchDaemon, count: Int) async throws {
    let clients = try await connectClients(8, daemon)
    let next = Counter()
    try await withThrowingTaskGroup(of: Void.self) { group in
        for client in clients {
            for _ in 0..<8 {
                group.addTask {
                    while true {
                        let index = next.increment()
                        guard index <= count else { return }
                        _ = try await client.request(.requestNewTodo(sampleTodo(index)))
                    }
                }
            }
        }
        try await group.waitForAll()
    }
    await closeAll(clients)
}

/// The list the daemon answers, to check that a scenario reads what it says it reads.
func listCount(_ client: TodoClient, _ filter: TodoFilter = TodoFilter()) async throws -> Int {
    guard case .responseTodoViewModels(let list) = try await client.request(.requestTodoViewModels(filter)) else {
        throw BenchError("the daemon did not answer the list request with a list")
    }
    return list.todos.count
}

final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func increment() -> Int { value.add(1, ordering: .relaxed).newValue }
}
