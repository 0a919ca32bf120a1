import Foundation
import TodoModel
import TodoViewModel

/// A todo read from its object in one pass over the members, the hottest value a client
/// reads (every row of a list, every change), to the same result and the same errors as
/// `Todo.init(from:)`, which stays the definition of the shape (the random-todo tests hold
/// the two together).
///
/// Measured, not guessed: through `Todo.init(from:)` a client spent most of the time it took
/// to read a list in the generic containers (a key lookup compared every member's bytes, a
/// value went through `decodeValue`'s dynamic casts) and, once per process, in the runtime's
/// conformance scans that instantiating them costs; `todoctl list` of 10,000 todos read its
/// answer in about 120 ms that way.
extension WireDecoder {
    func todo() throws -> Todo {
        guard kind == .object else { throw mismatch(Todo.self, "an object") }
        var id: UUID?, number: Int?, title: String?, createdAt: Date?, updatedAt: Date?, revision: Int?
        var notes = "", priority = Priority.normal, due: LocalDate?, tags: [String] = []
        var completedAt: Date?, deletedAt: Date?, recurrence: Recurrence?
        var parent: Int?, wait: LocalDate?, previous: Int?, foreign: [String: String] = [:]
        try forEachMember(of: TodoKey.self) { key, value in
            // An absent key and a null are both "not present", as in `decodeIfPresent`;
            // the required fields refuse a null with the type's own words below.
            let present = value.kind != .null
            switch key {
            case .id: id = try value.uuid()
            case .number: number = try value.integer(Int.self)
            case .title: title = try value.text()
            case .createdAt: createdAt = try value.instant()
            case .updatedAt: updatedAt = try value.instant()
            case .revision: revision = try value.integer(Int.self)
            case .notes where present: notes = try value.text()
            case .priority where present: priority = try value.priority()
            case .due where present: due = try value.date()
            case .tags where present: tags = try value.strings()
            case .completedAt where present: completedAt = try value.instant()
            case .deletedAt where present: deletedAt = try value.instant()
            case .recurrence where present: recurrence = try value.decodeValue(Recurrence.self)
            case .parent where present: parent = try value.integer(Int.self)
            case .wait where present: wait = try value.date()
            case .previous where present: previous = try value.integer(Int.self)
            case .foreign where present: foreign = try value.stringMap()
            case nil, _?: return  // unknown keys are a newer daemon's: skipped, as Codable skips them
            }
        }
        // Built once, at the end: a placeholder Todo filled in would have drawn a random UUID per row.
        return Todo(
            id: try required(id, "id"), number: try required(number, "number"), title: try required(title, "title"),
            notes: notes, priority: priority, due: due, tags: tags,
            createdAt: try required(createdAt, "createdAt"), updatedAt: try required(updatedAt, "updatedAt"),
            completedAt: completedAt, deletedAt: deletedAt, revision: try required(revision, "revision"),
            recurrence: recurrence, parent: parent, wait: wait, previous: previous, foreign: foreign)
    }

    private func required<T>(_ value: T?, _ key: String) throws -> T {
        guard let value else {
            throw DecodingError.keyNotFound(ElementKey(key), .init(codingPath: codingPath, debugDescription: "missing field \"\(key)\""))
        }
        return value
    }

    func uuid() throws -> UUID {
        let text = try text()
        guard let id = UUIDText.uuid(text) else { throw corrupted("\"\(text)\" is not a UUID") }
        return id
    }

    /// As `Priority`'s synthesized conformance reads it, in its words.
    func priority() throws -> Priority {
        let text = try text()
        guard let priority = Priority(rawValue: text) else {
            throw corrupted("Cannot initialize Priority from invalid String value \(text)")
        }
        return priority
    }

    /// An object of strings (`foreign`), read from its nodes: an imported todo carries one, and
    /// through `Dictionary.init(from:)` it cost a tenth of reading a list of 10,000 of them.
    func stringMap() throws -> [String: String] {
        guard kind == .object else { throw mismatch([String: String].self, "an object") }
        var map: [String: String] = [:]
        map.reserveCapacity(document.nodes[node].count)
        try forEachMember { key, value in map[key] = try value.text() }
        return map
    }

