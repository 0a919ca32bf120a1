import Foundation
import NIOSSL
import PostgresNIO
import SharedStoreContract

/// The TLS of one connection to the store, as libpq makes it from `sslmode` and `sslrootcert`:
/// postgres-nio's TLS setting with a swift-nio-ssl context that checks what the mode asks for,
/// and a TLS failure told as what happened and what to do.
///
/// Made anew for each connection, so that a CA file replaced while todod runs is read at the next.
struct StoreTLS: Sendable {
    /// What the server's certificate must pass.
    enum Check: Equatable, Sendable {
        /// Nothing: the connection is encrypted (when TLS is used at all), any server is taken.
        case nothing
        /// Signed by a CA in the file (`system`: the system's trust store), whatever host it names.
        case issuer(trustedIn: String)
        /// Signed by a CA in the file (`system`: the system's trust store), and naming the host.
        case issuerAndName(trustedIn: String)
    }

    let uri: StoreURI
    let check: Check

    /// Works out the check libpq would make for `uri`; `environment` gives `$HOME`, where
    /// libpq's default CA file is (`~/.postgresql/root.crt`).
    /// - Throws: `SharedStoreError` when the mode checks the server and there is no CA file.
    init(uri: StoreURI, environment: [String: String] = ProcessInfo.processInfo.environment) throws(SharedStoreError) {
        self.uri = uri
        // $HOME first, as libpq (since 15) and PasswordFile read it.
        let file = uri.sslRootCertificate ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.postgresql/root.crt"
        let present = file == "system" || FileManager.default.fileExists(atPath: file)
        switch uri.sslMode {
        case _ where uri.socketPath != nil: check = .nothing
        case .disable, .allow, .prefer: check = .nothing
        // libpq keeps this for compatibility: require with a CA file there is verify-ca.
        case .require: check = present ? .issuer(trustedIn: file) : .nothing
        case .verifyCA, .verifyFull:
            guard present else {
                throw SharedStoreError(
                    "could not connect to \(uri): sslmode=\(uri.sslMode.rawValue) checks the server's certificate against the CA certificates in \(file), which does not exist: name the file of the CA that signed the server's certificate with sslrootcert=PATH, use sslrootcert=system for a certificate from a public CA, or sslmode=require to encrypt without checking the server")
            }
            check = uri.sslMode == .verifyCA ? .issuer(trustedIn: file) : .issuerAndName(trustedIn: file)
        }
    }

    /// Makes a connection with `body`, given postgres-nio's TLS setting; for `allow` first
    /// unencrypted and, when that fails, once more encrypted (libpq's order).
    /// - Throws: `SharedStoreError` saying what to do when TLS made it fail; else `body`'s error.
    func connect<T>(_ body: (PostgresConnection.Configuration.TLS) throws -> T) throws -> T {
        let settings = try settings()
        // The last attempt's error is the one told: for allow, the encrypted one's.
        for setting in settings.dropLast() {
            if let connection = try? body(setting) { return connection }
        }
        do {
            return try body(settings[settings.count - 1])
        } catch {
            guard let problem = problem(error) else { throw error }
            throw SharedStoreError("could not connect to \(uri): \(problem)")
        }
    }

    /// postgres-nio's TLS settings to try in turn. The host name is not set here: postgres-nio
    /// checks the URI's host when it is a name (and sends it as SNI), and for an IP address
    /// swift-nio-ssl matches the certificate's addresses against the one connected to.
    func settings() throws(SharedStoreError) -> [PostgresConnection.Configuration.TLS] {
        if uri.socketPath != nil || uri.sslMode == .disable { return [.disable] }
        let context = try makeContext()
        switch uri.sslMode {
        case .allow: return [.disable, .require(context)]
        case .prefer: return [.prefer(context)]
        default: return [.require(context)]
        }
    }

    private func makeContext() throws(SharedStoreError) -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch check {
        case .nothing:
            configuration.certificateVerification = .none
        case .issuer(let file):
            configuration.certificateVerification = .noHostnameVerification
            configuration.trustRoots = file == "system" ? .default : .file(file)
        case .issuerAndName(let file):
            configuration.certificateVerification = .fullVerification
            configuration.trustRoots = file == "system" ? .default : .file(file)
        }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw SharedStoreError(
                "could not connect to \(uri): \(trusted) holds no CA certificate todod can read (\(error)): name a PEM file of CA certificates with sslrootcert=PATH, as PostgreSQL's root.crt")
        }
    }

    /// Where the CA certificates come from, for messages.
    private var trusted: String {
        switch check {
        case .nothing: "no CA file"
        case .issuer("system"), .issuerAndName("system"): "the system's trust store"
        case .issuer(let file), .issuerAndName(let file): file
        }
    }

    /// What went wrong in TLS terms and what to do, when TLS made `error`; nil otherwise.
    private func problem(_ error: any Error) -> String? {
        guard let error = error as? PSQLError else { return nil }
        let host = uri.host ?? "localhost"
        let place = "\(host):\(uri.port)"
        if error.code == .sslUnsupported {
            return "the server at \(place) does not offer TLS, and sslmode=\(uri.sslMode.rawValue) requires it: turn TLS on in the server's postgresql.conf (ssl = on, ssl_cert_file, ssl_key_file) and reload it; or, only on a network you trust, leave sslmode out (prefer) to connect unencrypted"
        }
        // The server's own words ("no pg_hba.conf entry … no encryption") stay first.
        if error.code == .server, uri.sslMode == .disable, error.serverInfo?[.message]?.hasSuffix("no encryption") == true {
            return "\(PostgresStore.reason(error)): the server at \(place) takes only encrypted connections; write sslmode=verify-full&sslrootcert=PATH (PATH: the CA that signed its certificate) instead of sslmode=disable"
        }
        guard error.code == .connectionError, let underlying = error.underlying else { return nil }
        if let refused = underlying as? NIOSSLExtraError, refused == .failedToValidateHostname {
            return "the certificate of the server at \(place) is signed by a CA in \(trusted) but does not name \(host): connect by a name or address the certificate lists (its subject alternative names), or write sslmode=verify-ca to check the CA alone"
        }
        guard case NIOSSLError.handshakeFailed(let failure) = underlying else { return nil }
        let reasons = StoreTLS.reasons(failure)
        if reasons.contains("CERTIFICATE_VERIFY_FAILED") {
            // libpq's rule surprises: say why require checked anything.
            let why = uri.sslMode == .require ? " (sslmode=require checks the CA when that file is there, as libpq's)" : ""
            return "the certificate that the server at \(place) presented does not verify against \(trusted)\(why): no CA there signed it, or it has expired or is not valid yet (TLS: \(reasons)); name the file of the CA that signed it with sslrootcert=PATH"
        }
        return "the TLS handshake with the server at \(place) failed (TLS: \(reasons)): check that \(uri.port) is PostgreSQL's port and that the server takes TLS 1.2 or newer"
    }

    /// BoringSSL's reasons in `failure` (`CERTIFICATE_VERIFY_FAILED`), without the codes and
    /// source paths around them; the whole description when there are none.
    private static func reasons(_ failure: BoringSSLError) -> String {
        let text = "\(failure)"
        let reasons = text.matches(of: #/OPENSSL_internal:([A-Z0-9_]+)/#).map { String($0.1) }
        return reasons.isEmpty ? text : reasons.joined(separator: ", ")
    }
}
