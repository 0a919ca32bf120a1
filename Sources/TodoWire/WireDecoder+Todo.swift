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
    /// - Parameter row: read a list's row (`Todo.init(rowFrom:)`): no id, update or revision
    ///   is required, and those take the row's placeholders.
    func todo(row: Bool = false) throws -> Todo {
        guard kind == .object else { throw mismatch(Todo.self, "an object") }
        var id: UUID?, number: Int?, title: String?, createdAt: Date?, updatedAt: Date?, revision: Int?
        var notes = "", priority = Priority.normal, due: LocalDate?, tags: [String] = []
        var completedAt: Date?, deletedAt: Date?, recurrence: Recurrence?
        var parent: Int?, wait: LocalDate?, previous: Int?, foreign: [String: String] = [:], annotations: [Annotation] = []
        var project: String?, started: Date?, depends: [UUID] = [], scheduled: LocalDate?, until: LocalDate?
        var dueTime: TimeOfDay?, waitTime: TimeOfDay?, scheduledTime: TimeOfDay?
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
            case .annotations where present: annotations = try value.elements(as: [Annotation].self) { try $0.annotation() }
            case .project where present: project = try value.text()
            case .started where present: started = try value.instant()
            case .depends where present: depends = try value.elements(as: [UUID].self) { try $0.uuid() }
            case .scheduled where present: scheduled = try value.date()
            case .until where present: until = try value.date()
            case .dueTime where present: dueTime = try TimeOfDay(from: value)
            case .waitTime where present: waitTime = try TimeOfDay(from: value)
            case .scheduledTime where present: scheduledTime = try TimeOfDay(from: value)
            case nil, _?: return  // unknown keys are a newer daemon's: skipped, as Codable skips them
            }
        }
        // Built once, at the end: a placeholder Todo filled in would have drawn a random UUID per row.
        return Todo(
            id: try row ? Todo.rowID : required(id, "id"), number: try required(number, "number"), title: try required(title, "title"),
            notes: notes, priority: priority, due: due, tags: tags,
            createdAt: try required(createdAt, "createdAt"), updatedAt: try row ? nil : required(updatedAt, "updatedAt"),
            completedAt: completedAt, deletedAt: deletedAt, revision: try row ? 0 : required(revision, "revision"),
            recurrence: recurrence, parent: parent, wait: wait, previous: previous, foreign: foreign,
            annotations: annotations, project: project, started: started, depends: depends, scheduled: scheduled, until: until,
            dueTime: dueTime, waitTime: waitTime, scheduledTime: scheduledTime)
    }

    /// One of a todo's annotations, as `Annotation`'s synthesized conformance reads it.
    func annotation() throws -> Annotation {
        guard kind == .object else { throw mismatch(Annotation.self, "an object") }
        var entry: Date?, description: String?
        try forEachMember { key, value in
            switch key {
            case "entry": entry = try value.instant()
            case "description": description = try value.text()
            default: return
            }
        }
        return Annotation(entry: try required(entry, "entry"), description: try required(description, "description"))
    }

    private func required<T>(_ value: T?, _ key: String) throws -> T {
        guard let value else {
            throw DecodingError.keyNotFound(ElementKey(key), .init(codingPath: codingPath, debugDescription: "missing field \"\(key)\""))
        }
        return value
    }

    func uuid() throws -> UUID {
        if let bytes = try plainText(), let id = UUIDText.uuid(utf8: bytes.span) { return id }
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
        var parent: Todo?, subtasks: [Todo] = [], dependsOn: [Todo] = [], blocks: [Todo] = []
        try forEachMember { key, value in
            guard value.kind != .null else { return }  // absent and null are both "none", as in decodeIfPresent
            switch key {
            case "parentTodo": parent = try value.todo()
            case "subtasks": subtasks = try value.todos()
            case "dependsOn": dependsOn = try value.todos()
            case "blocks": blocks = try value.todos()
            default: return
            }
        }
        return TodoDetailViewModel(
            todo, today: context.currentDay, now: context.currentTime, parent: parent, subtasks: subtasks, dependsOn: dependsOn, blocks: blocks)
    }

    /// An array of todos, read from its nodes.
    func todos() throws -> [Todo] { try elements(as: [TodoViewModel].self) { try $0.todo() } }

    /// The members of a todo's object, told apart by their bytes (`Todo`'s coding keys).
    /// Why not a switch on a String: building each key as a String and comparing it with up
    /// to 17 others was a fifth of reading a todo (callgrind, `todoctl next` of 300).
    enum TodoKey: String, CaseIterable {
        case id, number, title, createdAt, updatedAt, revision, notes, priority, due, tags
        case completedAt, deletedAt, recurrence, parent, wait, previous, foreign, annotations, project, started, depends, scheduled, until
        case dueTime, waitTime, scheduledTime

        /// The key whose UTF-8 is `bytes`; nil for a key a todo does not have. The length
        /// picks the one to three keys of that length and their bytes confirm one: a walk
        /// over all 18 was 171 instructions a key, 5% of reading a list (callgrind), and a
        /// confirmation through `elementsEqual` with `rawValue.utf8` another 395 (the
        /// generic, unspecialized). The table is made from `allCases`, so a new key needs
        /// no other line here. By `rawValue`, not `"\(key)"`: describing a case goes
        /// through reflection, whose first use cost a `show` 4M instructions (callgrind).
        init?(_ bytes: ArraySlice<UInt8>) {
            guard bytes.count < Self.byLength.count else { return nil }
            let span = bytes.span
            for candidate in Self.byLength[bytes.count] where ByteRun.equal(span, candidate.utf8.span) {
                self = candidate.key
                return
            }
            return nil
        }

        /// The keys by the length of their UTF-8.
        private static let byLength: [[(key: TodoKey, utf8: [UInt8])]] = {
            let longest = allCases.map(\.rawValue.utf8.count).max() ?? 0
            var table = Array(repeating: [(key: TodoKey, utf8: [UInt8])](), count: longest + 1)
            for key in allCases { table[key.rawValue.utf8.count].append((key, Array(key.rawValue.utf8))) }
            return table
        }()
    }

    /// Each member of a todo's object, in order: its key (nil for one a todo does not have)
    /// and a decoder of its value.
    func forEachMember(of keys: TodoKey.Type, _ body: (TodoKey?, WireDecoder) throws -> Void) throws {
        try forEachMemberBytes { key, value in try body(TodoKey(key), value) }
    }

    /// Each member of an object, in order: its key and a decoder of its value.
    func forEachMember(_ body: (String, WireDecoder) throws -> Void) throws {
        try forEachMemberBytes { key, value in try body(String(decoding: key, as: UTF8.self), value) }
    }

    /// Each member of an object, in order: its key's UTF-8 (escapes decoded) and a decoder of
    /// its value; the one walk over an object's nodes that the readers above share.
    private func forEachMemberBytes(_ body: (ArraySlice<UInt8>, WireDecoder) throws -> Void) throws {
        var member = node + 1
        for _ in 0..<document.nodes[node].count {
            let name = document.nodes[member]
            let raw = document.bytes[name.start..<name.end]
            let key = name.escaped ? JSONDocument.unescaped(raw)[...] : raw
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