    /// A todo's detail (`responseTodoDetail`, what `todoctl show` reads): its todo's members,
    /// then its parent and its subtasks, to the result `TodoDetailViewModel.init(from:)` gives
    /// (a test holds the two together). Through that conformance, a `show` met its generic
    /// containers for the first time, and the runtime's instantiation of each (conformance
    /// scans of the whole binary) was a tenth of the command's CPU.
    func detail() throws -> TodoDetailViewModel {
        let todo = try todo()
        var parent: Todo?, subtasks: [Todo] = []
        try forEachMember { key, value in
            guard value.kind != .null else { return }  // absent and null are both "none", as in decodeIfPresent
            switch key {
            case "parentTodo": parent = try value.todo()
            case "subtasks": subtasks = try value.todos()
            default: return
            }
        }
        return TodoDetailViewModel(todo, parent: parent, subtasks: subtasks)
    }

    /// An array of todos, read from its nodes.
    func todos() throws -> [Todo] { try elements(as: [TodoViewModel].self) { try $0.todo() } }

    /// The members of a todo's object, told apart by their bytes (`Todo`'s coding keys).
    /// Why not a switch on a String: building each key as a String and comparing it with up
    /// to 17 others was a fifth of reading a todo (callgrind, `todoctl next` of 300).
    enum TodoKey: String, CaseIterable, MemberKey {
        case id, number, title, createdAt, updatedAt, revision, notes, priority, due, tags
        case completedAt, deletedAt, recurrence, parent, wait, previous, foreign

        // By `rawValue`, not `"\(key)"`: describing a case goes through reflection, whose
        // first use cost a `show` 4M instructions (callgrind).
        static let spelled: [(key: TodoKey, bytes: [UInt8])] = allCases.map { ($0, Array($0.rawValue.utf8)) }
    }

    /// Each member of an object whose keys are `Key`'s, in order: its key (nil for one
    /// `Key` does not name) and its value.
    func forEachMember<Key: MemberKey>(of keys: Key.Type, _ body: (Key?, WireDecoder) throws -> Void) throws {
        var member = node + 1
        for _ in 0..<document.nodes[node].count {
            let name = document.nodes[member]
            let raw = document.bytes[name.start..<name.end]
            let bytes = name.escaped ? JSONDocument.unescaped(raw)[...] : raw
            var key: Key?
            for entry in Key.spelled where entry.bytes.count == bytes.count && bytes.elementsEqual(entry.bytes) {
                key = entry.key
                break
            }
            let value = child(member + 1)
            member = document.nodes[member + 1].next
            try body(key, value)
        }
    }

    /// Each member of an object, in order: its key and a decoder of its value.
    func forEachMember(_ body: (String, WireDecoder) throws -> Void) throws {
        var member = node + 1
        for _ in 0..<document.nodes[node].count {
            let key = document.string(member)
            let value = child(member + 1)
            member = document.nodes[member + 1].next
            try body(key, value)
        }
    }

    /// An array of strings, read from its nodes.
    func strings() throws -> [String] { try elements(as: [String].self) { try $0.text() } }

    /// Each element of an array, read by `read`; `type` names the array in a mismatch.
    func elements<T>(as type: Any.Type, _ read: (WireDecoder) throws -> T) throws -> [T] {
        guard kind == .array else { throw mismatch(type, "an array") }
        var values: [T] = []
        values.reserveCapacity(document.nodes[node].count)
        var element = node + 1
        for _ in 0..<document.nodes[node].count {
            values.append(try read(child(element)))
            element = document.nodes[element].next
        }
        return values
    }
}

/// A set of coding keys read by their bytes (`WireDecoder.forEachMember(of:_:)`).
protocol MemberKey {
    static var spelled: [(key: Self, bytes: [UInt8])] { get }
}
