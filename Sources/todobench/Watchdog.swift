import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Kills the run, with a message naming what hung, when a phase takes too long: a daemon
/// that stops answering must not hang `make bench`.
enum Watchdog {
    private static let state = Mutex<(deadline: UInt64, what: String, daemons: [Int32], started: Bool)>((0, "", [], false))

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
                        for pid in daemons { kill(pid, SIGKILL) }
                        exit(2)
                    }
                }
            }.start()
        }
    }

    /// On SIGINT (^C) or SIGTERM, kills the processes tracked and exits: redis-server never
    /// hears those signals itself (it inherits a mask that blocks them, see `RedisServer.stop`),
    /// so without this a ^C would leave it running. Call first thing, before threads start.
    static func stopOnSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        Thread { [signals] in
            var signals = signals
            var received: CInt = 0
            guard sigwait(&signals, &received) == 0 else { return }
            progress("stopped by signal \(received); stopping the servers it started")
            for pid in state.withLock({ $0.daemons }) { kill(pid, SIGKILL) }
            exit(128 + received)
        }.start()
    }

    /// A process of ours (todod, redis-server) to kill before giving up, so that none outlives the run.
    static func track(pid: Int32) {
        state.withLock { $0.daemons.append(pid) }
    }
}
