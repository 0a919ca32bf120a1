import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Parent of every suite that changes the process environment: `.serialized` applies to all nested
/// suites, so no two tests race on setenv/getenv (which glibc does not make thread-safe).
@Suite(.serialized) struct EnvironmentTests {}

/// Runs `body` with the given variables set (or unset for nil), then restores their previous values.
func withEnvironment<T>(_ values: [String: String?], _ body: () throws -> T) rethrows -> T {
    var saved: [String: String?] = [:]
    for (name, value) in values {
        saved[name] = getenv(name).map { String(cString: $0) }
        if let value { setenv(name, value, 1) } else { unsetenv(name) }
    }
    defer {
        for (name, value) in saved {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
    }
    return try body()
}
