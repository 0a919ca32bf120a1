import Foundation
import TestHarness

/// A private PostgreSQL (a PostgresServer) that also listens on TCP, on 127.0.0.1 and
/// 127.0.0.2 at a port of its own (PostgresServerPorts, checked at start), where it asks for the `postgres` role's password (scram-sha-256),
/// so that a daemon that connects proves its password reached the server. With TLS, `ssl = on`
/// with a certificate of a throwaway CA that names localhost and 127.0.0.1 (not 127.0.0.2), and
/// TCP takes only encrypted connections (pg_hba.conf: `hostssl`, and `hostnossl … reject`);
/// without, `ssl = off`. psql and createdb keep the Unix socket.
final class PostgresTLSServer: Sendable {
    static let password = "correct horse battery staple"
    let server: PostgresServer
    var port: Int { server.port }
    /// The CA and the certificate the server presents; nil without TLS.
    let certificates: TestCertificates?
    /// The certificates, pg_hba.conf, and `home`.
    let directory: String
    /// todod's `$HOME`: no `~/.pgpass`, no `~/.postgresql/root.crt` unless a test puts one there.
    var home: String { directory + "/home" }

    /// todod's environment for this server: the password, and `home`.
    var environment: [String: String] { ["PGPASSWORD": Self.password, "HOME": home] }

    /// What `todod --store` takes to reach it at `host` over TCP, `query` appended.
    func uri(host: String = "localhost", _ query: String = "") -> String {
        "postgresql://postgres@\(host):\(port)/\(server.database)" + (query.isEmpty ? "" : "?" + query)
    }

    static func start(tls: Bool = true) async throws -> PostgresTLSServer {
        let directory = try makeTemporaryDirectory()
        guard let postgres = getpwnam("postgres") else { throw TestFailure("there is no postgres user: apt-get install postgresql") }
        let (uid, gid) = (postgres.pointee.pw_uid, postgres.pointee.pw_gid)
        try FileManager.default.createDirectory(atPath: directory + "/home", withIntermediateDirectories: false)
        chown(directory, uid, gid)
        var certificates: TestCertificates?
        var hba = "local all all trust\nhost all all 127.0.0.0/8 scram-sha-256\n"
        var options = ""
        if tls {
            let made = try await TestCertificates.make(in: directory, name: "server")
            // PostgreSQL refuses a key file that others may read, or that is not its own.
            chown(made.key, uid, gid)
            chmod(made.key, 0o600)
            certificates = made
            hba = "local all all trust\nhostssl all all 127.0.0.0/8 scram-sha-256\nhostnossl all all 0.0.0.0/0 reject\n"
            options = "-c ssl=on -c ssl_cert_file=\(made.certificate) -c ssl_key_file=\(made.key)"
        }
        try hba.write(toFile: directory + "/pg_hba.conf", atomically: true, encoding: .utf8)
        var refused: [String] = []
        for _ in 0..<5 {
            let port = try PostgresServerPorts.next()
            let server = try await PostgresServer.start(
                port: port, options: "-c listen_addresses='127.0.0.1,127.0.0.2' -c hba_file=\(directory)/pg_hba.conf \(options)")
            _ = try await server.psql("ALTER ROLE postgres PASSWORD '\(password)'")
            guard let problem = await otherServer(than: server) else {
                return PostgresTLSServer(server: server, certificates: certificates, directory: directory)
            }
            refused.append("port \(port): \(problem)")
            try await server.stop()
        }
        throw TestFailure("no port where only this test's PostgreSQL answers, after 5:\n" + refused.joined(separator: "\n"))
    }

    /// Why the server a daemon reaches over TCP would not be `server` (another process listens on
    /// one of its addresses at that port, so it could not bind it, and a daemon would write to the
    /// other one while psql, on the Unix socket, asks this one), or nil when it is.
    private static func otherServer(than server: PostgresServer) async -> String? {
        let log = (try? String(contentsOfFile: server.directory + "/server.log", encoding: .utf8)) ?? ""
        if let line = log.split(separator: "\n").first(where: { $0.contains("could not bind") }) { return String(line) }
        for host in ["127.0.0.1", "127.0.0.2"] {
            do {
                let answering = try await server.psql("SHOW data_directory", host: host, password: password)
                guard answering == server.dataDirectory else {
                    return "\(host):\(server.port) is the server of \(answering), not \(server.dataDirectory)"
                }
            } catch {
                return "\(host):\(server.port) does not answer as this server: \(error)"
            }
        }
        // `localhost` may be tried as ::1 first, where this server does not listen: nothing else may.
        if let answering = try? await server.psql("SHOW data_directory", host: "::1", password: password) {
            return "::1:\(server.port), where a daemon given localhost may connect, is the server of \(answering)"
        }
        return nil
    }

    private init(server: PostgresServer, certificates: TestCertificates?, directory: String) {
        self.server = server
        self.certificates = certificates
        self.directory = directory
    }

    /// Stops the server and removes its directories.
    func stop() async throws {
        try await server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
