import Foundation
import NIOCore
import NIOEmbedded
import Testing
import TodoEvents
import TodoModel
import TodoViewModel
import TodoWire
@testable import TodoClient

/// `TodoClient`'s side of correlation (docs/PROTOCOL.md, "Correlation"), on the pipeline a
/// client connects with, over a `NIOAsyncTestingChannel` where the test is the daemon: which
/// frame answers which request, which is a broadcast, and what a goodbye does to the rest.
@Suite("TodoClient's correlation")
struct CorrelationTests {
    /// The number the daemon gave this client in its hello.
    static let me: UInt64 = 4
    static let someoneElse: UInt64 = 9
    static let todo = Todo(number: 1, title: "Buy milk", createdAt: Date(timeIntervalSince1970: 1_780_000_000))
    static let list = TodoViewModelList(filter: TodoFilter(), todos: [TodoViewModel(todo)], asOf: 3)
    static func change(_ sequence: UInt64) -> TodoChange {
        TodoChange(kind: .updated, todo: TodoViewModel(todo), sequence: sequence)
    }

    /// A client after its hello; the test plays the daemon at the channel's other end.
    struct Connected {
        let channel: NIOAsyncTestingChannel
        let client: TodoClient

        init() async throws {
            let state = ClientState(unreadBroadcastLimit: 100)
            channel = try await NIOAsyncTestingChannel { channel in
                try channel.pipeline.syncOperations.addHandlers(TodoClient.handlers(state: state))
            }
            let hello = ServerHello(protocolVersion: WireProtocol.version, serverVersion: "test", client: CorrelationTests.me, sequence: 0)
            try await channel.writeInbound(WireCodec().encode(WireFrame(event: .responseHello(hello), client: CorrelationTests.me)))
            client = TodoClient(hello: try await state.hello(), channel: channel, state: state)
        }

        /// Sends `event` as the client's request, and returns it running and its id, as the daemon read it.
        func ask(_ event: Event) async throws -> (answer: Task<Event, any Error>, id: String) {
            let answer = Task { [client] in try await client.request(event) }
            var line = try await channel.waitForOutboundWrite(as: ByteBuffer.self)
            let request = try WireCodec().decodeRequest(line.readSlice(length: line.readableBytes - 1)!).get()
            try #require(request.event == event)
            return (answer, try #require(request.id))
        }

        /// The daemon sends `frame`.
        func daemonSends(_ frame: WireFrame) async throws {
            try await channel.writeInbound(WireCodec().encode(frame))
        }

        /// What a request came to: its answer or its error. One still unanswered after 10 s
        /// (its answer lost by a broken correlation) is ended by hanging up, so that the test
        /// fails instead of waiting for ever.
        func outcome(of answer: Task<Event, any Error>) async -> Result<Event, TodoClientError> {
            let deadline = Task { [channel] in
                try await Task.sleep(for: .seconds(10))
                Issue.record("a request was neither answered nor failed within 10 s")
                channel.close(promise: nil)
            }
            defer { deadline.cancel() }
            return await answer.result.mapError { $0 as? TodoClientError ?? .protocolViolation("not a TodoClientError: \($0)") }
        }

        /// The daemon closes the connection; returns every broadcast the client heard, up to its end.
        func daemonCloses() async throws -> [Broadcast] {
            try await channel.close()
            var heard: [Broadcast] = []
            for await broadcast in client.broadcasts { heard.append(broadcast) }
            return heard
        }
    }

    @Test("an answer with the asker's id and client number is that request's answer, and not a broadcast")
    func answerGoesToItsRequest() async throws {
        let connected = try await Connected()
        // Closed however the test ends: an open testing channel may not be freed.
        defer { connected.channel.close(promise: nil) }
        let (answer, id) = try await connected.ask(.requestTodoViewModels(TodoFilter()))
        try await connected.daemonSends(WireFrame(event: .responseTodoViewModels(Self.list), id: id, client: Self.me))
        let got = try await connected.outcome(of: answer).get()
        #expect(got == .responseTodoViewModels(Self.list))
        let heard = try await connected.daemonCloses()
        #expect(heard == [])
    }

    @Test("another client's change is a broadcast, and answers none of this client's requests, even one with the same id")
    func othersChangeIsABroadcast() async throws {
        let connected = try await Connected()
        defer { connected.channel.close(promise: nil) }
        let (answer, id) = try await connected.ask(.requestTodoViewModels(TodoFilter()))
        // Ids are each client's own: the other client's first request may have ours.
        let others = WireFrame(event: .responseTodoViewModel(Self.change(5)), id: id, client: Self.someoneElse)
        try await connected.daemonSends(others)
        try await connected.daemonSends(WireFrame(event: .responseTodoViewModels(Self.list), id: id, client: Self.me))
        let got = try await connected.outcome(of: answer).get()
        #expect(got == .responseTodoViewModels(Self.list))
        let heard = try await connected.daemonCloses()
        #expect(heard == [.frame(others)])
    }

