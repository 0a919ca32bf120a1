import Foundation
import TestHarness

/// The outcome of running a program to its end (TestHarness's, named here for every test file).
typealias CommandResult = TestHarness.CommandResult

/// Runs `todoctl` (or any program) with arguments, the test's environment with `environment` on
/// top (and NO_COLOR) and optional input, and waits for it to exit; killed after `timeout` so a
/// hang fails the test. 120 s, not less: beside a loaded suite on 2 cores, a debug `todoctl
/// import` of 1,001 todos (2 s alone) and a `log --json` of big todos ran past 30 s.
func run(
    _ program: String, _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
    timeout: TimeInterval = 120
) async throws -> CommandResult {
    try await runToEnd(
        program.hasPrefix("/") ? program : binaryDirectory + "/" + program, arguments,
        environment: inheritedEnvironment(["NO_COLOR": "1"].merging(environment) { $1 }),
        input: input.map { Array($0.utf8) }, timeout: timeout)
}
