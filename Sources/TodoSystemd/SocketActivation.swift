import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The listening sockets systemd hands over when the daemon is socket-activated (`sd_listen_fds(3)`).
public enum SocketActivation {
    /// The passed listening Unix stream sockets, or [] when the process was not socket-activated.
    ///
    /// Only descriptors meant for this process count: `$LISTEN_PID` must be this process, as
    /// `sd_listen_fds(3)` checks; they are made close-on-exec, as it does. Read from `environment`,
    /// not by libsystemd from the process's (see SystemdEnvironment), and never unset: asking twice
    /// gives the same answer.
    /// Throws ``SocketActivationError`` when the environment is malformed or a descriptor is of the wrong kind.
    public static func listeningFileDescriptors(in environment: SystemdEnvironment = .process) throws(SocketActivationError) -> [CInt] {
        guard let pidText = environment.listenPID else { return [] }
        guard let pid = pid_t(pidText), pid > 0 else { throw malformed("$LISTEN_PID is \"\(pidText)\", not a process id") }
        guard pid == getpid(), let countText = environment.listenFDs else { return [] }
        let first = CInt(SD_LISTEN_FDS_START)
        guard let count = CInt(countText), count >= 0, count <= CInt.max - first else {
            throw malformed("$LISTEN_FDS is \"\(countText)\", not a number of descriptors")
        }
        let descriptors = Array(first..<first + count)
        for descriptor in descriptors {
            let flags = fcntl(descriptor, F_GETFD)
            guard flags >= 0, fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) == 0 else {
                throw malformed("$LISTEN_FDS says \(count) descriptors were passed, but descriptor \(descriptor) is not open")
            }
            try validate(descriptor)
        }
        return descriptors
    }

    private static func malformed(_ what: String) -> SocketActivationError {
        SocketActivationError(
            fileDescriptor: nil,
            message: """
                systemd socket activation: $LISTEN_FDS/$LISTEN_PID are malformed (\(what)); start todod through \
                todod.socket or without these variables set.
                """)
    }

    /// Checks that `descriptor` is a listening Unix stream socket, the only kind the daemon serves.
    public static func validate(_ descriptor: CInt) throws(SocketActivationError) {
        guard sd_is_socket_unix(descriptor, CInt(SOCK_STREAM.rawValue), 1, nil, 0) <= 0 else { return }
        throw SocketActivationError(
            fileDescriptor: descriptor,
            message: """
                systemd passed file descriptor \(descriptor), which is \(kind(of: descriptor)), \
                but todod needs a listening Unix stream socket. Fix the socket unit: use \
                ListenStream=%t/todod.sock and Accept=no (the default), then \
                `systemctl --user daemon-reload && systemctl --user restart todod.socket`.
                """)
    }

    /// Names what a descriptor is, so the error says what went wrong rather than only that it did.
    static func kind(of descriptor: CInt) -> String {
        if fcntl(descriptor, F_GETFD) < 0 { return "not open" }
        if sd_is_socket_unix(descriptor, CInt(SOCK_STREAM.rawValue), 0, nil, 0) > 0 {
            return "a connected Unix stream socket (is Accept=yes set?)"
        }
        if sd_is_socket_unix(descriptor, CInt(SOCK_DGRAM.rawValue), -1, nil, 0) > 0 {
            return "a Unix datagram socket (ListenDatagram=)"
        }
        if sd_is_socket_unix(descriptor, CInt(SOCK_SEQPACKET.rawValue), -1, nil, 0) > 0 {
            return "a Unix seqpacket socket (ListenSequentialPacket=)"
        }
        if sd_is_socket_inet(descriptor, 0, 0, -1, 0) > 0 { return "an IP socket (a port in ListenStream=?)" }
        if sd_is_socket(descriptor, 0, 0, -1) > 0 { return "a socket of another family" }
        if sd_is_fifo(descriptor, nil) > 0 { return "a FIFO (ListenFIFO=)" }
        return "not a socket"
    }
}
