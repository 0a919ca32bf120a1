#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A glibc function that Swift's Glibc module does not show, looked up by name: the GNU
/// extensions declared only under `_GNU_SOURCE` (posix_spawn's `addclosefrom_np` and
/// `addchdir_np`, which the test harness starts programs with) and malloc's tuning (`mallopt`,
/// `malloc_trim`, which todod uses to give a long list's buffers back).
///
/// The one place the project turns a symbol into a function pointer, which is unchecked:
/// `F` must be the C function's exact type, `@convention(c)`. The names are constants in the
/// code, never input. Nil when this C library has no such function (older glibc, musl).
public enum GlibcFunction {
    public static func named<F>(_ name: String, as type: F.Type) -> F? {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }  // RTLD_DEFAULT
        return unsafeBitCast(symbol, to: type)
        #else
        return nil
        #endif
    }
}
