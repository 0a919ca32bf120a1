import ArgumentParser
import Foundation

/// What `todobench` runs and where; `make bench` passes `BENCH_FLAGS` here. Parsed only
/// (`Bench.main` runs the scenarios), so that the usage line names todobench.
struct Options: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todobench",
        abstract: "Starts its own todod on a temporary socket and database, runs the benchmark scenarios beside Redis, the disk, Taskwarrior and SQLite, and prints a table (docs/PERFORMANCE.md).")

    @Flag(help: "Short runs: a smoke test, the figures are rough.")
    var quick = false

    @Option(name: .customLong("runs"), help: "Runs per scenario; each figure is the median over them (default 5, 2 with --quick).")
    var runsGiven: Int?

    @Option(
        name: .customLong("duration"),
        help: ArgumentHelp("Seconds per run of the round-trip and write scenarios (default 2, 0.5 with --quick).", valueName: "seconds"))
    var durationGiven: Double?

    @Option(
        name: .customLong("only"),
        help: ArgumentHelp(
            "The scenarios to run, e.g. 1,3 (default all: 1 round trips, beside Redis; 2 writes, beside the disk; 3 fan-out; 4 the bus; 5 whole processes, beside Taskwarrior; 6 memory and idle CPU; 7 two daemons on one PostgreSQL, beside SQLite).",
            valueName: "list"),
        transform: Options.scenarioList)
    var scenarios: Set<Int> = Set(Options.allScenarios)

    @Option(
        name: .customLong("dir"),
        help: ArgumentHelp(
            "Where the temporary database and socket go: on disk, since durable-write figures depend on the file system.",
            valueName: "path"))
    var parent = "/var/tmp"

    @Option(name: .customLong("bin"), help: ArgumentHelp("Where todod and todoctl are: by default beside todobench.", valueName: "dir"))
    var binaries: String = Options.besideThisProgram

    @Flag(help: "Exit 1 when a figure misses its goal, after printing the table (`make bench-check`).")
    var check = false

    @Flag(help: "Keep the temporary directories (the daemons' and PostgreSQL's logs are there).")
    var keep = false

    static let allScenarios = 1...7

    var runs: Int { runsGiven ?? (quick ? 2 : 5) }
    var duration: Double { durationGiven ?? (quick ? 0.5 : 2) }

    func validate() throws {
        if let runsGiven, runsGiven < 1 { throw ValidationError("--runs takes a positive number") }
        if let durationGiven, !(durationGiven.isFinite && durationGiven > 0) {
            throw ValidationError("--duration takes a positive number of seconds, such as 2 or 0.5")
        }
    }

    private static func scenarioList(_ text: String) throws -> Set<Int> {
        let numbers = text.split(separator: ",").map { Int($0) }
        guard !numbers.isEmpty, numbers.allSatisfy({ $0.map(allScenarios.contains) == true }) else {
            throw ValidationError("--only takes scenario numbers from 1 to \(allScenarios.upperBound), such as 1,3")
        }
        return Set(numbers.compactMap { $0 })
    }

    private static var besideThisProgram: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (executable as NSString).deletingLastPathComponent
    }
}
