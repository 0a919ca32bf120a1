/// libpq's `sslmode`: whether the connection to the store is encrypted and how far the
/// server is trusted. Over a Unix socket TLS does not apply and the mode is ignored, as libpq
/// ignores it there.
public enum SSLMode: String, Sendable, CaseIterable {
    /// Never encrypted.
    case disable
    /// Unencrypted first; encrypted only when the server refuses that.
    case allow
    /// Encrypted when the server offers TLS, unencrypted otherwise; the certificate is not
    /// checked. libpq's default, and todod's.
    case prefer
    /// Always encrypted; the certificate is not checked, unless a root certificate file is
    /// there (`sslrootcert`, or `~/.postgresql/root.crt`): then as `verify-ca`.
    case require
    /// Encrypted, and the server's certificate must be signed by a CA in the root certificate file.
    case verifyCA = "verify-ca"
    /// As `verify-ca`, and the certificate must name the host connected to.
    case verifyFull = "verify-full"

    /// The values, as the URI spells them, for messages.
    static let spelled = allCases.map(\.rawValue).joined(separator: ", ")
}
