import Dispatch
import Foundation
import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// For the watchdog's test only: with `TODOD_TEST_STALL_CORE_ON_SIGUSR2=1` in its
/// environment, todod wedges its core event loop for good when it gets SIGUSR2, as a
/// handler that never returns would. The test then sees the watchdog go unfed. Compiled
/// into debug builds only (the tests run those): the daemon that ships has no such door.
enum CoreStallHook {
    static let variable = "TODOD_TEST_STALL_CORE_ON_SIGUSR2"
    /// Logged from the core itself as it wedges: the test waits for this event, not for a
    /// client's hello to be late, which on a loaded machine is no proof of a wedged core.
    static let wedged = "the core is wedged for the watchdog's test"

    /// Installs the hook when the environment asks for it, for the process's life: the
    /// signal source's handler holds the source itself, as a signal's disposition lasts, so
    /// no owner has to keep it.
    static func install(core: any EventLoop, logger: Logger) {
        #if DEBUG
        guard ProcessInfo.processInfo.environment[variable] == "1" else { return }
        signal(SIGUSR2, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGUSR2, queue: .global())
        source.setEventHandler {
            _ = source  // held by its own handler: see above
            core.execute {
                logger.notice("\(wedged)")
                while true { sleep(3600) }
            }
        }
        source.resume()
        #endif
    }
}
