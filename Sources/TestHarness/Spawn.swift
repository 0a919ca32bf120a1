import Foundation
import UnixSocket

/// Starts `program` with posix_spawn(3): the one place of this target that builds the C argv and
/// envp arrays. Foundation's `Process` is not used by the tests because its `run()` on Linux
/// crashes at random: `findMaximumOpenFromProcSelfFD()` copies the whole 256-byte `d_name` of each
/// `/proc/self/fd` entry, reading past glibc's readdir buffer ("Bad pointer dereference" in
/// memcpy; swiftlang/swift-corelibs-foundation PR #5472), and it does so on every `run()`.
///
/// The child gets `stdin`, `stdout` and `stderr` as its descriptors 0, 1 and 2, and nothing else
/// of this process: every other descriptor is closed, so other children's pipes and sockets do not
/// leak into it (a leaked write end would keep another child's output from ever ending). It leads a
/// process group of its own, so that killing the group kills what it started; its signal mask and
/// dispositions are the defaults, whatever the test process set.
func spawn(
    _ program: String, _ arguments: [String], environment: [String: String], directory: String?,
    stdin: ChildDescriptor, stdout: ChildDescriptor, stderr: ChildDescriptor
) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (target, source) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
        switch source {
        case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
        case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        case .standardOutput: posix_spawn_file_actions_adddup2(&actions, 1, target)
        }
    }
    try GlibcExtensions.closeFrom3(&actions)
    if let directory { try GlibcExtensions.changeDirectory(&actions, directory) }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0)=\($1)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
        throw HarnessFailure("cannot start \(program): \(String(cString: strerror(spawned))); is it installed there and executable?")
    }
    return pid
}

/// What a child's descriptor 0, 1 or 2 is.
enum ChildDescriptor {
    case null
    /// A descriptor of ours (a pipe's end), duplicated into the child.
    case descriptor(Int32)
    /// A file, created or truncated.
    case file(String)
    /// Whatever its descriptor 1 already is (stderr with stdout, as `2>&1`).
    case standardOutput
}

/// glibc's posix_spawn file actions that Swift's Glibc module does not show (they are GNU
/// extensions, declared only under _GNU_SOURCE), looked up by name.
private enum GlibcExtensions {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// `posix_spawn_file_actions_addclosefrom_np(actions, 3)` (glibc 2.34), else a close action
    /// for every descriptor open now from 3 up.
    static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) throws {
        if let closeFrom = GlibcFunction.named("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self) {
            _ = closeFrom(&actions, 3)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }

    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29): the child starts in `directory`.
    static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, _ directory: String) throws {
        guard let changeDirectory = GlibcFunction.named("posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self) else {
            throw HarnessFailure("this glibc has no posix_spawn_file_actions_addchdir_np (2.29 and later do): cannot start a program in \(directory)")
        }
        _ = changeDirectory(&actions, directory)
    }
}

/// Why a program could not be started or did not end in time.
public struct HarnessFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Runs blocking work (waiting for a process, reading a pipe) on a thread of its own, so that it
/// never holds one of the few threads Swift concurrency has on 2 cores.
public func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
