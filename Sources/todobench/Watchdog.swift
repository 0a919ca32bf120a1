import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Kills the run, with a message naming what hung, when a phase takes too long: a daemon
/// that stops answering must not hang `make bench`.
enum Watchdog {
    private static let state = Mutex<(deadline: UInt64, what: String, daemons: [(pid: Int32, signal: Int32)], started: Bool)>((0, "", [], false))

    static func arm(_ seconds: Double, _ what: String) {
        let start = state.withLock { state in
            state.deadline = now() + UInt64(seconds * 1e9)
            state.what = what
            defer { state.started = true }
            return !state.started
        }
        if start {
            Thread {
                while true {
                    sleep(1)
                    let (expired, what, daemons) = state.withLock { (now() > $0.deadline, $0.what, $0.daemons) }
                    if expired {
                        progress("\(what) took too long; giving up")
                        for daemon in daemons { kill(daemon.pid, daemon.signal) }
                        exit(2)
                    }
                }
            }.start()
        }
    }

    /// On SIGINT (^C) or SIGTERM, stops the processes tracked and exits: redis-server never
    /// hears those signals itself (it inherits a mask that blocks them, see `RedisServer.stop`),
    /// so without this a ^C would leave it running. A handler, not a mask: Dispatch's main
    /// thread waits in sigsuspend with every signal open, and a handled signal goes back to
    /// its default in the programs todobench starts.
    static func stopOnSignals() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { received in
            // Only async-signal-safe work here: an atomic load, kill, _exit.
            for index in 0..<min(Signalled.count.load(ordering: .acquiring), Signalled.capacity) {
                let pid = Signalled.pids[index]
                if pid > 0 { kill(pid, Signalled.signals[index]) }
            }
            _exit(128 + received)
        }
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
    }

    /// A process that has exited: its pid may soon be another's, which must not be killed.
    static func untrack(pid: Int32) {
        state.withLock { state in
            state.daemons.removeAll { $0.pid == pid }
            for index in 0..<min(Signalled.count.load(ordering: .relaxed), Signalled.capacity) where Signalled.pids[index] == pid {
                Signalled.pids[index] = -1
            }
        }
    }

    /// The pids the signal handler stops, and with which signal: fixed arrays it can read without a lock.
    private enum Signalled {
        static let capacity = 64
        nonisolated(unsafe) static let pids = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        nonisolated(unsafe) static let signals = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        static let count = Atomic<Int>(0)
    }

    /// A process of ours (todod, redis-server, PostgreSQL) to stop before giving up, so that none
    /// outlives the run: with SIGKILL, or `signal` for one that must clean up as it goes
    /// (PostgreSQL's postmaster stops its backends and frees its shared memory on SIGQUIT).
    static func track(pid: Int32, signal: Int32 = SIGKILL) {
        state.withLock { state in
            state.daemons.append((pid, signal))
            // Under the lock: one writer at a time; the handler reads the count after the pid.
            let index = Signalled.count.load(ordering: .relaxed)
            if index < Signalled.capacity {
                Signalled.pids[index] = pid
                Signalled.signals[index] = signal
                Signalled.count.store(index + 1, ordering: .releasing)
            }
        }
    }
}
