#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One environment variable, read with `getenv`.
///
/// Why not `ProcessInfo.processInfo.environment`: it copies every variable of the process
/// into a dictionary of Strings to answer one lookup, which perf measured at 7% of the CPU
/// of `todoctl show N` (docs/PERFORMANCE.md, "Start-up"). A lookup here copies one value.
public enum Environment {
    /// The variable's value, nil when it is not set.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
