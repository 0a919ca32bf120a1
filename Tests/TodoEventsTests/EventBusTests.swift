import EventTestSupport
import Foundation
import Synchronization
import Testing
import TodoEvents
import TodoModel

@Suite("EventBus")
struct EventBusTests {
    @Test("a subscriber receives only the kinds it asked for, in publish order")
    func onlySubscribedKinds() async {
        let bus = EventBus()
        let stream = bus.subscribe(to: [.requestCompleteTodo, .requestDeleteTodo])
        bus.publish(.requestCompleteTodo(.number(1)))
        bus.publish(.requestStatus)
        bus.publish(.requestDeleteTodo(.number(2)))
        bus.publish(.requestReopenTodo(.number(3)))
        bus.publish(.requestCompleteTodo(.number(4)))
        let received = await collect(3, from: stream)
        #expect(received.map(\.view) == [.requestCompleteTodo(.number(1)), .requestDeleteTodo(.number(2)), .requestCompleteTodo(.number(4))])
        #expect(received.map(\.sequence) == [1, 3, 5])
    }

    @Test("publish numbers every event, strictly increasing, and keeps its correlation")
    func sequenceNumbers() async {
        let bus = EventBus()
        let stream = bus.subscribe(to: [.requestStatus])
        let correlation = Correlation(client: 7, request: "r1")
        var published: [Envelope] = []
        for index in 0..<20 {
            published.append(bus.publish(.requestStatus, correlation: index == 3 ? correlation : nil))
        }
        #expect(published.map(\.sequence) == Array(1...20))
        #expect(bus.lastSequence == 20)
        let received = await collect(20, from: stream)
        #expect(received == published)
        #expect(received[3].correlation == correlation)
        #expect(received[4].correlation == nil)
    }

    @Test("every subscriber of a kind receives it; a late subscriber sees only later events")
    func severalSubscribers() async {
        let bus = EventBus()
        let first = bus.subscribe(to: [.requestStatus])
        let second = bus.subscribe(to: [.requestStatus, .requestNewTodo])
        bus.publish(.requestStatus)
        let late = bus.subscribe(to: [.requestStatus])
        bus.publish(.requestNewTodo(NewTodo(title: "x")))
        bus.publish(.requestStatus)
        #expect(await collect(2, from: first).map(\.sequence) == [1, 3])
        #expect(await collect(3, from: second).map(\.sequence) == [1, 2, 3])
        #expect(await collect(1, from: late).map(\.sequence) == [3])
        #expect(bus.subscriberCount(for: .requestStatus) == 3)
        #expect(bus.subscriberCount(for: .requestNewTodo) == 1)
        #expect(bus.subscriberCount(for: .model(.responseTodo)) == 0)
    }

