import Foundation
import TestHarness
import Testing

/// What every other test relies on to run programs: TestHarness, on /bin/sh.
@Suite("running programs for the tests")
struct SpawnTests {
    @Test("a program gets its input, environment and directory; its output and errors come back apart, however large")
    func runToItsEnd() async throws {
        let directory = try makeTemporaryDirectory()
        // 200 KB on each pipe, more than a pipe holds: both must be read while it runs.
        let script = "cat; echo \"$GREETING\"; pwd; head -c 200000 /dev/zero | tr '\\0' o; head -c 200000 /dev/zero | tr '\\0' e >&2; exit 3"
        let result = try await runToEnd(
            "/bin/sh", ["-c", script], environment: ["GREETING": "hello", "PATH": "/usr/bin:/bin"],
            input: Array("from stdin\n".utf8), directory: directory)
        #expect(result.status == 3)
        #expect(result.stdout == "from stdin\nhello\n\(directory)\n" + String(repeating: "o", count: 200_000))
        #expect(result.stderr == String(repeating: "e", count: 200_000))
    }

    @Test("a child that does not end in time is killed with what it started, and the wait fails")
    func timeoutKills() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "sleep 600 & echo started; wait"], environment: ["PATH": "/usr/bin:/bin"])
        _ = try await child.awaitLine(containing: "started")
        await #expect(throws: HarnessFailure.self) { try await child.waitForExit(timeout: 0) }
        let exitStatus = try await child.waitForExit()
        #expect(exitStatus == 128 + SIGKILL)
        // The sleep holds the output too: it ends only once the sleep is gone with its group.
        _ = try await child.outputToItsEnd(timeout: 30)
    }

    @Test("a long-running child's lines are awaited as they come; a signal ends it with 128 + the signal")
    func longRunningChild() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "echo ready; echo oops >&2; exec sleep 600"], environment: ["PATH": "/usr/bin:/bin"])
        let line = try await child.awaitLine(containing: "ready")
        #expect(line == "ready")
        let line2 = try await child.awaitLine(containing: "oops")
        #expect(line2 == "oops")
        child.signal(SIGTERM)
        let exitStatus = try await child.waitForExit()
        #expect(exitStatus == 128 + SIGTERM)
    }
}