    @Test("this client's own change answers its request and is a broadcast too, as every client sees it")
    func ownChangeIsBoth() async throws {
        let connected = try await Connected()
        defer { connected.channel.close(promise: nil) }
        let (answer, id) = try await connected.ask(.requestToggleComplete(.number(1)))
        let mine = WireFrame(event: .responseTodoViewModel(Self.change(6)), id: id, client: Self.me)
        try await connected.daemonSends(mine)
        let got = try await connected.outcome(of: answer).get()
        #expect(got == .responseTodoViewModel(Self.change(6)))
        let heard = try await connected.daemonCloses()
        #expect(heard == [.frame(mine)])
    }

    @Test("an error answer fails its own request alone; the others still get their answers")
    func errorFailsOnlyItsRequest() async throws {
        let connected = try await Connected()
        defer { connected.channel.close(promise: nil) }
        let (first, firstID) = try await connected.ask(.requestTodoDetail(.number(1)))
        let (second, secondID) = try await connected.ask(.requestTodoDetail(.number(2)))
        let notFound = TodoError(.notFound, "no todo #2")
        try await connected.daemonSends(WireFrame(event: .responseError(notFound), id: secondID, client: Self.me))
        let refused = await connected.outcome(of: second).failure
        #expect(refused?.refusal == notFound, "the second request failed with \(String(describing: refused))")
        let detail = TodoDetailViewModel(Self.todo)
        try await connected.daemonSends(WireFrame(event: .responseTodoDetail(detail), id: firstID, client: Self.me))
        let got = try await connected.outcome(of: first).get()
        #expect(got == .responseTodoDetail(detail))
        let heard = try await connected.daemonCloses()
        #expect(heard == [])
    }

    @Test("a frame this client does not understand fails only the request it answers")
    func unknownFrameFailsOnlyItsRequest() async throws {
        let connected = try await Connected()
        defer { connected.channel.close(promise: nil) }
        let (first, firstID) = try await connected.ask(.requestStatus)
        let (second, secondID) = try await connected.ask(.requestTodoViewModels(TodoFilter()))
        try await connected.channel.writeInbound(ByteBuffer(string: #"{"client":4,"data":{},"event":"responseFromTheFuture","id":"\#(firstID)"}"# + "\n"))
        let violation = await connected.outcome(of: first).failure
        #expect(violation?.isProtocolViolation == true, "the first request failed with \(String(describing: violation))")
        try await connected.daemonSends(WireFrame(event: .responseTodoViewModels(Self.list), id: secondID, client: Self.me))
        let got = try await connected.outcome(of: second).get()
        #expect(got == .responseTodoViewModels(Self.list))
        let heard = try await connected.daemonCloses()
        #expect(heard == [])
    }

    @Test("a goodbye fails every pending request with its reason, ends the broadcasts as their last, and fails a request made after it")
    func goodbyeFailsEveryRequest() async throws {
        let connected = try await Connected()
        defer { connected.channel.close(promise: nil) }
        let (first, _) = try await connected.ask(.requestStatus)
        let (second, _) = try await connected.ask(.requestTodoViewModels(TodoFilter()))
        let reason = TodoError(.overloaded, "you left more than 8 MiB of events unread")
        let goodbye = WireFrame(event: .responseGoodbye(reason), client: Self.me)
        try await connected.daemonSends(goodbye)
        let heard = try await connected.daemonCloses()
        #expect(heard == [.frame(goodbye)])
        let pending = [await connected.outcome(of: first).failure, await connected.outcome(of: second).failure]
        #expect(pending.map { $0?.goodbye } == [reason, reason], "the pending requests failed with \(pending)")
        let late = await connected.outcome(of: Task { [client = connected.client] in try await client.request(.requestStatus) }).failure
        #expect(late?.goodbye == reason, "a request after the goodbye failed with \(String(describing: late))")
    }
}

extension TodoClientError {
    /// The daemon's error, for a request it refused.
    var refusal: TodoError? {
        if case .refused(let error) = self { error } else { nil }
    }

    /// The goodbye the daemon said, for a connection it closed after saying one.
    var goodbye: TodoError? {
        if case .disconnected(let goodbye) = self { goodbye } else { nil }
    }

    var isProtocolViolation: Bool {
        if case .protocolViolation = self { true } else { false }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
