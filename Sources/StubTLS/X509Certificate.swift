#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CGnuTLS

/// Owns one GnuTLS certificate (`gnutls_x509_crt_t`): made blank for signing, or read from PEM.
/// Only what stubd reads or writes is exposed.
final class X509Certificate {
    let handle: gnutls_x509_crt_t

    /// A blank certificate, to be filled and signed by `CertificateIssuer`.
    init() throws(TLSError) {
        var crt: gnutls_x509_crt_t?
        try GnuTLS.check("cannot make a certificate") { gnutls_x509_crt_init(&crt) }
        handle = crt!
    }

    deinit { gnutls_x509_crt_deinit(handle) }

    /// The first certificate in `pem`; `file` names it in errors.
    static func read(pem: [UInt8], file: String) throws(TLSError) -> X509Certificate {
        let certificate = try X509Certificate()
        try GnuTLS.withDatum(pem) { datum throws(TLSError) in
            try GnuTLS.check("not a PEM certificate", file: file) { gnutls_x509_crt_import(certificate.handle, &datum, GNUTLS_X509_FMT_PEM) }
        }
        return certificate
    }

    /// The certificate as PEM.
    func pem() throws(TLSError) -> [UInt8] { try export(GNUTLS_X509_FMT_PEM) }

    /// The certificate as DER (what a configuration profile embeds).
    func der() throws(TLSError) -> [UInt8] { try export(GNUTLS_X509_FMT_DER) }

    private func export(_ format: gnutls_x509_crt_fmt_t) throws(TLSError) -> [UInt8] {
        var out = gnutls_datum_t()
        try GnuTLS.check("cannot export the certificate") { gnutls_x509_crt_export2(handle, format, &out) }
        return GnuTLS.take(&out)
    }

    /// The start of the validity period.
    var notBefore: Date { Date(timeIntervalSince1970: TimeInterval(gnutls_x509_crt_get_activation_time(handle))) }
    /// The end of the validity period.
    var notAfter: Date { Date(timeIntervalSince1970: TimeInterval(gnutls_x509_crt_get_expiration_time(handle))) }

    /// The SHA-1 identifier of the certificate's public key.
    func keyID() throws(TLSError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var size = buffer.count
        try GnuTLS.check("cannot read the certificate's key identifier") { gnutls_x509_crt_get_key_id(handle, 0, &buffer, &size) }
        return Array(buffer.prefix(size))
    }

    /// The SHA-256 fingerprint of the whole certificate.
    func fingerprint() throws(TLSError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 32)
        var size = buffer.count
        try GnuTLS.check("cannot take the certificate's fingerprint") { gnutls_x509_crt_get_fingerprint(handle, GNUTLS_DIG_SHA256, &buffer, &size) }
        return Array(buffer.prefix(size))
    }

    /// The subject, as text (`CN=…,O=…`).
    var subject: String {
        var out = gnutls_datum_t()
        guard gnutls_x509_crt_get_dn3(handle, &out, 0) >= 0 else { return "" }
        return String(decoding: GnuTLS.take(&out), as: UTF8.self)
    }

    /// The subject's common name.
    var commonName: String {
        var buffer = [UInt8](repeating: 0, count: 256)
        var size = buffer.count
        guard gnutls_x509_crt_get_dn_by_oid(handle, "2.5.4.3", 0, 0, &buffer, &size) >= 0 else { return "" }
        return String(decoding: buffer.prefix(size).prefix { $0 != 0 }, as: UTF8.self)
    }

    /// DNS names and IP addresses (as text) of the subject alternative name extension, in order.
    var alternativeNames: [String] {
        var names: [String] = []
        for index in 0..<64 {
            var buffer = [UInt8](repeating: 0, count: 256)
            var size = buffer.count
            let type = gnutls_x509_crt_get_subject_alt_name(handle, UInt32(index), &buffer, &size, nil)
            if type == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE || type < 0 { break }
            let bytes = Array(buffer.prefix(size))
            if type == Int32(GNUTLS_SAN_DNSNAME.rawValue) {
                names.append(String(decoding: bytes, as: UTF8.self))
            } else if type == Int32(GNUTLS_SAN_IPADDRESS.rawValue), let text = IPAddressText.format(bytes) {
                names.append(text)
            }
        }
        return names
    }
}
