import Foundation
import Testing
import TodoClock

@Suite("The test clock")
struct ClockSourceTests {
    @Test("an empty TODOD_TEST_NOW is the real clock")
    func emptyIsSystem() throws {
        #expect(try WallClock.Source("") == .system)
        let before = Date()
        #expect(WallClock.Source.system.now() >= before)
    }

    @Test("an instant freezes the clock at it")
    func instantIsFixed() throws {
        let source = try WallClock.Source("2026-11-23T09:00:00Z")
        #expect(source.now() == Date(timeIntervalSince1970: 1_795_424_400))
        #expect(try WallClock.Source("2026-11-23T09:00:00.250Z").now().timeIntervalSince1970 == 1_795_424_400.25)
    }

    @Test("@FILE reads the instant from the file at every call, so a test can move time")
    func fileMoves() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("clock-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "2026-11-23T23:59:59Z\n".write(toFile: path, atomically: true, encoding: .utf8)
        let source = try WallClock.Source("@" + path)
        #expect(source.now() == Date(timeIntervalSince1970: 1_795_478_399))
        try "2026-11-24T00:00:01Z".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(source.now() == Date(timeIntervalSince1970: 1_795_478_401))
    }

    @Test("a value that is no instant is refused with what to write instead")
    func badValueRefused() {
        #expect(throws: ClockError.self) { try WallClock.Source("monday") }
        do {
            _ = try WallClock.Source("@/nonexistent/clock")
            Issue.record("a missing file was accepted")
        } catch {
            #expect(error.message.contains("cannot read /nonexistent/clock"))
        }
    }
}
