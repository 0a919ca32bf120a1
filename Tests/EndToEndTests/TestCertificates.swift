import Foundation

/// A throwaway certificate authority and a server certificate it signed, made by the `openssl`
/// command in a directory: what a PostgreSQL with `ssl = on` needs, and what todod's
/// `sslrootcert` names. P-256 keys, valid for two days.
struct TestCertificates {
    /// The CA's certificate (PEM): what `sslrootcert` names.
    let authority: String
    /// The server's certificate (PEM), signed by the CA.
    let certificate: String
    /// The server's private key (PEM, unencrypted).
    let key: String

    /// Makes the files `NAME-ca.crt`, `NAME-server.crt` and `NAME-server.key` in `directory`;
    /// the server certificate names `subjectAltNames` (openssl's syntax).
    static func make(in directory: String, name: String, subjectAltNames: String = "DNS:localhost,IP:127.0.0.1") async throws -> TestCertificates {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else {
            throw TestFailure("the openssl command is not installed: apt-get install openssl (make test does)")
        }
        let prefix = "\(directory)/\(name)"
        let certificates = TestCertificates(authority: prefix + "-ca.crt", certificate: prefix + "-server.crt", key: prefix + "-server.key")
        let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try await openssl(["req", "-x509"] + newKey + ["-keyout", prefix + "-ca.key", "-out", certificates.authority, "-days", "2", "-subj", "/CN=todod test CA \(name)"])
        try await openssl(["req", "-new"] + newKey + ["-keyout", certificates.key, "-out", prefix + "-server.csr", "-subj", "/CN=todod test server"])
        try "subjectAltName=\(subjectAltNames)\n".write(toFile: prefix + "-server.ext", atomically: true, encoding: .utf8)
        try await openssl([
            "x509", "-req", "-in", prefix + "-server.csr", "-CA", certificates.authority, "-CAkey", prefix + "-ca.key",
            "-CAcreateserial", "-days", "2", "-extfile", prefix + "-server.ext", "-out", certificates.certificate,
        ])
        return certificates
    }

    private static func openssl(_ arguments: [String]) async throws {
        let result = try await ChildProcess.run("/usr/bin/openssl", arguments, environment: ["PATH": "/usr/bin:/bin"])
        guard result.status == 0 else { throw TestFailure("openssl \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.output)") }
    }
}