    @Test("events published from many tasks at once reach every subscriber in increasing order")
    func concurrentPublishers() async {
        let bus = EventBus()
        let tasks = 20
        let perTask = 50
        let subscribers = (0..<3).map { _ in bus.subscribe(to: [.requestToggleComplete, .requestStatus]) }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in 0..<perTask {
                        bus.publish(index.isMultiple(of: 2) ? .requestToggleComplete(.number(task + 1)) : .requestStatus,
                                    correlation: Correlation(client: UInt64(task), request: "\(index)"))
                    }
                }
            }
        }
        #expect(bus.lastSequence == UInt64(tasks * perTask))
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
        let bus = EventBus()
        let stream = bus.subscribe(to: [.requestStatus, .requestNewTodo])
        let started = bus.subscribe(to: [.responseStatus])
        let consumer = Task {
            var count = 0
            for await envelope in stream {
                count += 1
                if envelope.view == .requestStatus { bus.publish(.responseStatus(Self.status)) }
            }
            return count
        }
        bus.publish(.requestStatus)
        // The consumer has taken the first event: it is iterating.
        #expect(await first(from: started) != nil)
        #expect(bus.subscriberCount(for: .requestStatus) == 1)
        consumer.cancel()
        #expect(await consumer.value == 1)
        #expect(await Self.becomesZero { bus.subscriberCount(for: .requestStatus) + bus.subscriberCount(for: .requestNewTodo) })
        let before = bus.statistics.delivered
        bus.publish(.requestStatus)
        #expect(bus.statistics.delivered == before)
    }

    @Test("dropping a stream that was never iterated ends the subscription")
    func droppingUnsubscribes() async {
        let bus = EventBus()
        do {
            let stream = bus.subscribe(to: [.requestStatus])
            #expect(bus.subscriberCount(for: .requestStatus) == 1)
            _ = stream
        }
        #expect(await Self.becomesZero { bus.subscriberCount(for: .requestStatus) })
    }

    @Test("dispatch cost grows with interested subscribers only")
    func dispatchCost() async {
        let bus = EventBus()
        let uninterested = (0..<1_000).map { _ in bus.subscribe(to: [.model(.responseTodos)]) }
        let interested = bus.subscribe(to: [.model(.requestReadTodos)])
        #expect(bus.subscriberCount(for: .model(.responseTodos)) == 1_000)
        let before = bus.statistics
        let events = 500
        for _ in 0..<events { bus.publish(.requestReadTodos(.list(TodoFilter()))) }
        let after = bus.statistics
        #expect(after.published - before.published == UInt64(events))
        #expect(after.delivered - before.delivered == UInt64(events))
        #expect(await collect(events, from: interested).count == events)
        // A publish to the crowd reaches all of it, and is counted as such.
        bus.publish(.responseTodos(TodoQueryResult(query: .list(TodoFilter()), todos: [], asOf: 0)))
        #expect(bus.statistics.delivered - after.delivered == 1_000)
        #expect(uninterested.count == 1_000)
    }

    @Test("publish returns after the handlers of its kind have run, on the publisher's thread")
    func synchronousDispatch() {
        let bus = EventBus()
        let seen = Mutex<[UInt64]>([])
        bus.subscribe(to: [.requestStatus]) { envelope in seen.withLock { $0.append(envelope.sequence) } }
        let envelope = bus.publish(.requestStatus)
        #expect(seen.withLock { $0 } == [envelope.sequence])
    }

    @Test("an event published by a handler is dispatched after the current one, so every subscriber sees bus order")
    func handlerPublishesAreQueued() {
        let bus = EventBus()
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
        bus.publish(.requestStatus)
        #expect(log.withLock { $0 } == ["answerer 1", "answerer returned", "observer 1", "observer 2"])
    }

    @Test("an unsubscribed handler is not called again")
    func unsubscribeStopsHandler() {
        let bus = EventBus()
        let count = Mutex(0)
        let subscription = bus.subscribe(to: [.requestStatus]) { _ in count.withLock { $0 += 1 } }
        bus.publish(.requestStatus)
        bus.unsubscribe(subscription)
        bus.publish(.requestStatus)
        #expect(count.withLock { $0 } == 1)
        #expect(bus.subscriberCount(for: .requestStatus) == 0)
    }

    @Test("handlers never run two at a time, whatever the number of publishing threads")
    func handlersAreSerial() async {
        let bus = EventBus()
        let running = Mutex((now: 0, most: 0))
        bus.subscribe(to: [.requestStatus]) { _ in
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            for _ in 0..<200 { _ = bus.lastSequence }
            running.withLock { $0.now -= 1 }
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<500 { bus.publish(.requestStatus) } }
            }
        }
        #expect(running.withLock { $0.most } == 1)
        #expect(bus.statistics.delivered == 4_000)
    }

    @Test("an event nobody subscribed to is numbered but delivered to none")
    func unheardEvent() {
        let bus = EventBus()
        let envelope = bus.publish(.requestStatus)
        #expect(envelope.sequence == 1)
        #expect(bus.statistics.published == 1)
        #expect(bus.statistics.delivered == 0)
    }

    static let status = DaemonStatus(
        serverVersion: "1.0", protocolVersion: 1, processID: 42, uptimeSeconds: 1.5, connectedClients: 2, openTodos: 3,
        completedTodos: 4, deletedTodos: 5, sequence: 6, databasePath: "/tmp/todo.sqlite", socketPath: "/run/todod.sock")

    /// Whether `count` reaches 0 within a bounded number of yields (the unsubscribe runs
    /// in the stream's termination handler).
    static func becomesZero(_ count: () -> Int) async -> Bool {
        for _ in 0..<10_000 {
            if count() == 0 { return true }
            await Task.yield()
        }
        return count() == 0
    }
}
