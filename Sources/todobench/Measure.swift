import Dispatch
import Foundation

/// Nanoseconds on the monotonic clock.
@inline(__always)
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// One run of a scenario: the latency of every operation and how long the run took.
struct Sample: Sendable {
    var latencies: [UInt64] = []
    var elapsed: UInt64 = 0
    var operations: Int { latencies.count }
    var perSecond: Double { elapsed == 0 ? 0 : Double(operations) / (Double(elapsed) / 1e9) }

    func percentile(_ p: Double) -> UInt64 {
        guard !latencies.isEmpty else { return 0 }
        let sorted = latencies.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
}

/// What a table row shows: each figure is the median of that figure over the runs.
struct Summary: Sendable {
    var p50: UInt64
    var p99: UInt64
    var max: UInt64
    var perSecond: Double
    var operations: Int
    var runs: Int

    init(_ samples: [Sample]) {
        p50 = median(samples.map { $0.percentile(0.5) })
        p99 = median(samples.map { $0.percentile(0.99) })
        max = median(samples.map { $0.latencies.max() ?? 0 })
        perSecond = median(samples.map(\.perSecond))
        operations = samples.map(\.operations).reduce(0, +)
        runs = samples.count
    }

    init(p50: UInt64, p99: UInt64, max: UInt64, perSecond: Double, operations: Int, runs: Int) {
        (self.p50, self.p99, self.max, self.perSecond, self.operations, self.runs) = (p50, p99, max, perSecond, operations, runs)
    }
}

func median<T: Comparable>(_ values: [T]) -> T {
    let sorted = values.sorted()
    return sorted[(sorted.count - 1) / 2]
}

/// Runs `clients × inFlight` loops of `operation` until `duration` has passed; one sample.
func closedLoop<C: Sendable>(
    _ clients: [C], inFlight: Int = 1, duration: Double,
    _ operation: @escaping @Sendable (C) async throws -> Void
) async throws -> Sample {
    let start = now()
    let deadline = start + UInt64(duration * 1e9)
    var sample = Sample()
    try await withThrowingTaskGroup(of: [UInt64].self) { group in
        for client in clients {
            for _ in 0..<inFlight {
                group.addTask {
                    var latencies: [UInt64] = []
                    latencies.reserveCapacity(4096)
                    repeat {
                        let t = now()
                        try await operation(client)
                        latencies.append(now() - t)
                    } while now() < deadline
                    return latencies
                }
            }
        }
        for try await latencies in group { sample.latencies += latencies }
    }
    sample.elapsed = now() - start
    return sample
}

/// `850 µs`, `3.21 ms`, `1.20 s`.
func formatDuration(_ nanoseconds: UInt64) -> String {
    let n = Double(nanoseconds)
    if n < 1_000 { return "\(Int(n)) ns" }
    if n < 1_000_000 { return String(format: n < 10_000 ? "%.1f µs" : "%.0f µs", n / 1e3) }
    if n < 1_000_000_000 { return String(format: n < 10_000_000 ? "%.2f ms" : "%.1f ms", n / 1e6) }
    return String(format: "%.2f s", n / 1e9)
}

/// `31,204`, `812`, `3.4`: a tenth shown below 10, where it matters.
func formatRate(_ value: Double) -> String {
    value < 10 ? String(format: "%.1f", value) : formatCount(Int(value.rounded()))
}

/// `10,000`, `1`: a whole number with thousands separated.
func formatCount(_ value: Int) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    return formatter.string(from: NSNumber(value: value)) ?? "\(value)"
}

/// Progress on stderr, so that stdout holds only the table.
func progress(_ message: String) {
    FileHandle.standardError.write(Data("todobench: \(message)\n".utf8))
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs blocking work on a thread of its own, never on one of the few threads Swift
/// concurrency has on 2 cores.
func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
