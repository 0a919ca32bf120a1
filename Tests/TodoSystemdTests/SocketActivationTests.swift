import Testing
import TodoSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The environment is given, not set with setenv(3): other tests of this process read theirs meanwhile.
@Suite struct SocketActivationTests {
    @Test func noDescriptorsWhenNotActivated() throws {
        let descriptors = try SocketActivation.listeningFileDescriptors(in: SystemdEnvironment())
        #expect(descriptors == [])
    }

    @Test func descriptorsMeantForAnotherProcessAreIgnored() throws {
        let environment = SystemdEnvironment(["LISTEN_FDS": "1", "LISTEN_PID": "\(getpid() + 1)"])
        let descriptors = try SocketActivation.listeningFileDescriptors(in: environment)
        #expect(descriptors == [])
    }

    @Test func malformedEnvironmentThrows() {
        for (count, pid) in [("many", "\(getpid())"), ("1", "me")] {
            let environment = SystemdEnvironment(["LISTEN_FDS": count, "LISTEN_PID": pid])
            let error = #expect(throws: SocketActivationError.self, "LISTEN_FDS=\(count) LISTEN_PID=\(pid)") {
                try SocketActivation.listeningFileDescriptors(in: environment)
            }
            #expect(error?.fileDescriptor == nil)
            #expect(error?.message.contains("LISTEN_FDS") == true, "\(error?.message ?? "no error")")
        }
    }
}

/// `validate` on descriptors the test makes: fds 3+ of the test process cannot be handed over safely.
@Suite struct SocketValidationTests {
    @Test func listeningUnixStreamSocketIsAccepted() throws {
        let descriptor = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // Binding with only the family autobinds to a unique abstract address: no file to clean up.
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sa_family_t>.size))
            }
        }
        try #require(bound == 0)
        try #require(listen(descriptor, 1) == 0)
        try SocketActivation.validate(descriptor)
    }

    @Test func datagramSocketIsRejectedWithItsKind() {
        let descriptor = socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue), 0)
        defer { close(descriptor) }
        let error = #expect(throws: SocketActivationError.self) {
            try SocketActivation.validate(descriptor)
        }
        #expect(error?.fileDescriptor == descriptor)
        #expect(error?.message.contains("datagram") == true)
        #expect(error?.message.contains("ListenStream=") == true)
    }

    @Test func streamSocketThatIsNotListeningIsRejected() {
        let descriptor = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        let error = #expect(throws: SocketActivationError.self) {
            try SocketActivation.validate(descriptor)
        }
        #expect(error?.message.contains("Accept=") == true)
    }

    @Test func ipSocketIsRejected() {
        let descriptor = socket(AF_INET, CInt(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        #expect(listen(descriptor, 1) == 0)
        let error = #expect(throws: SocketActivationError.self) {
            try SocketActivation.validate(descriptor)
        }
        #expect(error?.message.contains("IP socket") == true)
    }
}
