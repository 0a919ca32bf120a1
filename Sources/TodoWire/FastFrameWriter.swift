import Foundation
import NIOCore
import TodoEvents
import TodoModel
import TodoViewModel

/// Writes the frames that cross the socket most often straight to JSON bytes, without
/// Foundation's `JSONEncoder` (which builds a tree of dictionaries, sorts their keys as
/// strings and formats every instant with a date formatter: most of the daemon's CPU).
///
/// The bytes are exactly those `JSONEncoder` writes with the protocol's settings (sorted
/// keys, unescaped slashes, instants as `WireCodec.timestamp`): the keys below are written
/// in sorted order by hand. Debug builds check frames against `JSONEncoder`
/// (`WireCodec.encode`), and `FastPathTests` compares the two for every kind, so a field
/// added to a type without adding it here fails the tests instead of vanishing.
/// Events it does not know (`responseStatus`, edits, model events) are left to
/// `JSONEncoder`.
///
/// It writes into memory of its own with plain stores: each piece (the frame's head, one
/// todo, the tail) first makes room for its longest possible form. Nothing is copied on
/// the way (a todo is read where it lies), so a list of 10,000 costs little more than its
/// bytes.
struct FastFrameWriter: ~Copyable {
    var base: UnsafeMutableRawPointer
    var capacity: Int
    var count = 0

    init(capacity: Int = 512) {
        self.capacity = capacity
        base = .allocate(byteCount: capacity, alignment: 1)
    }

    deinit {
        base.deallocate()
    }

    /// What was written, in a ByteBuffer for the socket.
    var buffer: ByteBuffer { ByteBuffer(bytes: UnsafeRawBufferPointer(start: base, count: count)) }

