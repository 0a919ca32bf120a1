import Foundation

struct Options {
    var quick = false
    var runs = 5
    var duration = 2.0
    var scenarios: Set<Int> = [1, 2, 3, 4, 5, 6]
    var parent = "/var/tmp"
    var binaries: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (executable as NSString).deletingLastPathComponent
    }()
    var keep = false
    var help = false

    static let usage = """
        usage: todobench [--quick] [--runs N] [--duration SECONDS] [--only 1,2,…] [--dir PATH] [--bin DIR] [--keep]

          --quick          short runs (a smoke test; the figures are rough)
          --runs N         runs per scenario; each figure is the median over them (default 5)
          --duration S     seconds per run of the round-trip and write scenarios (default 2)
          --only LIST      the scenarios to run, e.g. 1,3 (default all: 1 round trips, 2 writes,
                           3 fan-out, 4 the bus, 5 whole processes, 6 memory and idle CPU)
          --dir PATH       where the temporary database and socket go (default /var/tmp, on disk:
                           durable-write figures depend on this file system)
          --bin DIR        where todod and todoctl are (default: beside todobench)
          --keep           keep the temporary directory (the daemons' logs are there)
        """

    init<S: Sequence<String>>(_ arguments: S) throws {
        var iterator = arguments.makeIterator()
        func value(_ name: String) throws -> String {
            guard let value = iterator.next() else { throw BenchError("\(name) needs a value") }
            return value
        }
        var runsGiven = false
        var durationGiven = false
        while let argument = iterator.next() {
            switch argument {
            case "--quick": quick = true
            case "--runs":
                guard let n = Int(try value(argument)), n > 0 else { throw BenchError("--runs takes a positive number") }
                runs = n
                runsGiven = true
            case "--duration":
                guard let d = Double(try value(argument)), d > 0 else { throw BenchError("--duration takes seconds") }
                duration = d
                durationGiven = true
            case "--only":
                scenarios = Set(try value(argument).split(separator: ",").compactMap { Int($0) })
                guard !scenarios.isEmpty, scenarios.allSatisfy({ (1...6).contains($0) }) else { throw BenchError("--only takes numbers 1 to 6") }
            case "--dir": parent = try value(argument)
            case "--bin": binaries = try value(argument)
            case "--keep": keep = true
            case "--help", "-h": help = true
            default: throw BenchError("unknown argument \(argument)")
            }
        }
        if quick {
            if !runsGiven { runs = 2 }
            if !durationGiven { duration = 0.5 }
        }
    }
}
