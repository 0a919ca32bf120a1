import Logging
import Testing
import TodoSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension EnvironmentTests {
    @Suite struct SystemdLoggingTests {
        /// stderr's real "DEVICE:INODE", what systemd would put in $JOURNAL_STREAM.
        func stderrIdentity() throws -> String {
            var info = stat()
            try #require(fstat(STDERR_FILENO, &info) == 0)
            return "\(info.st_dev):\(info.st_ino)"
        }

        @Test func notJournalWhenUnset() {
            withEnvironment(["JOURNAL_STREAM": nil]) {
                #expect(!SystemdLogging.stderrIsJournal)
                #expect((SystemdLogging.makeHandler(label: "todod", level: .debug) as? BackgroundLogHandler)?.wrapped is StreamLogHandler)
            }
        }

        @Test func notJournalWhenMismatched() throws {
            let identity = try stderrIdentity()
            for value in ["1:1", "\(identity)1", "garbage", "", identity + ":0"] {
                withEnvironment(["JOURNAL_STREAM": value]) {
                    #expect(!SystemdLogging.stderrIsJournal, "JOURNAL_STREAM=\(value)")
                }
            }
        }

        @Test func journalWhenItIsStderr() throws {
            try withEnvironment(["JOURNAL_STREAM": try stderrIdentity()]) {
                #expect(SystemdLogging.stderrIsJournal)
                let handler = SystemdLogging.makeHandler(label: "todod", level: .notice)
                let journal = try #require((handler as? BackgroundLogHandler)?.wrapped as? JournalLogHandler)
                #expect(journal.label == "todod")
                #expect(journal.logLevel == .notice)
            }
        }

        @Test func stderrHandlerGetsTheLevel() {
            withEnvironment(["JOURNAL_STREAM": nil]) {
                #expect(SystemdLogging.makeHandler(label: "todod", level: .debug).logLevel == .debug)
            }
        }
    }
}
