import EventTestSupport
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing
import TodoEvents
import TodoModel

/// The bus is bound to a loop, as the daemon's to its core: the tests publish there (`onCore`)
/// and subscribe from wherever they are, as the daemon's participants do while it starts.
@Suite("EventBus")
struct EventBusTests {
    let core = MultiThreadedEventLoopGroup.singleton.next()

    /// `body`'s result, run on the bus's loop.
    @discardableResult
    func onCore<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        try! await core.submit(body).get()
    }

    @Test("a subscriber receives only the kinds it asked for, in publish order")
    func onlySubscribedKinds() async {
        let bus = EventBus(core: core)
        let stream = bus.subscribe(to: [.requestCompleteTodo, .requestDeleteTodo])
        await onCore {
            bus.publish(.requestCompleteTodo(.number(1)))
            bus.publish(.requestStatus)
            bus.publish(.requestDeleteTodo(.number(2)))
            bus.publish(.requestReopenTodo(.number(3)))
            bus.publish(.requestCompleteTodo(.number(4)))
        }
        let received = await collect(3, from: stream)
        #expect(received.map(\.view) == [.requestCompleteTodo(.number(1)), .requestDeleteTodo(.number(2)), .requestCompleteTodo(.number(4))])
        #expect(received.map(\.sequence) == [1, 3, 5])
    }

    @Test("publish numbers every event, strictly increasing, and keeps its correlation")
    func sequenceNumbers() async {
        let bus = EventBus(core: core)
        let stream = bus.subscribe(to: [.requestStatus])
        let correlation = Correlation(client: 7, request: "r1")
        let published = await onCore {
            (0..<20).map { index in bus.publish(.requestStatus, correlation: index == 3 ? correlation : nil) }
        }
        #expect(published.map(\.sequence) == Array(1...20))
        #expect(await onCore { bus.lastSequence } == 20)
        let received = await collect(20, from: stream)
        #expect(received == published)
        #expect(received[3].correlation == correlation)
        #expect(received[4].correlation == nil)
    }

    @Test("every subscriber of a kind receives it; a late subscriber sees only later events")
    func severalSubscribers() async {
        let bus = EventBus(core: core)
        let first = bus.subscribe(to: [.requestStatus])
        let second = bus.subscribe(to: [.requestStatus, .requestNewTodo])
        await onCore { bus.publish(.requestStatus) }
        let late = bus.subscribe(to: [.requestStatus])
        await onCore {
            bus.publish(.requestNewTodo(NewTodo(title: "x")))
            bus.publish(.requestStatus)
        }
        #expect(await collect(2, from: first).map(\.sequence) == [1, 3])
        #expect(await collect(3, from: second).map(\.sequence) == [1, 2, 3])
        #expect(await collect(1, from: late).map(\.sequence) == [3])
        let counts = await onCore {
            [bus.subscriberCount(for: .requestStatus), bus.subscriberCount(for: .requestNewTodo), bus.subscriberCount(for: .model(.responseTodo))]
        }
        #expect(counts == [3, 1, 0])
    }

    @Test("events handed to the core by many tasks at once reach every subscriber in increasing order, each task's in its order")
    func concurrentPublishers() async {
        let bus = EventBus(core: core)
        let tasks = 20
        let perTask = 50
        let subscribers = (0..<3).map { _ in bus.subscribe(to: [.requestToggleComplete, .requestStatus]) }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask { [core] in
                    for index in 0..<perTask {
                        core.execute {
                            bus.publish(index.isMultiple(of: 2) ? .requestToggleComplete(.number(task + 1)) : .requestStatus,
                                        correlation: Correlation(client: UInt64(task), request: "\(index)"))
                        }
                    }
                }
            }
        }
        #expect(await onCore { bus.lastSequence } == UInt64(tasks * perTask))
        for stream in subscribers {
            let received = await collect(tasks * perTask, from: stream)
            let sequences = received.map(\.sequence)
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 })
            #expect(Set(sequences).count == tasks * perTask)
            // Each publisher's own events arrive in the order it published them.
            for task in 0..<tasks {
                let mine = received.filter { $0.correlation?.client == UInt64(task) }.compactMap { Int($0.correlation!.request) }
                #expect(mine == Array(0..<perTask))
            }
        }
    }

    @Test("cancelling the consuming task ends the subscription")
    func cancellingUnsubscribes() async {
        let bus = EventBus(core: core)
        let stream = bus.subscribe(to: [.requestStatus, .requestNewTodo])
        let started = bus.subscribe(to: [.responseStatus])
        let consumer = Task { [core] in
            var count = 0
            for await envelope in stream {
                count += 1
                if envelope.view == .requestStatus { core.execute { bus.publish(.responseStatus(Self.status)) } }
            }
            return count
        }
        await onCore { bus.publish(.requestStatus) }
        // The consumer has taken the first event: it is iterating.
        #expect(await first(from: started) != nil)
        #expect(await onCore { bus.subscriberCount(for: .requestStatus) } == 1)
        consumer.cancel()
        #expect(await consumer.value == 1)
        #expect(await becomesZero { bus.subscriberCount(for: .requestStatus) + bus.subscriberCount(for: .requestNewTodo) })
        let delivered = await onCore {
            let before = bus.statistics.delivered
            bus.publish(.requestStatus)
            return bus.statistics.delivered - before
        }
        #expect(delivered == 0)
    }

    @Test("dropping a stream that was never iterated ends the subscription")
    func droppingUnsubscribes() async {
        let bus = EventBus(core: core)
        do {
            let stream = bus.subscribe(to: [.requestStatus])
            #expect(await onCore { bus.subscriberCount(for: .requestStatus) } == 1)
            _ = stream
        }
        #expect(await becomesZero { bus.subscriberCount(for: .requestStatus) })
    }

    @Test("dispatch cost grows with interested subscribers only")
    func dispatchCost() async {
        let bus = EventBus(core: core)
        let uninterested = (0..<1_000).map { _ in bus.subscribe(to: [.model(.responseTodos)]) }
        let interested = bus.subscribe(to: [.model(.requestReadTodos)])
        #expect(await onCore { bus.subscriberCount(for: .model(.responseTodos)) } == 1_000)
        let events = 500
        let (before, after) = await onCore {
            let before = bus.statistics
            for _ in 0..<events { bus.publish(.requestReadTodos(.list(TodoFilter()))) }
            return (before, bus.statistics)
        }
        #expect(after.published - before.published == UInt64(events))
        #expect(after.delivered - before.delivered == UInt64(events))
        #expect(await collect(events, from: interested).count == events)
        // A publish to the crowd reaches all of it, and is counted as such.
        let crowd = await onCore {
            bus.publish(.responseTodos(TodoQueryResult(query: .list(TodoFilter()), todos: [], asOf: 0)))
            return bus.statistics.delivered - after.delivered
        }
        #expect(crowd == 1_000)
        #expect(uninterested.count == 1_000)
    }

    @Test("publish returns after the handlers of its kind have run, on the core")
    func synchronousDispatch() async {
        let bus = EventBus(core: core)
        let seen = Mutex<[UInt64]>([])
        let (envelope, seenOnReturn) = await onCore {
            bus.subscribe(to: [.requestStatus]) { [core] envelope in
                core.preconditionInEventLoop()
                seen.withLock { $0.append(envelope.sequence) }
            }
            let envelope = bus.publish(.requestStatus)
            return (envelope, seen.withLock { $0 })
        }
        #expect(seenOnReturn == [envelope.sequence])
    }

    @Test("an event published by a handler is dispatched after the current one, so every subscriber sees bus order")
    func handlerPublishesAreQueued() async {
        let bus = EventBus(core: core)
        let log = Mutex<[String]>([])
        // The first subscriber answers a request; the second hears both kinds.
        bus.subscribe(to: [.requestStatus]) { envelope in
            log.withLock { $0.append("answerer \(envelope.sequence)") }
            bus.publish(.responseStatus(Self.status), correlation: envelope.correlation)
            log.withLock { $0.append("answerer returned") }
        }
        bus.subscribe(to: [.requestStatus, .responseStatus]) { envelope in
            log.withLock { $0.append("observer \(envelope.sequence)") }
        }
        await onCore { bus.publish(.requestStatus) }
        #expect(log.withLock { $0 } == ["answerer 1", "answerer returned", "observer 1", "observer 2"])
    }

    @Test("an unsubscribed handler is not called again, whether it is ended on the core or from another thread")
    func unsubscribeStopsHandler() async {
        let bus = EventBus(core: core)
        let count = Mutex(0)
        let onTheCore = bus.subscribe(to: [.requestStatus]) { _ in count.withLock { $0 += 1 } }
        let fromElsewhere = bus.subscribe(to: [.requestStatus]) { _ in count.withLock { $0 += 10 } }
        await onCore {
            bus.publish(.requestStatus)
            bus.unsubscribe(onTheCore)
        }
        // Ended from this task: before the publish handed to the core after it.
        bus.unsubscribe(fromElsewhere)
        await onCore { bus.publish(.requestStatus) }
        #expect(count.withLock { $0 } == 11)
        #expect(await onCore { bus.subscriberCount(for: .requestStatus) } == 0)
    }

    @Test("handlers never run two at a time, whatever the number of tasks handing the core events")
    func handlersAreSerial() async {
        let bus = EventBus(core: core)
        let running = Mutex((now: 0, most: 0))
        bus.subscribe(to: [.requestStatus]) { _ in
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            for _ in 0..<200 { _ = bus.lastSequence }
            running.withLock { $0.now -= 1 }
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { [core] in for _ in 0..<500 { core.execute { bus.publish(.requestStatus) } } }
            }
        }
        #expect(await onCore { bus.statistics.delivered } == 4_000)
        #expect(running.withLock { $0.most } == 1)
    }

    @Test("an event nobody subscribed to is numbered but delivered to none")
    func unheardEvent() async {
        let bus = EventBus(core: core)
        let (envelope, statistics) = await onCore { (bus.publish(.requestStatus), bus.statistics) }
        #expect(envelope.sequence == 1)
        #expect(statistics.published == 1)
        #expect(statistics.delivered == 0)
    }

    static let status = DaemonStatus(
        serverVersion: "1.0", protocolVersion: 1, processID: 42, uptimeSeconds: 1.5, connectedClients: 2, openTodos: 3,
        completedTodos: 4, deletedTodos: 5, sequence: 6, databasePath: "/tmp/todo.sqlite", socketPath: "/run/todod.sock")

    /// Whether `count`, read on the core, reaches 0 within a bounded number of yields (the
    /// unsubscribe runs in the stream's termination handler, then on the core).
    func becomesZero(_ count: @escaping @Sendable () -> Int) async -> Bool {
        for _ in 0..<10_000 {
            if await onCore(count) == 0 { return true }
            await Task.yield()
        }
        return await onCore(count) == 0
    }
}
