import Foundation
import TestHarness

/// Runs blocking work (waiting for a process, reading a socket) on a thread of its own,
/// so that it never holds one of the few threads Swift concurrency has on 2 cores.
func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await TestHarness.blocking(work)
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A private temporary directory, short enough for a socket path (TestHarness's, named here for
/// every test file).
func makeTemporaryDirectory() throws -> String {
    try TestHarness.makeTemporaryDirectory()
}

/// Where `swift build` put todod and todoctl: beside the test bundle.
let binaryDirectory: String = {
    if let directory = ProcessInfo.processInfo.environment["TODOD_BIN_DIR"] { return directory }
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: url.appendingPathComponent("todod").path), url.path != "/" {
        url.deleteLastPathComponent()
    }
    return url.path
}()
