import Foundation
import TodoEvents
import TodoModel

/// A shared store whose changes say which machine made them: each change this daemon shares
/// is stamped with its replica's name (`ChangeAuthor.machine`, `todod --machine`), and the
/// name is taken off its own changes as they come back, so that a replica's journal names
/// the machine of every change another made and none of its own. Client numbers are each
/// daemon's own: `todoctl (client 8)` read the same from two machines (outside probe 11, F13).
/// Older daemons read the stamped changes as before, and changes shared before it name none.
public struct MachineNamedStore: SharedStore {
    public let store: any SharedStore
    /// This replica's name.
    public let machine: String

    public init(_ store: any SharedStore, machine: String) {
        self.store = store
        self.machine = machine
    }

    public func changes(after seq: UInt64) throws -> SharedChanges {
        Self.read(try store.changes(after: seq), on: machine)
    }

    public func write<T>(after seq: UInt64, _ body: (any SharedWrite) throws -> T) throws -> T {
        try store.write(after: seq) { write in try body(NamedWrite(write: write, machine: machine)) }
    }

    public func watch(_ changed: @escaping @Sendable (_ upTo: UInt64?) -> Void) { store.watch(changed) }
    public var status: SharedStoreStatus { store.status }
    public func watchStatus(_ changed: @escaping @Sendable (SharedStoreStatus) -> Void) { store.watchStatus(changed) }
    public func refuse(because problem: String) { store.refuse(because: problem) }
    public func close() { store.close() }
    public func isNamed(_ mark: String) -> Bool { store.isNamed(mark) }

    /// `changes` as the machine `machine` reads them: its own name no machine.
    static func read(_ changes: SharedChanges, on machine: String) -> SharedChanges {
        var changes = changes
        for index in changes.entries.indices { changes.entries[index].author = changes.entries[index].author.read(on: machine) }
        return changes
    }

    /// The shared transaction, its commits stamped with the machine's name.
    private struct NamedWrite: SharedWrite {
        let write: any SharedWrite
        let machine: String

        func changes(after seq: UInt64) throws -> SharedChanges {
            MachineNamedStore.read(try write.changes(after: seq), on: machine)
        }

        func commit(_ changes: SharedChanges) throws {
            var stamped = changes
            for index in stamped.entries.indices { stamped.entries[index].author = stamped.entries[index].author.on(machine) }
            try write.commit(stamped)
        }

        func pushed(_ id: UUID) throws -> UInt64 { try write.pushed(id) }
    }
}
