#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// A server certificate and its private key, checked and ready to serve: both parse, the key
/// belongs to the certificate, and the certificate is valid now. Bad material is refused here,
/// at start, with the file and the reason, rather than by the TLS library's generic failure.
public struct ServerIdentity: Sendable {
    /// The certificate (and any chain after it) as PEM.
    public let certificatePEM: [UInt8]
    /// The private key as PEM.
    public let keyPEM: [UInt8]
    /// The host names and IP addresses the certificate is for.
    public let names: [String]
    /// When the certificate expires.
    public let notAfter: Date

    /// Reads and checks the certificate at `certificate` and the key at `key`.
    public static func load(certificate: String, key: String, now: Date = Date()) throws(TLSError) -> ServerIdentity {
        let certificatePEM = try TLSFiles.read(certificate)
        let keyPEM = try TLSFiles.read(key)
        let parsed = try X509Certificate.read(pem: certificatePEM, file: certificate)
        let privateKey = try PrivateKey.read(pem: keyPEM, file: key)
        guard try privateKey.keyID() == parsed.keyID() else {
            throw TLSError(file: key, "is not the key of \(certificate) (their public keys differ); run `stubd tls init` to make a matching pair")
        }
        try ServerIdentity.checkValidity(parsed, file: certificate, now: now)
        return ServerIdentity(certificatePEM: certificatePEM, keyPEM: keyPEM, names: parsed.alternativeNames, notAfter: parsed.notAfter)
    }

    /// The identity in `directory` (its `server.pem` and `server-key.pem`).
    public static func load(from directory: TLSDirectory, now: Date = Date()) throws(TLSError) -> ServerIdentity {
        let missing = [directory.serverCertificate, directory.serverKey].filter { !TLSFiles.exists($0) }
        if !missing.isEmpty {
            throw TLSError(file: missing[0], "does not exist; run `stubd tls init --tls-dir \(directory.path)` to create the certificate authority and the server certificate")
        }
        return try load(certificate: directory.serverCertificate, key: directory.serverKey, now: now)
    }

    static func checkValidity(_ certificate: X509Certificate, file: String, now: Date) throws(TLSError) {
        if certificate.notAfter <= now {
            throw TLSError(file: file, "expired on \(ISO8601.format(certificate.notAfter)); run `stubd tls init` to renew it")
        }
        if certificate.notBefore > now {
            throw TLSError(file: file, "is not valid before \(ISO8601.format(certificate.notBefore)); check the clock")
        }
    }
}
