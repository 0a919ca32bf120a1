#if canImport(Glibc)
import Glibc
#endif
import UnixSocket

/// The daemon holds a socket per client: it raises its soft RLIMIT_NOFILE to the hard
/// limit, as systemd recommends for programs that use epoll rather than select(). The soft
/// limit systemd gives a user service, and a login shell has, is 1024, which a thousand
/// clients would exhaust.
enum FileLimit {
    /// Raises the soft limit to the hard one; the limit now in force.
    @discardableResult
    static func raiseToHardLimit() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return UInt64(limit.rlim_cur)
    }
}

/// How the daemon asks glibc's malloc to keep its memory small: a long list's buffers
/// (megabytes) are mapped and given back to the system as soon as they are freed, instead
/// of staying in the heap after the first one (glibc raises its mapping threshold to the
/// largest block freed so far, unless one is set); and what loading the database left
/// behind is given back once it is loaded. Below that size, up to `keptAtTop` of free heap
/// is kept for the next answer: glibc's default (128 kB) gave back the buffer of every list
/// of 300 todos (140 kB) as soon as it was sent, and the next list faulted its pages in
/// again (a seventh of the daemon's time answering lists, perf `-e cpu-clock`).
enum MemoryTuning {
    /// Blocks from this size up are mapped on their own and unmapped when freed.
    static let mappingThreshold: Int32 = 256 << 10
    /// Free heap at the top is given back to the system only past this much.
    static let keptAtTop: Int32 = 1 << 20

    static func keepMemorySmall() {
        // mallopt and malloc_trim are glibc's (malloc.h, which Swift's Glibc module leaves out).
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let setMappingThreshold: Int32 = -3  // M_MMAP_THRESHOLD
        let setTrimThreshold: Int32 = -1  // M_TRIM_THRESHOLD
        if let mallopt = GlibcFunction.named("mallopt", as: Mallopt.self) {
            _ = mallopt(setMappingThreshold, mappingThreshold)
            _ = mallopt(setTrimThreshold, keptAtTop)
        }
    }

    /// Gives free heap pages back to the system.
    static func trim() {
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let trim = GlibcFunction.named("malloc_trim", as: MallocTrim.self) { _ = trim(0) }
    }
}
