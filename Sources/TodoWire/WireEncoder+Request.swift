import TodoEvents
import TodoModel

/// The requests one-shot commands send most (`add`, `show`, `done`, `list`, `next`),
/// written from their fields rather than through the conformances.
///
/// Why: a process that encodes its first frame through `WireFrame`, `Event` and `NewTodo`'s
/// `encode(to:)` instantiates a generic keyed container for each, and the runtime checks
/// each one's `CodingKey` conformance by scanning every conformance record of the binary
/// (about 7,000): some 100 µs each, 9% of `todoctl add`'s CPU (perf `-e cpu-clock`, 200
/// runs; docs/PERFORMANCE.md, "Start-up"). The reading side does the same for the frames
/// a command reads (`WireDecoder+Frame.swift`). The conformances stay the definition of
/// the shape: a request these writers do not take whole (a filter with conditions, a
/// repeating todo) goes through them, and `WireEncoderTests` checks that both ways write
/// the same bytes for every frame.
extension WireEncoder {
    /// `frame` as `write(_:into:)` writes it, or nil when it is not one of these requests.
    static func quickRequest(_ frame: WireFrame) -> [UInt8]? {
        // A request carries no client number; a frame that does is not one a client sends.
        guard frame.client == nil, let data = quickData(of: frame.event) else { return nil }
        var out = JSONOutput()
        // The members sorted by their UTF-8, as every object goes out: data, event, id, program, step.
        out.raw("{\"data\":")
        data(&out)
        out.raw(",\"event\":")
        out.string(frame.event.kind.rawValue)
        if let id = frame.id {
            out.raw(",\"id\":")
            out.string(id)
        }
        if let program = frame.program {
            out.raw(",\"program\":")
            out.string(program)
        }
        if let step = frame.step {
            out.raw(",\"step\":")
            out.integer(step)
        }
        out.raw("}")
        return out.bytes
    }

    /// What writes the request's data, when these writers take it.
    private static func quickData(of event: Event) -> ((inout JSONOutput) -> Void)? {
        switch event {
        case .requestTodoDetail(let ref), .requestCompleteTodo(let ref), .requestCompleteTodoWithChildren(let ref),
            .requestReopenTodo(let ref), .requestToggleComplete(let ref), .requestDeleteTodo(let ref),
            .requestRestoreTodo(let ref):
            return { $0.reference(ref) }
        case .requestTodoViewModels(let filter) where JSONOutput.isPlain(filter):
            return { _ = $0.plainFilter(filter) }
        case .requestNewTodo(let new) where new.recurrence == nil:
            return { $0.newTodo(new) }
        default:
            return nil
        }
    }
}

extension JSONOutput {
    /// Whether `plainFilter` writes `filter`: a status, and maybe a day (`next`) and rows,
    /// as the filters of `todoctl list` and `next` are.
    static func isPlain(_ filter: TodoFilter) -> Bool {
        filter == TodoFilter(status: filter.status, pressingOn: filter.pressingOn, rows: filter.rows)
    }

    /// `TodoFilter`'s conformance for a plain filter (`isPlain`): status, and pressingOn and
    /// rows when set, sorted; false, writing nothing, for any other filter.
    mutating func plainFilter(_ filter: TodoFilter) -> Bool {
        guard JSONOutput.isPlain(filter) else { return false }
        raw("{")
        if let pressingOn = filter.pressingOn {
            raw("\"pressingOn\":")
            string(pressingOn.description)
            raw(",")
        }
        if filter.rows { raw("\"rows\":true,") }
        raw("\"status\":")
        string(filter.status.rawValue)
        raw("}")
        return true
    }

    /// A number as a number, anything else (a UUID, a prefix) as its text (`TodoRef.encode`).
    fileprivate mutating func reference(_ ref: TodoRef) {
        if case .number(let number) = ref { integer(number) } else { string(ref.description) }
    }

    /// `NewTodo`'s synthesized conformance: every field, the optional ones only when set;
    /// sorted, so depends, due, dueTime, notes, parent, priority, project, scheduled, scheduledTime, tags, title,
    /// until, wait, waitTime.
    fileprivate mutating func newTodo(_ new: NewTodo) {
        raw("{")
        if let depends = new.depends {
            raw("\"depends\":[")
            for (index, number) in depends.enumerated() {
                if index > 0 { raw(",") }
                integer(number)
            }
            raw("],")
        }
        if let due = new.due {
            raw("\"due\":")
            string(due.description)
            raw(",")
        }
        if let dueTime = new.dueTime {
            raw("\"dueTime\":")
            string(dueTime.description)
            raw(",")
        }
        raw("\"notes\":")
        string(new.notes)
        if let parent = new.parent {
            raw(",\"parent\":")
            integer(parent)
        }
        raw(",\"priority\":")
        string(new.priority.rawValue)
        if let project = new.project {
            raw(",\"project\":")
            string(project)
        }
        if let scheduled = new.scheduled {
            raw(",\"scheduled\":")
            string(scheduled.description)
        }
        if let scheduledTime = new.scheduledTime {
            raw(",\"scheduledTime\":")
            string(scheduledTime.description)
        }
        raw(",\"tags\":[")
        for (index, tag) in new.tags.enumerated() {
            if index > 0 { raw(",") }
            string(tag)
        }
        raw("],\"title\":")
        string(new.title)
        if let until = new.until {
            raw(",\"until\":")
            string(until.description)
        }
        if let wait = new.wait {
            raw(",\"wait\":")
            string(wait.description)
        }
        if let waitTime = new.waitTime {
            raw(",\"waitTime\":")
            string(waitTime.description)
        }
        raw("}")
    }
}