    /// What was written, as bytes (for tests).
    var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: base, count: count)) }

    var byteCount: Int { count }

    /// Writes `frame` as one JSON line (newline included); false when it is not one of
    /// the events written here (nothing is then written).
    mutating func write(_ frame: WireFrame) -> Bool {
        guard FastFrameWriter.handles(frame.event) else { return false }
        // {"client":…,"data":…,"event":"…","id":"…"}, keys in sorted order.
        let hasData = frame.event.kind != .requestStatus
        reserve(64)
        if let client = frame.client {
            raw("{\"client\":")
            unsigned(client)
            if hasData { raw(",\"data\":") }
        } else if hasData {
            raw("{\"data\":")
        } else {
            raw("{")
        }
        if hasData { data(of: frame.event) }
        let kind = frame.event.kind.rawValue
        reserve(32 + FastFrameWriter.bound(kind) + (frame.id.map(FastFrameWriter.bound) ?? 0))
        raw(frame.client == nil && !hasData ? "\"event\":" : ",\"event\":")
        string(kind)
        if let id = frame.id {
            raw(",\"id\":")
            string(id)
        }
        raw("}\n")
        return true
    }

    static func handles(_ event: Event) -> Bool {
        switch event {
        case .responseTodoViewModels, .responseTodoViewModel, .responseTodoDetail, .responseError, .responseGoodbye,
            .responseHello, .requestTodoViewModels, .requestTodoDetail, .requestNewTodo, .requestCompleteTodo,
            .requestReopenTodo, .requestToggleComplete, .requestDeleteTodo, .requestRestoreTodo, .requestStatus:
            return true
        case .requestUpdateTodoDetail, .responseStatus, .requestReadTodos, .responseTodos, .requestWriteTodo, .responseTodo:
            return false
        }
    }

    private mutating func data(of event: Event) {
        switch event {
        case .responseTodoViewModels(let list):
            // {"filter":…,"seq":…,"todos":[…]}
            reserve(64 + list.todos.count * 360)
            reserve(64 + FastFrameWriter.bound(list.filter))
            raw("{\"filter\":")
            filter(list.filter)
            raw(",\"seq\":")
            unsigned(list.asOf)
            raw(",\"todos\":[")
            list.todos.withUnsafeBufferPointer { rows in
                for index in rows.indices {
                    todo(rows[index].todo, comma: index > 0)
                }
            }
            reserve(2)
            raw("]}")
        case .responseTodoViewModel(let change):
            // {"change":…,"seq":…,"todo":…}
            reserve(64 + FastFrameWriter.bound(change.kind.rawValue))
            raw("{\"change\":")
            string(change.kind.rawValue)
            raw(",\"seq\":")
            unsigned(change.sequence)
            raw(",\"todo\":")
            todo(change.todo.todo, comma: false)
            reserve(1)
            raw("}")
        case .responseTodoDetail(let detail):
            todo(detail.todo, comma: false)
        case .responseError(let error), .responseGoodbye(let error):
            // {"code":…,"field":…,"message":…,"todo":…}
            reserve(64 + FastFrameWriter.bound(error.code.rawValue) + FastFrameWriter.bound(error.message)
                    + (error.field.map(FastFrameWriter.bound) ?? 0))
            raw("{\"code\":")
            string(error.code.rawValue)
            if let field = error.field {
                raw(",\"field\":")
                string(field)
            }
            raw(",\"message\":")
            string(error.message)
            if let todo = error.todo {
                raw(",\"todo\":")
                self.todo(todo.todo, comma: false)
            }
            reserve(1)
            raw("}")
        case .responseHello(let hello):
            // {"client":…,"protocol":…,"seq":…,"server":…}
            reserve(96 + FastFrameWriter.bound(hello.serverVersion))
            raw("{\"client\":")
            unsigned(hello.client)
            raw(",\"protocol\":")
            signed(hello.protocolVersion)
            raw(",\"seq\":")
            unsigned(hello.sequence)
            raw(",\"server\":")
            string(hello.serverVersion)
            raw("}")
        case .requestTodoViewModels(let filter):
            reserve(FastFrameWriter.bound(filter))
            self.filter(filter)
        case .requestTodoDetail(let ref), .requestCompleteTodo(let ref), .requestReopenTodo(let ref),
            .requestToggleComplete(let ref), .requestDeleteTodo(let ref), .requestRestoreTodo(let ref):
            switch ref {
            case .number(let number):
                reserve(24)
                signed(number)
            case .id, .idPrefix:
                let text = ref.description
                reserve(FastFrameWriter.bound(text))
                string(text)
            }
        case .requestNewTodo(let new):
            // {"due":…,"notes":…,"priority":…,"tags":[…],"title":…}; a nil due is left out.
            reserve(96 + FastFrameWriter.bound(new.notes) + FastFrameWriter.bound(new.title) + FastFrameWriter.bound(new.tags))
            if let due = new.due {
                raw("{\"due\":")
                date(due)
                raw(",\"notes\":")
            } else {
                raw("{\"notes\":")
            }
            string(new.notes)
            raw(",\"priority\":")
            string(new.priority.rawValue)
            raw(",\"tags\":")
            strings(new.tags)
            raw(",\"title\":")
            string(new.title)
            raw("}")
        case .requestStatus, .requestUpdateTodoDetail, .responseStatus, .requestReadTodos, .responseTodos,
            .requestWriteTodo, .responseTodo:
            preconditionFailure("\(event.kind) is not written by FastFrameWriter")
        }
    }

    /// Every field, absent ones as `null` (`Todo.encode(to:)`), keys in sorted order.
    private mutating func todo(_ todo: borrowing Todo, comma: Bool) {
        // Keys, punctuation, four instants, a date, an id, two numbers: under 400 bytes.
        reserve(400 + FastFrameWriter.bound(todo.notes) + FastFrameWriter.bound(todo.title) + FastFrameWriter.bound(todo.tags))
        raw(comma ? ",{\"completedAt\":" : "{\"completedAt\":")
        instant(todo.completedAt)
        raw(",\"createdAt\":")
        instant(todo.createdAt)
        raw(",\"deletedAt\":")
        instant(todo.deletedAt)
        raw(",\"due\":")
        if let due = todo.due { date(due) } else { raw("null") }
        raw(",\"id\":")
        uuid(todo.id)
        raw(",\"notes\":")
        string(todo.notes)
        raw(",\"number\":")
        signed(todo.number)
        raw(",\"priority\":")
        string(todo.priority.rawValue)
        raw(",\"revision\":")
        signed(todo.revision)
        raw(",\"tags\":")
        strings(todo.tags)
        raw(",\"title\":")
        string(todo.title)
        raw(",\"updatedAt\":")
        instant(todo.updatedAt)
        raw("}")
    }
}
