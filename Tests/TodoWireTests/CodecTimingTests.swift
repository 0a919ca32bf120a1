import Foundation
import NIOCore
import Testing
import TodoEvents
import TodoModel
import TodoViewModel
import TodoWire

/// Prints what the codec's common frames cost (a harness, not a timing assertion: the
/// numbers depend on the machine and the build; run it in release for real figures).
@Suite("codec timings")
struct CodecTimingTests {
    private func time(_ name: String, runs: Int, _ body: () throws -> Void) rethrows {
        try body()
        let start = ContinuousClock.now
        for _ in 0..<runs { try body() }
        let each = (ContinuousClock.now - start) / runs
        print("codec timing: \(name): \(each)")
    }

    @Test("the common frames encode and decode (timings printed)")
    func timings() throws {
        let codec = WireCodec()
        let instant = Date(millisecondsSince1970: 1_780_000_000_123)
        func todos(_ count: Int) -> [TodoViewModel] {
            (1...count).map {
                TodoViewModel(Todo(number: $0, title: "Todo number \($0)", notes: "some notes", due: LocalDate("2026-12-24"),
                                   tags: ["home", "work"], createdAt: instant, revision: 3))
            }
        }
        let change = WireFrame(event: .responseTodoViewModel(TodoChange(kind: .updated, todo: todos(1)[0], sequence: 9)), id: "r", client: 1)
        let list100 = WireFrame(event: .responseTodoViewModels(TodoViewModelList(filter: TodoFilter(), todos: todos(100), asOf: 1)))
        let list10k = WireFrame(event: .responseTodoViewModels(TodoViewModelList(filter: TodoFilter(), todos: todos(10_000), asOf: 1)))
        try time("encode a change", runs: 2_000) { _ = try codec.encode(change) }
        try time("encode a list of 100", runs: 200) { _ = try codec.encode(list100) }
        try time("encode a list of 10,000", runs: 5) { _ = try codec.encode(list10k) }
        let complete = ByteBuffer(string: #"{"event":"requestCompleteTodo","id":"c1","data":3}"#)
        let new = ByteBuffer(string: #"{"event":"requestNewTodo","id":"r1","data":{"title":"Buy milk","notes":"oat","priority":"high","due":"2026-12-24","tags":["home"]}}"#)
        var line = try codec.encode(list100)
        line.moveWriterIndex(to: line.writerIndex - 1)
        time("decode requestCompleteTodo", runs: 5_000) { _ = codec.decodeRequest(complete) }
        time("decode requestNewTodo", runs: 5_000) { _ = codec.decodeRequest(new) }
        #expect(try codec.decodeResponse(line) == list100)
        try time("decode a list of 100", runs: 200) { _ = try codec.decodeResponse(line) }
    }
}
