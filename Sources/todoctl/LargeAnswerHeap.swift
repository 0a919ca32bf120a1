import CMalloc

#if canImport(Glibc)
import Glibc
#endif

/// The heap a long answer is read into, in 2 MiB pages.
///
/// `todoctl list` of 10,000 todos touches about 14 MiB of heap (the answer's bytes, their
/// parse, the todos, the table): 3,600 page faults of 4 KiB, each a trip into the kernel to
/// zero a page, 10 of its 30 ms of system time against 5 with glibc's own switch for this
/// (`GLIBC_TUNABLES=glibc.malloc.hugetlb=1`, hyperfine, same run), which only the environment
/// can set. So the same is done here, before the request: the heap grows in one step, big
/// blocks come from it rather than from a mapping each, nothing is given back before the
/// process ends, and the kernel is told the heap may be backed by huge pages (it falls back
/// to small ones when it has none). A short answer pays one huge page's zeroing, ~0.1 ms.
///
/// The main thread's heap only (the quick commands' thread); a one-shot process's, never
/// the daemon's, which keeps its memory small (`MemoryTuning`).
enum LargeAnswerHeap {
    private static let growth: Int32 = 64 << 20
    private static let hugePage = 2 << 20

    static func prepare() {
        #if canImport(Glibc)
        // (32 MiB is the most glibc takes as a mapping threshold.)
        guard mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1, mallopt(M_TOP_PAD, growth) == 1, mallopt(M_TRIM_THRESHOLD, 2 * growth) == 1,
            let start = sbrk(0)
        else { return }
        // The heap grows by `growth` and this block here, untouched. (Asking its size keeps the
        // compiler from taking out a malloc whose block nobody uses, as it otherwise does.)
        let block = malloc(1 << 20)
        _ = malloc_usable_size(block)
        free(block)
        guard let end = sbrk(0), end > start else { return }
        let from = (UInt(bitPattern: start) + UInt(hugePage) - 1) & ~UInt(hugePage - 1)
        let to = UInt(bitPattern: end) & ~UInt(hugePage - 1)
        // madvise(2) takes an address, and the heap's pages are no Swift value a span could
        // name: the pointer is made from the aligned address here, the one place, and only
        // handed to the kernel, never read or written through.
        guard to > from, let region = UnsafeMutableRawPointer(bitPattern: from) else { return }
        _ = madvise(region, Int(to - from), MADV_HUGEPAGE)
        #endif
    }
}
