import Synchronization
import TodoEvents

/// Write requests waiting for the writer. The writer takes everything that is waiting
/// at once, which is what makes group commit: while one transaction commits, the next
/// batch gathers here.
final class WriteQueue: Sendable {
    private struct State {
        var waiting: [Envelope] = []
        var writer: CheckedContinuation<[Envelope]?, Never>?
        var finished = false
    }

    private let state = Mutex(State())

    /// Queues a write; false once the queue is finished (the write will not be committed).
    @discardableResult
    func append(_ envelope: Envelope) -> Bool {
        let (accepted, writer) = state.withLock { state -> (Bool, CheckedContinuation<[Envelope]?, Never>?) in
            guard !state.finished else { return (false, nil) }
            guard let writer = state.writer else {
                state.waiting.append(envelope)
                return (true, nil)
            }
            state.writer = nil
            return (true, writer)
        }
        writer?.resume(returning: [envelope])
        return accepted
    }

    /// No more requests will come; the writer drains what is waiting, then stops.
    func finish() {
        let writer = state.withLock { state -> CheckedContinuation<[Envelope]?, Never>? in
            state.finished = true
            defer { state.writer = nil }
            return state.waiting.isEmpty ? state.writer : nil
        }
        writer?.resume(returning: nil)
    }

    /// Everything waiting, once there is something; nil when finished and drained.
    func nextBatch() async -> [Envelope]? {
        await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> [Envelope]?? in
                if !state.waiting.isEmpty {
                    defer { state.waiting.removeAll(keepingCapacity: true) }
                    return .some(state.waiting)
                }
                if state.finished { return .some(nil) }
                state.writer = continuation
                return .none
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }
}
