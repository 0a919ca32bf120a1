import Logging
import Testing
@testable import TodoSystemd

@Suite struct JournalLogHandlerTests {
    @Test(arguments: [
        ("client", "TODOD_CLIENT"),
        ("event", "TODOD_EVENT"),
        ("peer-uid", "TODOD_PEER_UID"),
        ("error.message", "TODOD_ERROR_MESSAGE"),
        ("Already_UPPER9", "TODOD_ALREADY_UPPER9"),
        ("café ß", "TODOD_CAF___"),
        ("", "TODOD_"),
    ])
    func metadataKeyBecomesJournalField(key: String, field: String) {
        #expect(JournalLogHandler.fieldName(forMetadataKey: key) == field)
    }

    @Test func longKeysAreCutToTheJournalLimit() {
        let field = JournalLogHandler.fieldName(forMetadataKey: String(repeating: "k", count: 100))
        #expect(field.count == 64)
        #expect(field.hasPrefix("TODOD_KKK"))
    }

    @Test(arguments: [
        (Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5),
        (.warning, 4), (.error, 3), (.critical, 2),
    ])
    func levelBecomesSyslogPriority(level: Logger.Level, priority: Int) {
        #expect(JournalLogHandler.priority(for: level) == priority)
    }

    @Test func recordCarriesMessageLocationAndMetadata() {
        var handler = JournalLogHandler(
            label: "todod", logLevel: .debug,
            metadataProvider: .init { ["event": "created", "client": "provider"] })
        handler[metadataKey: "client"] = "handler"
        handler[metadataKey: "db"] = "todo.sqlite"
        let event = LogEvent(
            level: .warning, message: "slow client\ndisconnected",
            metadata: ["client": "c42"], source: nil,
            file: "TodoServers/Bus.swift", function: "send(_:)", line: 17)

        let fields = handler.fields(for: event)

        #expect(fields.contains("MESSAGE=slow client\ndisconnected"))
        #expect(fields.contains("PRIORITY=4"))
        #expect(fields.contains("SYSLOG_IDENTIFIER=todod"))
        #expect(fields.contains("CODE_FILE=TodoServers/Bus.swift"))
        #expect(fields.contains("CODE_LINE=17"))
        #expect(fields.contains("CODE_FUNC=send(_:)"))
        #expect(fields.contains("TODOD_CLIENT=c42"))  // the call's metadata wins
        #expect(fields.contains("TODOD_EVENT=created"))
        #expect(fields.contains("TODOD_DB=todo.sqlite"))
        #expect(fields.count == 9)
    }

    @Test func errorIsRecordedAsFields() {
        struct Boom: Error {}
        let event = LogEvent(
            level: .error, message: "failed", error: Boom(), metadata: nil, source: nil,
            file: "f", function: "g", line: 1)
        let fields = JournalLogHandler(label: "todod", metadataProvider: nil).fields(for: event)
        #expect(fields.contains { $0.hasPrefix("TODOD_ERROR_TYPE=") && $0.hasSuffix("Boom") })
        #expect(fields.contains("TODOD_ERROR_MESSAGE=Boom()"))
    }
}

@Suite("BackgroundLogHandler")
struct BackgroundLogHandlerTests {
    @Test("control characters in a message become visible escapes; other text is kept")
    func escaping() {
        #expect(LogText.escaped("plain, with ü and 漢字") == "plain, with ü and 漢字")
        #expect(LogText.escaped("two\nlines\r") == #"two\nlines\r"#)
        #expect(LogText.escaped("\u{1B}]0;PWNED\u{07}") == #"\u{1B}]0;PWNED\u{7}"#)
        #expect(LogText.escaped("c1 \u{9B}31m") == #"c1 \u{9B}31m"#)
    }
}
