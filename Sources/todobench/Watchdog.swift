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

    static func track(_ daemon: BenchDaemon) {
        let pid = daemon.pid
        state.withLock { $0.daemons.append(pid) }
    }
}
