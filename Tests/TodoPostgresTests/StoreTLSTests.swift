import Foundation
import Testing
@testable import TodoPostgres

/// What StoreTLS makes of sslmode and sslrootcert, before any server: which certificate check
/// (libpq's rules, the default CA file under `$HOME` included) and which of postgres-nio's settings.
@Suite final class StoreTLSTests {
    /// This test's homes, removed with it.
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storetls-\(UUID().uuidString)").path

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A home directory of its own, with `~/.postgresql/root.crt` holding `rootCertificate` when given.
    private func home(rootCertificate: String? = nil) throws -> String {
        let home = directory + "/\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home + "/.postgresql", withIntermediateDirectories: true)
        if let rootCertificate { try rootCertificate.write(toFile: home + "/.postgresql/root.crt", atomically: true, encoding: .utf8) }
        return home
    }

    private func tls(_ text: String, home: String) throws -> StoreTLS {
        try StoreTLS(uri: try StoreURI(text, defaultUser: "alice", environment: [:]), environment: ["HOME": home])
    }

    @Test func overAUnixSocketNoTLSIsTriedWhateverTheMode() throws {
        let home = try home()
        for mode in SSLMode.allCases where mode != .disable {
            let tls = try tls("postgresql://alice@/todos?host=/run/pg&sslmode=\(mode.rawValue)&sslrootcert=/nonexistent.crt", home: home)
            #expect(tls.check == .nothing)
            #expect(try tls.settings().map(\.isAllowed) == [false])
        }
    }

    @Test func verifyModesWithoutACAFileAreRefusedNamingLibpqsDefaultFileAndTheWaysOut() throws {
        let home = try home()
        for mode in ["verify-ca", "verify-full"] {
            #expect { try tls("postgresql://alice@db/todos?sslmode=\(mode)", home: home) } throws: { error in
                let message = "\(error)"
                return message.contains("sslmode=\(mode) checks the server's certificate against the CA certificates in \(home)/.postgresql/root.crt, which does not exist")
                    && message.contains("sslrootcert=PATH") && message.contains("sslrootcert=system") && message.contains("sslmode=require")
            }
        }
        #expect(throws: (any Error).self) { try tls("postgresql://alice@db/todos?sslmode=verify-full&sslrootcert=\(home)/missing.crt", home: home) }
    }

    @Test func requireChecksNothingUnlessTheDefaultCAFileIsThereThenTheCAAsVerifyCA() throws {
        #expect(try tls("postgresql://alice@db/todos?sslmode=require", home: try home()).check == .nothing)
        let withFile = try home(rootCertificate: "a CA")
        #expect(try tls("postgresql://alice@db/todos?sslmode=require", home: withFile).check == .issuer(trustedIn: withFile + "/.postgresql/root.crt"))
        #expect(try tls("postgresql://alice@db/todos?sslmode=prefer", home: withFile).check == .nothing)
    }

    @Test func verifyCAChecksTheIssuerAndVerifyFullTheNameToo() throws {
        let home = try home(rootCertificate: "a CA")
        #expect(try tls("postgresql://alice@db/todos?sslmode=verify-ca&sslrootcert=\(home)/.postgresql/root.crt", home: "/nonexistent").check == .issuer(trustedIn: home + "/.postgresql/root.crt"))
        #expect(try tls("postgresql://alice@db/todos?sslmode=verify-full", home: home).check == .issuerAndName(trustedIn: home + "/.postgresql/root.crt"))
        #expect(try tls("postgresql://alice@db/todos?sslrootcert=system", home: home).check == .issuerAndName(trustedIn: "system"))
    }

    @Test func eachModeGivesPostgresNIOItsSettingAllowPlaintextFirstThenTLS() throws {
        let home = try home()
        func settings(_ mode: String) throws -> [String] {
            try tls("postgresql://alice@db/todos?sslmode=\(mode)", home: home).settings().map { $0.isEnforced ? "required" : $0.isAllowed ? "preferred" : "off" }
        }
        #expect(try settings("disable") == ["off"])
        #expect(try settings("allow") == ["off", "required"])
        #expect(try settings("prefer") == ["preferred"])
        #expect(try settings("require") == ["required"])
        #expect(try tls("postgresql://alice@db/todos?sslrootcert=system", home: home).settings().map(\.isEnforced) == [true])
    }

    @Test func aCAFileWithoutCertificatesIsRefusedSayingSo() throws {
        let home = try home(rootCertificate: "not a certificate\n")
        #expect { try tls("postgresql://alice@db/todos?sslmode=verify-full", home: home).settings() } throws: { error in
            "\(error)".contains("\(home)/.postgresql/root.crt holds no CA certificate todod can read")
        }
    }
}
