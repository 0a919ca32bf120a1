import Testing
import TodoSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension EnvironmentTests {
    @Suite struct SystemdNotifierTests {
        @Test func sendsEachStateToTheNotifySocket() throws {
            let socket = try NotifySocket()
            withEnvironment(["NOTIFY_SOCKET": socket.path]) {
                let notifier = SystemdNotifier()
                #expect(notifier.isSupervised)

                #expect(notifier.ready(status: "Listening on /run/user/1000/todod.sock"))
                #expect(socket.receive() == "READY=1\nSTATUS=Listening on /run/user/1000/todod.sock")

                #expect(notifier.status("3 clients"))
                #expect(socket.receive() == "STATUS=3 clients")

                #expect(notifier.watchdog())
                #expect(socket.receive() == "WATCHDOG=1")

                #expect(notifier.stopping(status: "Finishing 2 writes"))
                #expect(socket.receive() == "STOPPING=1\nSTATUS=Finishing 2 writes")
            }
        }

        @Test func statusCannotInjectAssignments() throws {
            let socket = try NotifySocket()
            withEnvironment(["NOTIFY_SOCKET": socket.path]) {
                SystemdNotifier().status("bad\nREADY=1")
                #expect(socket.receive() == "STATUS=bad READY=1")
            }
        }

        @Test func environmentIsKeptForLaterCalls() throws {
            let socket = try NotifySocket()
            withEnvironment(["NOTIFY_SOCKET": socket.path]) {
                SystemdNotifier().watchdog()
                #expect(getenv("NOTIFY_SOCKET") != nil)
                SystemdNotifier().watchdog()
                #expect(socket.receive() == "WATCHDOG=1")
                #expect(socket.receive() == "WATCHDOG=1")
            }
        }

        @Test func withoutSystemdEverythingIsANoOp() {
            withEnvironment(["NOTIFY_SOCKET": nil, "WATCHDOG_USEC": nil, "WATCHDOG_PID": nil]) {
                let notifier = SystemdNotifier()
                #expect(!notifier.isSupervised)
                #expect(!notifier.ready(status: "ready"))
                #expect(!notifier.status("status"))
                #expect(!notifier.watchdog())
                #expect(!notifier.stopping(status: "stopping"))
                #expect(notifier.watchdogInterval == nil)
            }
        }

        @Test func watchdogIntervalIsHalfTheDeadline() {
            withEnvironment(["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "\(getpid())"]) {
                #expect(SystemdNotifier().watchdogInterval == .seconds(1))
                // Asked twice: the environment must not have been consumed by the first call.
                #expect(SystemdNotifier().watchdogInterval == .seconds(1))
            }
        }

        @Test func watchdogMeantForAnotherProcessIsIgnored() {
            withEnvironment(["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "\(getpid() + 1)"]) {
                #expect(SystemdNotifier().watchdogInterval == nil)
            }
        }

        @Test func watchdogIntervalIsNilWhenUnset() {
            withEnvironment(["WATCHDOG_USEC": nil, "WATCHDOG_PID": nil]) {
                #expect(SystemdNotifier().watchdogInterval == nil)
            }
        }
    }
}
