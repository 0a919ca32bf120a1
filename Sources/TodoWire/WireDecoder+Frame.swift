import TodoEvents
import TodoModel
import TodoViewModel

/// The frames every one-shot command reads, read from their members: the hello that opens
/// each connection, a todo's detail (`todoctl show`), a list (`todoctl list`, `next`) and a
/// change (a write's answer, every broadcast); and the daemon's most frequent requests.
///
/// Why: through the conformances (`WireFrame`, `Event`, `ServerHello`), a process met Codable's
/// generic containers for the first time on its hello, and the runtime's instantiation of
/// each, with its scans of every conformance record in the binary, was 16% of the CPU of
/// `todoctl show` (perf, 300 runs; docs/PERFORMANCE.md, "Start-up"). Every other event
/// still goes through the conformances, which stay the definition of the shape; so does a
/// frame these readers do not take (a field missing, null or of another type), so that its
/// error has the conformance's words. The codec's tests read every frame both ways.
extension WireDecoder {
    /// The frame, as `WireFrame.init(from:)` reads it.
    func responseFrame() throws -> WireFrame {
        if let frame = try? quickFrame() { return frame }
        return try WireFrame(from: self)
    }

    /// A request, as `WireFrame.init(from:)` reads it, when it is one these readers take
    /// whole; nil otherwise (`WireCodec.decodeRequest` then reads it through the conformances).
    /// The hot ones (a detail, a list, a write naming one todo) are read from their members,
    /// where the conformances were half of the daemon's time reading `show`'s request (perf
    /// `-e cpu-clock`, a client asking for one todo in a loop).
    func quickRequestFrame() -> WireFrame? {
        try? quickRequest()
    }

    /// The request when these readers take it whole; nil otherwise.
    private func quickRequest() throws -> WireFrame? {
        guard let members = try frameMembers() else { return nil }
        // The name compared with these requests' alone: `EventKind(rawValue:)` compared it with
        // every event's in turn, and a dictionary by `EventKind` hashed the name again.
        let make: (TodoRef) -> Event
        switch members.event {
        case EventKind.requestTodoViewModels.rawValue?:
            let filter = try members.data.map { try $0.plainFilter() ?? $0.decodeValue(TodoFilter.self) }
            return WireFrame(
                event: .requestTodoViewModels(filter ?? TodoFilter()), id: members.id, client: members.client, program: members.program,
                step: members.step)
        case EventKind.requestTodoDetail.rawValue?: make = Event.requestTodoDetail
        case EventKind.requestCompleteTodo.rawValue?: make = Event.requestCompleteTodo
        case EventKind.requestToggleComplete.rawValue?: make = Event.requestToggleComplete
        case EventKind.requestReopenTodo.rawValue?: make = Event.requestReopenTodo
        case EventKind.requestDeleteTodo.rawValue?: make = Event.requestDeleteTodo
        case EventKind.requestRestoreTodo.rawValue?: make = Event.requestRestoreTodo
        case EventKind.requestCompleteTodoWithChildren.rawValue?: make = Event.requestCompleteTodoWithChildren
        default: return nil
        }
        guard let data = members.data else { return nil }
        let ref: TodoRef
        // A todo's number, the common reference, read as TodoRef's conformance reads it.
        if data.kind == .number, let number = try? data.integer(Int.self), number > 0 {
            ref = .number(number)
        } else {
            ref = try data.decodeValue(TodoRef.self)
        }
        return WireFrame(event: make(ref), id: members.id, client: members.client, program: members.program, step: members.step)
    }

    /// A frame's members: its event's name, correlation and data (nil when null or missing).
    private func frameMembers() throws -> (event: String?, id: String?, client: UInt64?, program: String?, step: UInt64?, data: WireDecoder?)? {
        guard kind == .object else { return nil }
        var event: String?, id: String?, client: UInt64?, program: String?, step: UInt64?, data: WireDecoder?
        try forEachMember { key, value in
            let present = value.kind != .null
            switch key {
            case "event": event = try value.text()
            case "id" where present: id = try value.text()
            case "client" where present: client = try value.integer(UInt64.self)
            case "program" where present: program = try value.text()
            case "step" where present: step = try value.integer(UInt64.self)
            case "data" where present: data = value
            default: return  // unknown members are a newer version's, skipped as the conformances skip them
            }
        }
        return (event, id, client, program, step, data)
    }

    /// A list's filter of at most a status, a day (`next`) and rows (`todoctl list`, `next`,
    /// `watch`), as `TodoFilter`'s conformance reads it; nil for any other, which the
    /// conformance reads (and refuses in its words), the 14 members in turn.
    private func plainFilter() throws -> TodoFilter? {
        guard kind == .object else { return nil }
        var filter = TodoFilter()
        var plain = true
        try forEachMember { key, value in
            switch (key, value.kind) {
            case ("status", .string):
                guard let status = TodoFilter.Status(rawValue: try value.text()) else { plain = false; return }
                filter.status = status
            case ("pressingOn", .string):
                guard let day = try? value.date() else { plain = false; return }
                filter.pressingOn = day
            case ("rows", .true): filter.rows = true
            case ("rows", .false): filter.rows = false
            default: plain = false
            }
        }
        return plain ? filter : nil
    }

