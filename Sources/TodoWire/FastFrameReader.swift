import Foundation
import TodoEvents
import TodoModel
import TodoViewModel

/// Reads the frames that cross the socket most often straight from their bytes, without
/// Foundation's `JSONDecoder` (whose `Codable` machinery, date parsing and the row's
/// "today" computed again for every todo were most of a client's CPU on a long list).
///
/// It is a fast path, not a second definition of the protocol: it takes only what it
/// reads exactly as `JSONDecoder` would (same defaults, same optional fields, any key
/// order, unknown keys skipped) and throws `Miss` at anything else (an event it does not
/// read, a malformed line, an escape in a key, a duplicate key, a number with a fraction),
/// after which `WireCodec` decodes the line with `JSONDecoder`, which gives the answer or
/// the error it always gave. Debug builds decode every line both ways and compare.
struct FastFrameReader {
    /// Not on the fast path: decode with `JSONDecoder`.
    struct Miss: Error {}

    /// Reads a whole frame; `requestsOnly` takes only view requests (the daemon's side).
    static func frame(_ bytes: UnsafeRawBufferPointer, requestsOnly: Bool) throws(Miss) -> WireFrame {
        var reader = FastFrameReader(bytes)
        let frame = try reader.frame(requestsOnly: requestsOnly)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw Miss() }
        return frame
    }

    let bytes: UnsafeRawBufferPointer
    var index = 0
    /// The reader's today, computed once per frame for its rows (not once per row).
    private var today: LocalDate?
    /// Due dates already read in this frame: a list repeats the same few days.
    private var dates: [Int: LocalDate] = [:]

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    // MARK: Frames and events

    private mutating func frame(requestsOnly: Bool) throws(Miss) -> WireFrame {
        var kind: EventKind?
        var id: String?
        var client: UInt64?
        var data: Int?
        var seen: UInt8 = 0
        try object { reader, key throws(Miss) in
            switch key {
            case "event":
                try reader.once(&seen, 1)
                guard let name = EventKind(rawValue: try reader.string()) else { throw Miss() }
                kind = name
            case "id":
                try reader.once(&seen, 2)
                id = try reader.isNull() ? nil : reader.string()
            case "client":
                try reader.once(&seen, 4)
                client = try reader.isNull() ? nil : reader.unsigned()
            case "data":
                try reader.once(&seen, 8)
                reader.skipWhitespace()
                data = reader.index
                try reader.skipValue()
            default:
                try reader.skipValue()
            }
        }
        guard let kind else { throw Miss() }
        if requestsOnly, !EventKind.viewRequests.contains(kind) { throw Miss() }
        // The data may come before the event's name: read it now that its type is known.
        let end = index
        var hasData = false
        if let data {
            index = data
            hasData = try !isNull()
            index = data
        }
        let event = try event(kind, data: hasData)
        index = end
        return WireFrame(event: event, id: id, client: client)
    }

    /// The event of `kind` whose data starts at `index` (when `data`), as `Event.init(from:)`
    /// reads it.
    private mutating func event(_ kind: EventKind, data: Bool) throws(Miss) -> Event {
        switch kind {
        case .requestStatus: return .requestStatus
        case .requestTodoViewModels: return .requestTodoViewModels(data ? try filter() : TodoFilter())
        default: break
        }
        guard data else { throw Miss() }
        switch kind {
        case .requestTodoDetail: return .requestTodoDetail(try ref())
        case .requestCompleteTodo: return .requestCompleteTodo(try ref())
        case .requestReopenTodo: return .requestReopenTodo(try ref())
        case .requestToggleComplete: return .requestToggleComplete(try ref())
        case .requestDeleteTodo: return .requestDeleteTodo(try ref())
        case .requestRestoreTodo: return .requestRestoreTodo(try ref())
        case .requestNewTodo: return .requestNewTodo(try newTodo())
        case .responseTodoViewModels: return .responseTodoViewModels(try list())
        case .responseTodoViewModel: return .responseTodoViewModel(try change())
        case .responseTodoDetail: return .responseTodoDetail(TodoDetailViewModel(try todo(), today: currentDay()))
        case .responseError: return .responseError(try error())
        case .responseGoodbye: return .responseGoodbye(try error())
        case .responseHello: return .responseHello(try hello())
        default: throw Miss()
        }
    }

    private mutating func list() throws(Miss) -> TodoViewModelList {
        var filter: TodoFilter?
        var rows: [TodoViewModel]?
        var asOf: UInt64?
        var seen: UInt8 = 0
        try object { reader, key throws(Miss) in
            switch key {
            case "filter": try reader.once(&seen, 1); filter = try reader.filter()
            case "seq": try reader.once(&seen, 2); asOf = try reader.unsigned()
            case "todos":
                try reader.once(&seen, 4)
                var todos: [TodoViewModel] = []
                try reader.array { reader throws(Miss) in
                    let todo = try reader.todo()
                    todos.append(TodoViewModel(todo, today: reader.currentDay()))
                }
                rows = todos
            default: try reader.skipValue()
            }
        }
        guard let filter, let rows, let asOf else { throw Miss() }
        return TodoViewModelList(filter: filter, todos: rows, asOf: asOf)
    }

    private mutating func change() throws(Miss) -> TodoChange {
        var kind: TodoChange.Kind?
        var todo: Todo?
        var sequence: UInt64?
        var seen: UInt8 = 0
        try object { reader, key throws(Miss) in
            switch key {
            case "change":
                try reader.once(&seen, 1)
                guard let value = TodoChange.Kind(rawValue: try reader.string()) else { throw Miss() }
                kind = value
            case "todo": try reader.once(&seen, 2); todo = try reader.todo()
            case "seq": try reader.once(&seen, 4); sequence = try reader.unsigned()
            default: try reader.skipValue()
            }
        }
        guard let kind, let todo, let sequence else { throw Miss() }
        return TodoChange(kind: kind, todo: TodoViewModel(todo, today: currentDay()), sequence: sequence)
    }

    private mutating func error() throws(Miss) -> TodoError {
        var code: TodoError.Code?
        var message: String?
        var field: String?
        var todo: Todo?
        var seen: UInt8 = 0
        try object { reader, key throws(Miss) in
            switch key {
            case "code":
                try reader.once(&seen, 1)
                guard let value = TodoError.Code(rawValue: try reader.string()) else { throw Miss() }
                code = value
            case "message": try reader.once(&seen, 2); message = try reader.string()
            case "field": try reader.once(&seen, 4); field = try reader.isNull() ? nil : reader.string()
            case "todo": try reader.once(&seen, 8); todo = try reader.isNull() ? nil : reader.todo()
            default: try reader.skipValue()
            }
        }
        guard let code, let message else { throw Miss() }
        return TodoError(code, message, field: field, todo: todo.map { TodoViewModel($0, today: currentDay()) })
    }

    private mutating func hello() throws(Miss) -> ServerHello {
        var version: Int?
        var server: String?
        var client: UInt64?
        var sequence: UInt64?
        var seen: UInt8 = 0
        try object { reader, key throws(Miss) in
            switch key {
            case "protocol": try reader.once(&seen, 1); version = try reader.signed()
            case "server": try reader.once(&seen, 2); server = try reader.string()
            case "client": try reader.once(&seen, 4); client = try reader.unsigned()
            case "seq": try reader.once(&seen, 8); sequence = try reader.unsigned()
            default: try reader.skipValue()
            }
        }
        guard let version, let server, let client, let sequence else { throw Miss() }
        return ServerHello(protocolVersion: version, serverVersion: server, client: client, sequence: sequence)
    }

    /// `TodoFilter.init(from:)`: every field optional, status `open` by default.
    private mutating func filter() throws(Miss) -> TodoFilter {
        var filter = TodoFilter()
        var seen: UInt8 = 0
        try object { reader, key throws(Miss) in
            switch key {
            case "status":
                try reader.once(&seen, 1)
                if try !reader.isNull() {
                    guard let status = TodoFilter.Status(rawValue: try reader.string()) else { throw Miss() }
                    filter.status = status
                }
            case "tag": try reader.once(&seen, 2); filter.tag = try reader.isNull() ? nil : reader.string()
            case "priority": try reader.once(&seen, 4); filter.priority = try reader.isNull() ? nil : reader.priority()
            case "search": try reader.once(&seen, 8); filter.search = try reader.isNull() ? nil : reader.string()
            default: try reader.skipValue()
            }
        }
        return filter
    }

    /// `TodoRef.init(from:)`: a positive number, or text that `TodoRef.init(_:)` takes.
    private mutating func ref() throws(Miss) -> TodoRef {
        skipWhitespace()
        guard index < bytes.count else { throw Miss() }
        if bytes[index] == UInt8(ascii: "\"") {
            guard let ref = TodoRef(try string()) else { throw Miss() }
            return ref
        }
        let number = try signed()
        guard number > 0 else { throw Miss() }
        return .number(number)
    }

    /// `NewTodo.init(from:)`: only the title is required.
    private mutating func newTodo() throws(Miss) -> NewTodo {
        var title: String?
        var notes: String?
        var priority: Priority?
        var due: LocalDate?
        var tags: [String]?
        var seen: UInt8 = 0
        try object { reader, key throws(Miss) in
            switch key {
            case "title": try reader.once(&seen, 1); title = try reader.string()
            case "notes": try reader.once(&seen, 2); notes = try reader.isNull() ? nil : reader.string()
            case "priority": try reader.once(&seen, 4); priority = try reader.isNull() ? nil : reader.priority()
            case "due": try reader.once(&seen, 8); due = try reader.isNull() ? nil : reader.date()
            case "tags": try reader.once(&seen, 16); tags = try reader.isNull() ? nil : reader.strings()
            default: try reader.skipValue()
            }
        }
        guard let title else { throw Miss() }
        return NewTodo(title: title, notes: notes ?? "", priority: priority ?? .normal, due: due, tags: tags ?? [])
    }

    /// `Todo.init(from:)`.
    private mutating func todo() throws(Miss) -> Todo {
        var id: UUID?
        var number: Int?
        var title: String?
        var notes: String?
        var priority: Priority?
        var due: LocalDate?
        var tags: [String]?
        var createdAt: Date?
        var updatedAt: Date?
        var completedAt: Date?
        var deletedAt: Date?
        var revision: Int?
        var seen: UInt16 = 0
        try object { reader, key throws(Miss) in
            switch key {
            case "id": try reader.once(&seen, 1); id = try reader.uuid()
            case "number": try reader.once(&seen, 2); number = try reader.signed()
            case "title": try reader.once(&seen, 4); title = try reader.string()
            case "notes": try reader.once(&seen, 8); notes = try reader.isNull() ? nil : reader.string()
            case "priority": try reader.once(&seen, 16); priority = try reader.isNull() ? nil : reader.priority()
            case "due": try reader.once(&seen, 32); due = try reader.isNull() ? nil : reader.date()
            case "tags": try reader.once(&seen, 64); tags = try reader.isNull() ? nil : reader.strings()
            case "createdAt": try reader.once(&seen, 128); createdAt = try reader.instant()
            case "updatedAt": try reader.once(&seen, 256); updatedAt = try reader.instant()
            case "completedAt": try reader.once(&seen, 512); completedAt = try reader.isNull() ? nil : reader.instant()
            case "deletedAt": try reader.once(&seen, 1024); deletedAt = try reader.isNull() ? nil : reader.instant()
            case "revision": try reader.once(&seen, 2048); revision = try reader.signed()
            default: try reader.skipValue()
            }
        }
        guard let id, let number, let title, let createdAt, let updatedAt, let revision else { throw Miss() }
        return Todo(
            id: id, number: number, title: title, notes: notes ?? "", priority: priority ?? .normal, due: due,
            tags: tags ?? [], createdAt: createdAt, updatedAt: updatedAt, completedAt: completedAt,
            deletedAt: deletedAt, revision: revision)
    }

    private mutating func currentDay() -> LocalDate {
        if let today { return today }
        let day = LocalDate(Date())
        today = day
        return day
    }

    // MARK: Values

    /// A key seen twice is left to JSONDecoder.
    private func once<T: FixedWidthInteger>(_ seen: inout T, _ bit: T) throws(Miss) {
        guard seen & bit == 0 else { throw Miss() }
        seen |= bit
    }

    private mutating func priority() throws(Miss) -> Priority {
        guard let priority = Priority(rawValue: try string()) else { throw Miss() }
        return priority
    }

    private mutating func strings() throws(Miss) -> [String] {
        var values: [String] = []
        try array { reader throws(Miss) in values.append(try reader.string()) }
        return values
    }

    /// `YYYY-MM-DD` through `LocalDate.init(_:)`, each different day once per frame.
    private mutating func date() throws(Miss) -> LocalDate {
        let (start, end, escaped) = try stringBounds()
        if !escaped, end - start == 10, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
            let year = digits(start, 4), let month = digits(start + 5, 2), let day = digits(start + 8, 2)
        {
            let key = year * 10_000 + month * 100 + day
            if let known = dates[key] { return known }
            guard let date = LocalDate(year: year, month: month, day: day) else { throw Miss() }
            dates[key] = date
            return date
        }
        guard let date = LocalDate(try text(start, end, escaped: escaped)) else { throw Miss() }
        return date
    }

    /// An instant: `2026-11-22T09:30:00.123Z` read here, any other form by the protocol's
    /// ISO 8601 parser, as `WireCodec`'s JSONDecoder does; rounded to the millisecond.
    private mutating func instant() throws(Miss) -> Date {
        let (start, end, escaped) = try stringBounds()
        if !escaped, end - start == 24, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
            bytes[start + 10] == UInt8(ascii: "T"), bytes[start + 13] == UInt8(ascii: ":"),
            bytes[start + 16] == UInt8(ascii: ":"), bytes[start + 19] == UInt8(ascii: "."),
            bytes[start + 23] == UInt8(ascii: "Z"),
            let year = digits(start, 4), let month = digits(start + 5, 2), let day = digits(start + 8, 2),
            let hour = digits(start + 11, 2), let minute = digits(start + 14, 2), let second = digits(start + 17, 2),
            let millisecond = digits(start + 20, 3),
            let civil = CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                                  millisecond: millisecond)
        {
            return Date(millisecondsSince1970: civil.millisecondsSince1970)
        }
        guard let date = WireCodec.parseTimestamp(try text(start, end, escaped: escaped)) else { throw Miss() }
        return date
    }

    private func digits(_ start: Int, _ count: Int) -> Int? {
        var value = 0
        for offset in 0..<count {
            let byte = bytes[start + offset]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// A UUID in its canonical form, read from the hex digits; any other text through
    /// `UUID(uuidString:)`, as `JSONDecoder` reads a UUID.
    private mutating func uuid() throws(Miss) -> UUID {
        let (start, end, escaped) = try stringBounds()
        if !escaped, end - start == 36 {
            var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &raw) { out -> Bool in
                var position = start
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        guard bytes[position] == UInt8(ascii: "-") else { return false }
                        position += 1
                    }
                    guard let high = FastFrameReader.hexValue(bytes[position]),
                        let low = FastFrameReader.hexValue(bytes[position + 1])
                    else { return false }
                    out[index] = high << 4 | low
                    position += 2
                }
                return true
            }
            if parsed { return UUID(uuid: raw) }
        }
        guard let id = UUID(uuidString: try text(start, end, escaped: escaped)) else { throw Miss() }
        return id
    }

}
