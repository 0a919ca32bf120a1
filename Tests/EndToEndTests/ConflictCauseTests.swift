import Foundation
import Testing

/// A conflict's cause is a name a newer todod may add to: todoctl reads one it does not know
/// and shows it as it came, rather than failing to read every conflict (a closed enum did).
@Suite("conflict causes todoctl does not know")
struct ConflictCauseTests {
    /// A fake todod at `socketPath` that says hello and answers every request with `data` as a
    /// `responseConflicts` carrying the request's id (a script, so that socat's address syntax
    /// does not meet the JSON's commas).
    private func fakeServer(at socketPath: String, answering data: String) async throws -> ChildProcess {
        let hello = #"{"client":1,"data":{"client":1,"protocol":1,"seq":0,"server":"9.0.0"},"event":"responseHello"}"#
        let script = (socketPath as NSString).deletingLastPathComponent + "/fake-todod.sh"
        try """
            #!/bin/sh
            printf '%s\\n' '\(hello)'
            while read -r line; do
              id=$(printf '%s' "$line" | sed -n 's/.*"id":"\\([^"]*\\)".*/\\1/p')
              printf '%s\\n' '{"client":1,"data":\(data),"event":"responseConflicts","id":"'"$id"'"}'
            done

            """.write(toFile: script, atomically: false, encoding: .utf8)
        chmod(script, 0o755)
        let server = try ChildProcess(
            "/usr/bin/socat", ["-d", "-d", "UNIX-LISTEN:\(socketPath),fork,mode=600", "EXEC:\(script)"],
            environment: ["PATH": "/usr/bin:/bin"])
        _ = try await server.awaitLine(containing: "listening on")
        return server
    }

    @Test("a cause added by a newer todod is listed by its name, in text and in --json, and the known ones stay in words")
    func unknownCauseIsShownAsItCame() async throws {
        let directory = try makeTemporaryDirectory()
        let socket = directory + "/todod.sock"
        let conflict = { (n: Int, cause: String) in
            #"{"n":\#(n),"id":"71240b1c-a2b2-49fe-b35a-9f43fd38c7c7","number":5,"title":"Water the plants","field":"title","kept":"Water the plants","notTaken":"Water the roses","cause":"\#(cause)","at":"2026-11-22T02:32:21.642Z","state":"open"}"#
        }
        let server = try await fakeServer(
            at: socket, answering: #"{"conflicts":[\#(conflict(1, "mergedAcrossTheMoon")),\#(conflict(2, "changedOnBoth"))]}"#)
        defer { server.stopNow() }

        let list = try await run("todoctl", ["--socket", socket, "conflicts"])
        #expect(list.status == 0, "\(list.stderr)")
        let lines = list.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(list.stdout)")
        #expect(lines.first?.hasPrefix("1  #5 Water the plants  title: kept \"Water the plants\" (the store's), not taken \"Water the roses\"") == true, "\(list.stdout)")
        #expect(lines.first?.contains("): mergedAcrossTheMoon (") == true, "\(list.stdout)")
        #expect(lines.last?.hasSuffix("): changed on another machine meanwhile") == true, "\(list.stdout)")

        let json = try await run("todoctl", ["--socket", socket, "conflicts", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let causes = try (JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.map { $0["cause"] as? String }
        #expect(causes == ["mergedAcrossTheMoon", "changedOnBoth"], "\(json.stdout)")
    }
}
