import EventTestSupport
import Foundation
import GRDB
import Testing
import TodoEvents
import TodoModel
@testable import TodoServers
import TodoViewModel

/// The replica's conflicts on a real bus (`ConflictKeeper`): listed, taken by an ordinary
/// change, left; the refusals. The conflict is written as sharing writes it.
@Suite("conflicts")
struct ConflictKeeperTests {
    /// A conflict of `todo`'s title: this machine's was `local`, the store kept the todo's.
    private func keep(_ todo: Todo, local title: String, in harness: Harness) throws {
        var local = todo
        local.title = title
        let conflict = OfflineConflict(id: todo.id, number: todo.number, field: .title, local: local, theirs: todo, at: Date())
        try harness.store.pool.write { db in try conflict.insert(in: db) }
    }

    /// The answer to `event`, one of `kinds` or an error.
    private func ask(_ event: Event, _ kinds: Set<EventKind>, in harness: Harness) async -> Event? {
        let correlation = harness.nextCorrelation()
        let answers = harness.bus.subscribe(to: kinds.union([.responseError, .responseTodoViewModel]))
        await harness.core.publish(harness.bus, event, correlation: correlation)
        return await first(from: answers) { $0.correlation == correlation }?.view
    }

    private func list(all: Bool = false, in harness: Harness) async -> [ConflictViewModel]? {
        guard case .responseConflicts(let list)? = await ask(.requestConflicts(ConflictsRequest(all: all)), [.responseConflicts], in: harness) else {
            return nil
        }
        return list.conflicts
    }

    @Test("a conflict taken is an ordinary change, journalled and undoable, and is then listed as taken, not open; taking or leaving it again is refused")
    func takenByAnOrdinaryChange() async throws {
        try await withHarness { harness in
            let todo = try #require(await harness.create("Buy milk"))
            try keep(todo, local: "Buy oat milk", in: harness)
            let open = try #require(await list(in: harness))
            #expect(open.map(\.n) == [1] && open.first?.kept == "Buy milk" && open.first?.notTaken == "Buy oat milk" && open.first?.keptWords == #""Buy milk""#, "\(open)")

            let taken = await ask(.requestSettleConflict(ConflictSettlement(n: 1, take: true)), [], in: harness)
            guard case .responseTodoViewModel(let change)? = taken else { Issue.record("\(String(describing: taken))"); return }
            #expect(change.kind == .updated && change.todo.title == "Buy oat milk")
            // The mark follows the commit on the storage queue, before a later read there.
            #expect(try #require(await list(in: harness)).isEmpty)
            #expect(try #require(await list(all: true, in: harness)).map(\.state) == [.taken])
            for take in [true, false] {
                let again = await harness.error(.requestSettleConflict(ConflictSettlement(n: 1, take: take)))
                #expect(again?.message.contains("1 (#1's title) was taken already") == true, "\(String(describing: again))")
            }
            let history = await ask(.requestHistory(HistoryRequest(ref: .number(1))), [.responseHistory], in: harness)
            guard case .responseHistory(let changes)? = history else { Issue.record("\(String(describing: history))"); return }
            #expect(changes.changes.count == 2)
            let undone = await ask(.requestUndo(TodoUndo()), [.responseUndo], in: harness)
            guard case .responseUndo? = undone else { Issue.record("\(String(describing: undone))"); return }
            #expect(await harness.detail(.number(1))?.todo.title == "Buy milk")
        }
    }

    @Test("a conflict left keeps the todo as it is; an unknown one is not found; a take of a todo deleted meanwhile is refused and leaves the conflict open")
    func leftAndRefused() async throws {
        try await withHarness { harness in
            let todo = try #require(await harness.create("Buy milk"))
            try keep(todo, local: "Buy oat milk", in: harness)
            try keep(todo, local: "Buy soy milk", in: harness)
            let left = await ask(.requestSettleConflict(ConflictSettlement(n: 1, take: false)), [.responseSettleConflict], in: harness)
            guard case .responseSettleConflict(let conflict)? = left else { Issue.record("\(String(describing: left))"); return }
            #expect(conflict.state == .left && conflict.settledAt != nil)
            #expect(await harness.detail(.number(1))?.todo.title == "Buy milk")

            let unknown = await harness.error(.requestSettleConflict(ConflictSettlement(n: 9, take: true)))
            #expect(unknown?.code == .notFound && unknown?.message == "no conflict 9 on this machine: list the conflicts to find its number")

            _ = await harness.change(.requestDeleteTodo(.number(1)))
            let deleted = await harness.error(.requestSettleConflict(ConflictSettlement(n: 2, take: true)))
            #expect(deleted?.code == .deleted, "\(String(describing: deleted))")
            #expect(try #require(await list(in: harness)).map(\.n) == [2])
        }
    }
}
