import Testing
import TestHarness
import TodoSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The environment is given, not set with setenv(3): other tests of this process read theirs meanwhile.
@Suite struct SystemdNotifierTests {
    @Test func sendsEachStateToTheNotifySocket() throws {
        let socket = try NotifySocket()
        let notifier = SystemdNotifier(environment: SystemdEnvironment(["NOTIFY_SOCKET": socket.path]))
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

    @Test func sendsToASocketInTheAbstractNamespace() throws {
        let socket = try NotifySocket(abstract: true)
        let notifier = SystemdNotifier(environment: SystemdEnvironment(["NOTIFY_SOCKET": socket.path]))
        #expect(notifier.watchdog())
        #expect(socket.receive() == "WATCHDOG=1")
    }

    @Test func statusCannotInjectAssignments() throws {
        let socket = try NotifySocket()
        SystemdNotifier(environment: SystemdEnvironment(["NOTIFY_SOCKET": socket.path])).status("bad\nREADY=1")
        #expect(socket.receive() == "STATUS=bad READY=1")
    }

    @Test func oneNotifierSendsManyTimes() throws {
        let socket = try NotifySocket()
        let notifier = SystemdNotifier(environment: SystemdEnvironment(["NOTIFY_SOCKET": socket.path]))
        notifier.watchdog()
        notifier.watchdog()
        #expect(socket.receive() == "WATCHDOG=1")
        #expect(socket.receive() == "WATCHDOG=1")
    }

    @Test func withoutSystemdEverythingIsANoOp() {
        let notifier = SystemdNotifier(environment: SystemdEnvironment())
        #expect(!notifier.isSupervised)
        #expect(!notifier.ready(status: "ready"))
        #expect(!notifier.status("status"))
        #expect(!notifier.watchdog())
        #expect(!notifier.stopping(status: "stopping"))
        #expect(notifier.watchdogInterval == nil)
    }

    @Test func watchdogIntervalIsHalfTheDeadline() {
        let notifier = SystemdNotifier(environment: SystemdEnvironment(["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "\(getpid())"]))
        #expect(notifier.watchdogInterval == .seconds(1))
        // Asked twice: the same answer.
        #expect(notifier.watchdogInterval == .seconds(1))
        #expect(SystemdNotifier(environment: SystemdEnvironment(["WATCHDOG_USEC": "2000000"])).watchdogInterval == .seconds(1))
    }

    @Test func watchdogMeantForAnotherProcessIsIgnored() {
        let environment = SystemdEnvironment(["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "\(getpid() + 1)"])
        #expect(SystemdNotifier(environment: environment).watchdogInterval == nil)
    }

    @Test func watchdogIntervalIsNilWhenUnsetOrMalformed() {
        for usec in [nil, "", "soon", "0"] as [String?] {
            let environment = SystemdEnvironment(usec.map { ["WATCHDOG_USEC": $0] } ?? [:])
            #expect(SystemdNotifier(environment: environment).watchdogInterval == nil, "WATCHDOG_USEC=\(usec ?? "unset")")
        }
    }
}
