import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real small file system (tmpfs, mode 0700, root's) mounted on a new directory, for
/// what a full disk does; detached when the value goes. Needs root.
final class FullDisk: Sendable {
    let path: String

    init(size: String) async throws {
        path = try makeTemporaryDirectory()
        let mounted = try await run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", path])
        guard mounted.status == 0 else { throw TestFailure("mount tmpfs on \(path): \(mounted.stderr)") }
    }

    /// Fills what is left with a file of zeros (dd stops at ENOSPC); returns its path.
    @discardableResult
    func fill() async throws -> String {
        let filler = path + "/filler"
        let filled = try await run("/usr/bin/dd", ["if=/dev/zero", "of=\(filler)", "bs=4096"], timeout: 60)
        guard filled.stderr.contains("No space left on device") else { throw TestFailure("dd did not fill \(path): \(filled.stderr)") }
        return filler
    }

    deinit {
        // Lazily: a daemon still exiting may hold a file there.
        umount2(path, Int32(MNT_DETACH))
        rmdir(path)
    }
}
