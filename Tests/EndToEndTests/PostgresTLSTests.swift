import Foundation
import Testing

/// todod reaching its shared store over TCP with TLS, sslmode and sslrootcert as libpq's, against
/// a real PostgreSQL whose certificate a throwaway CA signed (PostgresTLSServer).
@Suite("PostgreSQL over TLS", .serialized)
struct PostgresTLSTests {
    /// todod with `--store uri`, run to its end: a start the store refuses exits 1 at once.
    private func refusedStart(_ uri: String, on server: PostgresTLSServer, environment: [String: String] = [:]) async throws -> CommandResult {
        let directory = server.directory + "/refused-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let result = try await run(
            "todod", ["--socket", directory + "/todod.sock", "--database", directory + "/todos.sqlite", "--store", uri],
            environment: server.environment.merging(environment) { $1 })
        #expect(result.status == 1, "todod was not refused: \(result.stderr)")
        return result
    }

    /// "count|all encrypted" of the server's TCP connections (psql's own is on the Unix socket).
    private func tcpConnections(of server: PostgresTLSServer) async throws -> String {
        try await server.server.psql("SELECT count(*), bool_and(ssl) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) WHERE client_addr IS NOT NULL")
    }

    /// A daemon on `uri` adds `title`, then stops: the server took its connection and its write.
    /// Returns the server's TCP connections while it ran ("count|all encrypted").
    private func add(_ title: String, through uri: String, on server: PostgresTLSServer) async throws -> String {
        let daemon = try await DaemonProcess.start(arguments: ["--store", uri], environment: server.environment)
        let added = try await daemon.todoctl("add", title)
        #expect(added.status == 0, "\(added.stderr)")
        let connections = try await tcpConnections(of: server)
        try await daemon.stop()
        return connections
    }

    @Test("verify-full with the server's CA: todod connects through TLS with its password, and an add is committed in PostgreSQL")
    func verifyFullConnects() async throws {
        let server = try await PostgresTLSServer.start()
        let uri = server.uri("sslmode=verify-full&sslrootcert=\(try #require(server.certificates).authority)")
        // The server checks the password: the daemon below sent the right one, inside TLS.
        let wrong = try await refusedStart(uri, on: server, environment: ["PGPASSWORD": "wrong"])
        #expect(wrong.stderr.contains("password authentication failed"), "\(wrong.stderr)")

        let daemon = try await DaemonProcess.start(arguments: ["--store", uri], environment: server.environment)
        let added = try await daemon.todoctl("add", "Renew the certificate")
        #expect(added.status == 0, "\(added.stderr)")
        let stored = try await server.server.psql("SELECT todo->>'title' FROM todo")
        #expect(stored == "Renew the certificate")
        let connections = try await tcpConnections(of: server)
        #expect(connections.hasSuffix("|t") && !connections.hasPrefix("0|"), "todod's connections, count|encrypted: \(connections)")
        #expect(daemon.log.contains("sslmode=verify-full&sslrootcert="), "the log names the store with its TLS settings")
        try await daemon.stop()
        try await server.stop()
    }

    @Test("a server that takes only TLS refuses sslmode=disable with its no-encryption message; allow and the default prefer connect encrypted")
    func plaintextRefused() async throws {
        let server = try await PostgresTLSServer.start()
        let refused = try await refusedStart(server.uri("sslmode=disable"), on: server)
        #expect(refused.stderr.contains("pg_hba.conf rejects connection for host \"127.0.0.1\""), "\(refused.stderr)")
        #expect(refused.stderr.contains("no encryption"))
        #expect(refused.stderr.contains("takes only encrypted connections"))

        for query in ["sslmode=allow", ""] {
            let connections2 = try await add("through \(query.isEmpty ? "prefer" : query)", through: server.uri(query), on: server)
            #expect(connections2.hasSuffix("|t"))
        }
        let stored = try await server.server.psql("SELECT count(*) FROM todo")
        #expect(stored == "2")
        try await server.stop()
    }

    @Test("verify-full refuses a certificate that another CA signed, naming the host, the CA file and sslrootcert")
    func anotherAuthorityRefused() async throws {
        let server = try await PostgresTLSServer.start()
        let other = try await TestCertificates.make(in: server.directory, name: "other")
        let refused = try await refusedStart(server.uri("sslmode=verify-full&sslrootcert=\(other.authority)"), on: server)
        #expect(refused.stderr.contains("the certificate that the server at localhost:\(server.port) presented does not verify against \(other.authority)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("CERTIFICATE_VERIFY_FAILED"))
        #expect(refused.stderr.contains("sslrootcert=PATH"))
        // todod never got as far as creating its tables.
        let stored = try await server.server.psql("SELECT count(*) FROM pg_tables WHERE tablename = 'todo'")
        #expect(stored == "0")
        try await server.stop()
    }

    @Test("verify-full refuses an address the certificate does not name and takes one it names; verify-ca checks the CA alone")
    func hostNameChecked() async throws {
        let server = try await PostgresTLSServer.start()
        let authority = try #require(server.certificates).authority
        let refused = try await refusedStart(server.uri(host: "127.0.0.2", "sslmode=verify-full&sslrootcert=\(authority)"), on: server)
        #expect(refused.stderr.contains("is signed by a CA in \(authority) but does not name 127.0.0.2"), "\(refused.stderr)")
        #expect(refused.stderr.contains("sslmode=verify-ca"))

        for (host, mode) in [("127.0.0.1", "verify-full"), ("127.0.0.2", "verify-ca")] {
            _ = try await add("through \(host) with \(mode)", through: server.uri(host: host, "sslmode=\(mode)&sslrootcert=\(authority)"), on: server)
        }
        let stored = try await server.server.psql("SELECT count(*) FROM todo")
        #expect(stored == "2")
        try await server.stop()
    }

    @Test("require encrypts without checking the certificate, unless ~/.postgresql/root.crt is there: then it checks the CA as verify-ca")
    func requireAndTheDefaultRootCertificate() async throws {
        let server = try await PostgresTLSServer.start()
        let connections = try await add("unchecked but encrypted", through: server.uri("sslmode=require"), on: server)
        #expect(connections.hasSuffix("|t"))

        let other = try await TestCertificates.make(in: server.directory, name: "other")
        try FileManager.default.createDirectory(atPath: server.home + "/.postgresql", withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: other.authority, toPath: server.home + "/.postgresql/root.crt")
        let refused = try await refusedStart(server.uri("sslmode=require"), on: server)
        #expect(refused.stderr.contains("does not verify against \(server.home)/.postgresql/root.crt"), "\(refused.stderr)")
        try await server.stop()
    }

    @Test("against a server without TLS: require is refused saying the server does not offer TLS; the default prefer connects unencrypted")
    func serverWithoutTLS() async throws {
        let server = try await PostgresTLSServer.start(tls: false)
        let refused = try await refusedStart(server.uri("sslmode=require"), on: server)
        #expect(refused.stderr.contains("the server at localhost:\(server.port) does not offer TLS, and sslmode=require requires it"), "\(refused.stderr)")
        #expect(refused.stderr.contains("ssl = on"))

        let connections = try await add("on a network I trust", through: server.uri(), on: server)
        #expect(connections.hasSuffix("|f"))
        try await server.stop()
    }
}
