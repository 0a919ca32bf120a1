import Glibc
import Testing
import UnixSocket

@Suite("A Unix socket's address and its peer")
struct UnixSocketTests {
    @Test("a path one byte longer than sun_path holds is refused, saying its length and the most")
    func tooLong() {
        let longest = "/" + String(repeating: "a", count: UnixAddress.capacity - 2)
        #expect((try? UnixAddress(path: longest)) != nil, "\(longest.utf8.count) bytes")
        let refusal = #expect(throws: UnixAddress.TooLong.self) { try UnixAddress(path: longest + "a") }
        let message = refusal.map { "\($0)" } ?? "accepted"
        #expect(message.contains("\(UnixAddress.capacity) bytes") && message.contains("at most \(UnixAddress.capacity - 1)"), "\(message)")
    }

    @Test("$NOTIFY_SOCKET takes an absolute path or an @abstract name, nothing else")
    func notifyForms() {
        #expect(UnixAddress(notifySocket: "/run/user/1/systemd/notify") != nil)
        #expect(UnixAddress(notifySocket: "@todod-notify") != nil)
        #expect(UnixAddress(notifySocket: "vsock:2:1234") == nil)
        #expect(UnixAddress(notifySocket: "relative.sock") == nil)
        #expect(UnixAddress(notifySocket: "@" + String(repeating: "n", count: UnixAddress.capacity)) == nil)
    }

    @Test("a socket bound, listened on and connected to names this process as its peer, on both ends")
    func peerIsUs() throws {
        let path = "/tmp/unixsocket-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        defer { unlink(path) }
        let address = try UnixAddress(path: path)
        let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(server) }
        try #require(address.bind(server) == 0, "bind: \(SocketCallError())")
        try #require(listen(server, 1) == 0)
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        try #require(address.connect(client) == 0, "connect: \(SocketCallError())")
        let peer = try PeerCredentials.of(client).get()
        #expect(peer.uid == getuid() && peer.gid == getgid() && peer.pid == getpid(), "\(peer)")
    }

    @Test("the credentials of something not a socket are an error with errno's words")
    func notASocket() {
        let result = PeerCredentials.of(0 /* standard input */)
        let described = switch result {
        case .success(let peer): "\(peer)"
        case .failure(let error): error.description
        }
        #expect(described.lowercased().contains("socket"), "\(described)")
    }
}
