import Foundation
import TestHarness

/// The package's root directory (where the Makefile is): this file is Tests/EndToEndTests/ in it.
let packageRoot: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// The scratch directory of the build under test (`.build`, or what `--scratch-path` said):
/// the binaries are in SCRATCH/TRIPLE/debug.
let scratchDirectory: String = URL(fileURLWithPath: binaryDirectory)
    .deletingLastPathComponent().deletingLastPathComponent().path

/// `make install` of the todod and todoctl under test into `prefix`, as a user installs them
/// (units, man pages, completions), without a release build (`BINARIES=`).
func makeInstall(prefix: String) async throws -> CommandResult {
    try await run(
        "/usr/bin/make",
        ["-C", packageRoot, "--no-print-directory", "install", "PREFIX=\(prefix)",
         "BINARIES=\(binaryDirectory)", "SCRATCH=\(scratchDirectory)"],
        timeout: 900)
}

/// `program` with exactly `environment` and nothing inherited (`env -i`), as a fresh login would
/// run it; `PATH` is `/usr/bin:/bin` unless the environment says otherwise.
func runClean(_ program: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 30) async throws -> CommandResult {
    let variables = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
    return try await run("/usr/bin/env", ["-i"] + variables.map { "\($0)=\($1)" }.sorted() + [program] + arguments, timeout: timeout)
}

/// Runs a program to its end right here (for setup and cleanup, inside `blocking`): its status and
/// its output, then its errors. Killed (and a failure) after 5 minutes.
@discardableResult
func runNow(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let result = try runToEndNow(program, arguments, environment: inheritedEnvironment(), timeout: 300)
    return (result.status, result.stdout + result.stderr)
}
