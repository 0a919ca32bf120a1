import EventTestSupport
import Foundation
import NIOCore
import NIOPosix
import Testing
import TodoEvents
import TodoModel
import TodoServers
import TodoViewModel

/// A directory of its own under the system's temporary directory, removed when dropped.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("todod-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var databasePath: String { url.appendingPathComponent("todo.sqlite").path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The core event loop the servers' state is bound to, as the daemon's is: the tests publish
/// there and read the servers there, as the daemon's connections do.
enum TestCore {
    static func make() -> any EventLoop { MultiThreadedEventLoopGroup.singleton.next() }
}

extension EventLoop {
    /// Publishes on this loop, as a connection of the daemon does; returns once it is dispatched.
    func publish(_ bus: EventBus, _ event: BusEvent, correlation: Correlation? = nil) async {
        await run { _ = bus.publish(event, correlation: correlation) }
    }

    func publish(_ bus: EventBus, _ event: Event, correlation: Correlation? = nil) async {
        await publish(bus, .view(event), correlation: correlation)
    }

    func publish(_ bus: EventBus, _ event: ModelEvent, correlation: Correlation? = nil) async {
        await publish(bus, .model(event), correlation: correlation)
    }

    /// `body`'s result, run on this loop: where the servers' state may be read.
    func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        try! await submit(body).get()
    }
}

/// A running daemon core without the socket: a bus, the store on a real SQLite file,
/// and both servers on it, on a core loop of their own; the model server's commits come back there.
final class Harness {
    let bus: EventBus
    let core: any EventLoop
    let store: TodoStore
    let modelServer: ModelServer
    let viewModelServer: ViewModelServer
    private var tasks: [Task<Void, Never>] = []
    private var requestCount = 0

    /// The view responses a View can receive.
    static let viewResponses: Set<EventKind> = [.responseTodoViewModels, .responseTodoViewModel, .responseTodoDetail, .responseError]

    init(_ directory: TemporaryDirectory, maximumPageCount: Int? = nil) throws {
        core = TestCore.make()
        bus = EventBus(core: core)
        store = try TodoStore(path: directory.databasePath, maximumPageCount: maximumPageCount)
        modelServer = try ModelServer(bus: bus, store: store, core: core)
        viewModelServer = ViewModelServer(bus: bus)
        let modelServer = modelServer
        tasks = [Task { await modelServer.run() }]
    }

    /// Stops both servers and waits until they have returned (the model server commits
    /// what it already received first).
    func stop() async {
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        tasks = []
    }

    /// `body`'s result, read on the core, where the model server's state lives.
    func onCore<Value: Sendable>(_ body: @escaping @Sendable (ModelServer) -> Value) async -> Value {
        let modelServer = modelServer
        return await core.run { body(modelServer) }
    }

    func nextCorrelation() -> Correlation {
        requestCount += 1
        return Correlation(client: 1, request: "r\(requestCount)")
    }

    /// Publishes a view request and returns the view response with its correlation.
    func request(_ event: Event, sourceLocation: SourceLocation = #_sourceLocation) async -> Envelope? {
        let correlation = nextCorrelation()
        let responses = bus.subscribe(to: Harness.viewResponses)
        await core.publish(bus, event, correlation: correlation)
        return await first(from: responses, sourceLocation: sourceLocation) { $0.correlation == correlation }
    }

    /// The change a write request caused, or nil (and a recorded issue) when it was answered otherwise.
    func change(_ event: Event, sourceLocation: SourceLocation = #_sourceLocation) async -> TodoChange? {
        let answer = await request(event, sourceLocation: sourceLocation)
        guard case .responseTodoViewModel(let change)? = answer?.view else {
            Issue.record("expected a change, got \(String(describing: answer?.view))", sourceLocation: sourceLocation)
            return nil
        }
        return change
    }

    /// The error a request was answered with, or nil (and a recorded issue).
    func error(_ event: Event, sourceLocation: SourceLocation = #_sourceLocation) async -> TodoError? {
        let answer = await request(event, sourceLocation: sourceLocation)
        guard case .responseError(let error)? = answer?.view else {
            Issue.record("expected an error, got \(String(describing: answer?.view))", sourceLocation: sourceLocation)
            return nil
        }
        return error
    }

    func list(_ filter: TodoFilter = TodoFilter(status: .all), sourceLocation: SourceLocation = #_sourceLocation) async -> TodoViewModelList? {
        let answer = await request(.requestTodoViewModels(filter), sourceLocation: sourceLocation)
        guard case .responseTodoViewModels(let list)? = answer?.view else {
            Issue.record("expected a list, got \(String(describing: answer?.view))", sourceLocation: sourceLocation)
            return nil
        }
        return list
    }

    func detail(_ ref: TodoRef, sourceLocation: SourceLocation = #_sourceLocation) async -> TodoDetailViewModel? {
        let answer = await request(.requestTodoDetail(ref), sourceLocation: sourceLocation)
        guard case .responseTodoDetail(let detail)? = answer?.view else {
            Issue.record("expected a detail, got \(String(describing: answer?.view))", sourceLocation: sourceLocation)
            return nil
        }
        return detail
    }

    /// Creates a todo and returns it as committed.
    @discardableResult
    func create(_ title: String, priority: Priority = .normal, sourceLocation: SourceLocation = #_sourceLocation) async -> Todo? {
        await change(.requestNewTodo(NewTodo(title: title, priority: priority)), sourceLocation: sourceLocation)?.todo.todo
    }
}

/// Runs `body` with a started harness and stops it afterwards, also when `body` throws.
func withHarness(
    _ directory: TemporaryDirectory? = nil, maximumPageCount: Int? = nil,
    _ body: (Harness) async throws -> Void
) async throws {
    let directory = try directory ?? TemporaryDirectory()
    let harness = try Harness(directory, maximumPageCount: maximumPageCount)
    do {
        try await body(harness)
    } catch {
        await harness.stop()
        throw error
    }
    await harness.stop()
}
