import NIOCore
import TodoEvents
import TodoModel
import TodoViewModel

/// The answers the daemon sends most, written from their members around their todos'
/// cached bytes (`EncodedTodoCache`): a todo's detail (`show`), a list, and a change (the
/// answer to every write, and every broadcast).
///
/// Why: through `WireFrame`'s, `Event`'s and the values' conformances, framing a detail
/// whose todo was already encoded cost about 33,000 instructions (generic keyed containers,
/// a dynamic cast for every member, a tree of members sorted at the end), 29% of the
/// daemon's instructions answering a one-todo read; a list of 100 cost 226,000, 65% of
/// its (callgrind, a bare client asking in a loop). Here a frame is a few literal runs and
/// the cached bytes, measured, then copied once into the buffer it is sent in.
///
/// The conformances stay the definition of the shape: what these writers do not take whole
/// (a detail with a parent or subtasks, a list's filter with conditions, its progress) goes
/// through them, and `WireEncoderTests` checks that both ways write the same bytes for
/// every frame.
extension WireEncoder {
    /// `frame` as `write(_:into:)` writes it, or nil when it is not one of these answers.
    static func quickResponse(_ frame: WireFrame) throws -> SplicedJSON? {
        // An answer carries no program or step: those are a request's.
        guard frame.program == nil, frame.step == nil else { return nil }
        var out = SplicedJSON()
        // The members sorted by their UTF-8, as every object goes out: client, data, event, id.
        out.text.raw("{")
        if let client = frame.client {
            out.text.raw("\"client\":")
            out.text.integer(client)
            out.text.raw(",")
        }
        out.text.raw("\"data\":")
        switch frame.event {
        case .responseTodoDetail(let detail) where !detail.hasRelations:
            // A detail without parent, subtasks or dependencies is its todo's JSON (`TodoDetailViewModel.encode`).
            out.splice(try EncodedTodoCache.bytes(of: detail.todo))
        case .responseTodoViewModels(let list): try out.list(list)
        case .responseTodoViewModel(let change): try out.change(change)
        default: return nil
        }
        out.text.raw(",\"event\":")
        out.text.string(frame.event.kind.rawValue)
        if let id = frame.id {
            out.text.raw(",\"id\":")
            out.text.string(id)
        }
        out.text.raw("}")
        return out
    }
}

/// JSON made of literal runs and bytes encoded before (a todo's, from the cache), kept as
/// pieces until they are written once, into a buffer sized for all of them.
struct SplicedJSON {
    private enum Piece {
        case bytes([UInt8])
        /// An array's elements, without their brackets, written with a comma between them.
        case elements([[UInt8]])
    }

    private var pieces: [Piece] = []
    /// The literal run being written: members' keys, numbers, short strings.
    var text = JSONOutput()
    /// The length of the pieces, but for `text`.
    private var piecesByteCount = 0

    /// Bytes encoded before, as they are.
    mutating func splice(_ bytes: [UInt8]) {
        endRun()
        pieces.append(.bytes(bytes))
        piecesByteCount += bytes.count
    }

    /// An array of values encoded before.
    mutating func spliceArray(_ elements: [[UInt8]]) {
        text.raw("[")
        endRun()
        pieces.append(.elements(elements))
        piecesByteCount += elements.reduce(max(0, elements.count - 1)) { $0 + $1.count }
        text.raw("]")
    }

    /// A value through its conformance (`WireEncoder`), for the parts these writers leave to it.
    mutating func encode<T: Encodable>(_ value: T) throws {
        splice(try WireEncoder.bytes(value))
    }

    private mutating func endRun() {
        guard !text.bytes.isEmpty else { return }
        piecesByteCount += text.bytes.count
        pieces.append(.bytes(text.bytes))
        text = JSONOutput()
    }

    /// Appends the JSON to `buffer` in one go, into room made for all of it (and the newline).
    /// Appended piece by piece, each row and the comma before it passed the buffer's
    /// exclusivity and capacity checks, 290 instructions a row: a quarter of the daemon's
    /// instructions answering a list of 100 (callgrind). Every copy is checked against the
    /// room first, so a miscounted length stops the daemon rather than write past it.
    mutating func write(into buffer: inout ByteBuffer) {
        endRun()
        let pieces = pieces
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: piecesByteCount + 1) { room in
            var at = 0
            func put(_ bytes: [UInt8]) {
                bytes.withUnsafeBytes { bytes in
                    precondition(at + bytes.count <= room.count, "a spliced frame is longer than it counted")
                    UnsafeMutableRawBufferPointer(rebasing: room[at..<at + bytes.count]).copyMemory(from: bytes)
                }
                at += bytes.count
            }
            for piece in pieces {
                switch piece {
                case .bytes(let bytes): put(bytes)
                case .elements(let elements):
                    for index in elements.indices {
                        if index > elements.startIndex {
                            precondition(at < room.count, "a spliced frame is longer than it counted")
                            room[at] = UInt8(ascii: ",")
                            at += 1
                        }
                        put(elements[index])
                    }
                }
            }
            return at
        }
    }

    /// `TodoViewModelList`'s conformance: context (when any), filter, progress (when any),
    /// seq, todos; each row its todo's cached JSON, or its row's (`TodoFilter.rows`).
    mutating func list(_ list: TodoViewModelList) throws {
        let shape: EncodedTodoCache.Shape = list.filter.rows ? .row : .whole
        text.raw("{")
        if !list.context.isEmpty {
            text.raw("\"context\":")
            spliceArray(try EncodedTodoCache.bytes(of: list.context, shape))
            text.raw(",")
        }
        text.raw("\"filter\":")
        if !text.plainFilter(list.filter) { try encode(list.filter) }
        if !list.progress.isEmpty {
            text.raw(",\"progress\":")
            try encode(list.progress)
        }
        text.raw(",\"seq\":")
        text.integer(list.asOf)
        text.raw(",\"todos\":")
        spliceArray(try EncodedTodoCache.bytes(of: list.todos, shape))
        text.raw("}")
    }

    /// `TodoChange`'s conformance: change, further (when any), seq, step (when set), todo, unshared (when set).
    mutating func change(_ change: TodoChange) throws {
        text.raw("{\"change\":")
        text.string(change.kind.rawValue)
        if !change.further.isEmpty {
            text.raw(",\"further\":[")
            for (index, further) in change.further.enumerated() {
                if index > 0 { text.raw(",") }
                try self.change(further)
            }
            text.raw("]")
        }
        text.raw(",\"seq\":")
        text.integer(change.sequence)
        if let step = change.step {
            text.raw(",\"step\":")
            text.integer(step)
        }
        text.raw(",\"todo\":")
        splice(try EncodedTodoCache.bytes(of: change.todo.todo))
        if let unshared = change.unshared {
            text.raw(",\"unshared\":")
            text.string(unshared)
        }
        text.raw("}")
    }
}
