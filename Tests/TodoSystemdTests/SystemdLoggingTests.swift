import Logging
import Testing
import TodoSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The environment is given, not set with setenv(3): other tests of this process read theirs meanwhile.
@Suite struct SystemdLoggingTests {
    /// stderr's real "DEVICE:INODE", what systemd would put in $JOURNAL_STREAM.
    func stderrIdentity() throws -> String {
        var info = stat()
        try #require(fstat(STDERR_FILENO, &info) == 0)
        return "\(info.st_dev):\(info.st_ino)"
    }

    @Test func notJournalWhenUnset() {
        #expect(!SystemdLogging.stderrIsJournal(in: SystemdEnvironment()))
        let handler = SystemdLogging.makeHandler(label: "todod", level: .debug, environment: SystemdEnvironment())
        #expect((handler as? BackgroundLogHandler)?.wrapped is StreamLogHandler)
    }

    @Test func notJournalWhenMismatched() throws {
        let identity = try stderrIdentity()
        for value in ["1:1", "\(identity)1", "garbage", "", identity + ":0"] {
            #expect(!SystemdLogging.stderrIsJournal(in: SystemdEnvironment(["JOURNAL_STREAM": value])), "JOURNAL_STREAM=\(value)")
        }
    }

    @Test func journalWhenItIsStderr() throws {
        let environment = SystemdEnvironment(["JOURNAL_STREAM": try stderrIdentity()])
        #expect(SystemdLogging.stderrIsJournal(in: environment))
        let handler = SystemdLogging.makeHandler(label: "todod", level: .notice, environment: environment)
        let journal = try #require((handler as? BackgroundLogHandler)?.wrapped as? JournalLogHandler)
        #expect(journal.label == "todod")
        #expect(journal.logLevel == .notice)
    }

    @Test func stderrHandlerGetsTheLevel() {
        #expect(SystemdLogging.makeHandler(label: "todod", level: .debug, environment: SystemdEnvironment()).logLevel == .debug)
    }
}
