#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CGnuTLS

/// Makes the local certificate authority and the server certificates it signs, to the rules
/// Apple's platforms apply to server certificates: at most 398 days, SHA-256 signatures, key
/// usage and serverAuth extended key usage, and every name in the subject alternative names.
enum CertificateIssuer {
    /// Days a server certificate is valid, counted from an hour before it is made (so a clock a
    /// little behind still accepts it): 397 keeps the whole span under Apple's 398.
    static let serverValidityDays = 397
    /// Days the authority is valid. A root the user installed is not held to the 398-day rule.
    static let authorityValidityDays = 3650
    private static let backdate: TimeInterval = 3600

    /// A self-signed authority named `name`, allowed to sign server certificates only.
    static func makeAuthority(name: String, key: PrivateKey, now: Date) throws(TLSError) -> X509Certificate {
        let certificate = try start(commonName: name, key: key, now: now, days: authorityValidityDays)
        let h = certificate.handle
        try GnuTLS.check("cannot mark the authority as a CA") { gnutls_x509_crt_set_basic_constraints(h, 1, 0) }
        try GnuTLS.check("cannot set the authority's key usage") {
            gnutls_x509_crt_set_key_usage(h, UInt32(GNUTLS_KEY_KEY_CERT_SIGN | GNUTLS_KEY_CRL_SIGN | GNUTLS_KEY_DIGITAL_SIGNATURE))
        }
        try sign(certificate, issuer: certificate, key: key)
        return certificate
    }

    /// A server certificate for `hosts` (DNS names and IP literals), signed by `authority`.
    static func issueServer(hosts: [String], key: PrivateKey, authority: X509Certificate, authorityKey: PrivateKey,
                            now: Date) throws(TLSError) -> X509Certificate {
        guard let first = hosts.first else { throw TLSError("a server certificate needs at least one host name") }
        let certificate = try start(commonName: first, key: key, now: now, days: serverValidityDays)
        let h = certificate.handle
        try GnuTLS.check("cannot mark the certificate as not a CA") { gnutls_x509_crt_set_basic_constraints(h, 0, -1) }
        try GnuTLS.check("cannot set the key usage") { gnutls_x509_crt_set_key_usage(h, UInt32(GNUTLS_KEY_DIGITAL_SIGNATURE)) }
        try GnuTLS.check("cannot set the extended key usage serverAuth") { gnutls_x509_crt_set_key_purpose_oid(h, "1.3.6.1.5.5.7.3.1", 0) }
        for host in hosts {
            if let address = IPAddressText.parse(host) {
                try GnuTLS.check("cannot add the IP address \(host)") {
                    gnutls_x509_crt_set_subject_alt_name(h, GNUTLS_SAN_IPADDRESS, address, UInt32(address.count), UInt32(GNUTLS_FSAN_APPEND))
                }
            } else {
                let name = Array(host.utf8)
                try GnuTLS.check("cannot add the host name \(host)") {
                    gnutls_x509_crt_set_subject_alt_name(h, GNUTLS_SAN_DNSNAME, name, UInt32(name.count), UInt32(GNUTLS_FSAN_APPEND))
                }
            }
        }
        let authorityID = try authority.keyID()
        try GnuTLS.check("cannot set the authority key identifier") { gnutls_x509_crt_set_authority_key_id(h, authorityID, authorityID.count) }
        try sign(certificate, issuer: authority, key: authorityKey)
        return certificate
    }

    /// Version 3, a random serial, the validity span, the subject and the public key.
    private static func start(commonName: String, key: PrivateKey, now: Date, days: Int) throws(TLSError) -> X509Certificate {
        let certificate = try X509Certificate()
        let h = certificate.handle
        try GnuTLS.check("cannot set the version") { gnutls_x509_crt_set_version(h, 3) }
        // 16 random bytes, the top bit clear so the serial reads as positive.
        var serial = (0..<16).map { _ in UInt8.random(in: 0...255) }
        serial[0] &= 0x7F
        try GnuTLS.check("cannot set the serial number") { gnutls_x509_crt_set_serial(h, serial, serial.count) }
        let from = now.addingTimeInterval(-backdate)
        let until = from.addingTimeInterval(TimeInterval(days) * 86_400)
        try GnuTLS.check("cannot set the start of validity") { Int32(gnutls_x509_crt_set_activation_time(h, time_t(from.timeIntervalSince1970))) }
        try GnuTLS.check("cannot set the end of validity") { Int32(gnutls_x509_crt_set_expiration_time(h, time_t(until.timeIntervalSince1970))) }
        let name = Array(commonName.utf8)
        try GnuTLS.check("cannot set the common name") { gnutls_x509_crt_set_dn_by_oid(h, "2.5.4.3", 0, name, UInt32(name.count)) }
        let organization = Array("stubd".utf8)
        try GnuTLS.check("cannot set the organization") { gnutls_x509_crt_set_dn_by_oid(h, "2.5.4.10", 0, organization, UInt32(organization.count)) }
        try GnuTLS.check("cannot set the public key") { gnutls_x509_crt_set_key(h, key.handle) }
        let id = try certificate.keyID()
        try GnuTLS.check("cannot set the subject key identifier") { gnutls_x509_crt_set_subject_key_id(h, id, id.count) }
        return certificate
    }

    private static func sign(_ certificate: X509Certificate, issuer: X509Certificate, key: PrivateKey) throws(TLSError) {
        try GnuTLS.check("cannot sign the certificate with SHA-256") {
            gnutls_x509_crt_sign2(certificate.handle, issuer.handle, key.handle, GNUTLS_DIG_SHA256, 0)
        }
    }
}