    /// The frame when it is a hello or a detail these readers take whole; nil otherwise.
    private func quickFrame() throws -> WireFrame? {
        guard let members = try frameMembers(), let data = members.data else { return nil }
        let decoded: Event
        switch members.event {
        case EventKind.responseHello.rawValue?:
            guard let hello = try data.hello() else { return nil }
            decoded = .responseHello(hello)
        case EventKind.responseTodoDetail.rawValue?: decoded = .responseTodoDetail(try data.detail())
        case EventKind.responseTodoViewModels.rawValue?:
            guard let list = try data.list() else { return nil }
            decoded = .responseTodoViewModels(list)
        case EventKind.responseTodoViewModel.rawValue?:
            guard let change = try data.change() else { return nil }
            decoded = .responseTodoViewModel(change)
        default: return nil
        }
        return WireFrame(event: decoded, id: members.id, client: members.client, program: members.program, step: members.step)
    }

    /// A list's rows, their parents and progress, and the filter it answers (still through
    /// `TodoFilter`'s conformance: a list names few of its fields); nil when a field is missing.
    /// The todos are read once the filter says their shape (`TodoFilter.rows`): its key sorts
    /// after `context`'s.
    private func list() throws -> TodoViewModelList? {
        guard kind == .object else { return nil }
        var filter: TodoFilter?, todos: WireDecoder?, asOf: UInt64?
        var parents: WireDecoder?, progress: [SubtaskProgress] = []
        try forEachMember { key, value in
            let present = value.kind != .null
            switch key {
            case "filter": filter = try value.decodeValue(TodoFilter.self)
            case "todos": todos = value
            case "seq": asOf = try value.integer(UInt64.self)
            case "context" where present: parents = value
            case "progress" where present: progress = try value.decodeValue([SubtaskProgress].self)
            default: return
            }
        }
        guard let filter, let todos, let asOf else { return nil }
        return TodoViewModelList(
            filter: filter, todos: try todos.rows(shaped: filter.rows), asOf: asOf, context: try parents?.rows(shaped: filter.rows) ?? [],
            progress: progress)
    }

    /// A write's answer and every change broadcast (`{"change": "created", "seq": 7, "todo":
    /// {…}, "further": […], "step": 5}`); nil when a field is missing or a kind unknown.
    private func change() throws -> TodoChange? {
        guard kind == .object else { return nil }
        var changeKind: TodoChange.Kind?, todo: TodoViewModel?, sequence: UInt64?, step: UInt64?
        var further: [TodoChange] = []
        var unshared: String?
        var complete = true
        try forEachMember { key, value in
            switch key {
            case "change": changeKind = TodoChange.Kind(rawValue: try value.text())
            case "todo": todo = TodoViewModel(try value.todo(), today: context.currentDay, now: context.currentTime)
            case "seq": sequence = try value.integer(UInt64.self)
            case "step" where value.kind != .null: step = try value.integer(UInt64.self)
            case "unshared" where value.kind != .null: unshared = try value.text()
            case "further" where value.kind != .null:
                further = try value.elements(as: [TodoChange].self) { element in
                    guard let change = try element.change() else { complete = false; return nil }
                    return change
                }.compactMap { $0 }
            default: return
            }
        }
        guard complete, let changeKind, let todo, let sequence else { return nil }
        return TodoChange(kind: changeKind, todo: todo, sequence: sequence, further: further, step: step, unshared: unshared)
    }

    /// List rows, whole todos or (`shaped`) rows, their texts read against the frame's day
    /// (as `decodeValue` makes a row).
    private func rows(shaped: Bool) throws -> [TodoViewModel] {
        try elements(as: [TodoViewModel].self) { TodoViewModel(try $0.todo(row: shaped), today: context.currentDay, now: context.currentTime) }
    }

    /// `{"protocol": 1, "server": "0.1.0", "client": 3, "seq": 42, "utcOffset": 0}`; nil when a
    /// field is missing (`utcOffset` and `sharedStore` may be: older daemons lack them, and
    /// `sharedStore` is sent only by a daemon with a store).
    private func hello() throws -> ServerHello? {
        guard kind == .object else { return nil }
        var version: Int?, server: String?, client: UInt64?, sequence: UInt64?, utcOffset: Int?, sharedStore: Bool?
        try forEachMember { key, value in
            switch key {
            case "protocol": version = try value.integer(Int.self)
            case "server": server = try value.text()
            case "client": client = try value.integer(UInt64.self)
            case "seq": sequence = try value.integer(UInt64.self)
            // Optional: an older daemon does not send it.
            case "utcOffset": utcOffset = try value.integer(Int.self)
            case "sharedStore": sharedStore = try value.decode(Bool.self)
            default: return
            }
        }
        guard let version, let server, let client, let sequence else { return nil }
        return ServerHello(protocolVersion: version, serverVersion: server, client: client, sequence: sequence, utcOffset: utcOffset, sharedStore: sharedStore)
    }
}
