internal import CGnuTLS

/// Owns one GnuTLS private key (`gnutls_x509_privkey_t`): made new or read from PEM.
final class PrivateKey {
    let handle: gnutls_x509_privkey_t

    private init() throws(TLSError) {
        var key: gnutls_x509_privkey_t?
        try GnuTLS.check("cannot make a private key") { gnutls_x509_privkey_init(&key) }
        handle = key!
    }

    deinit { gnutls_x509_privkey_deinit(handle) }

    /// A new ECDSA P-256 key: accepted by Apple's platforms, curl and Python, and made in
    /// milliseconds (an RSA key takes up to a second).
    static func generate() throws(TLSError) -> PrivateKey {
        let key = try PrivateKey()
        try GnuTLS.check("cannot generate an ECDSA P-256 key") {
            gnutls_x509_privkey_generate(key.handle, GNUTLS_PK_ECDSA, CGnuTLS_curve_bits(GNUTLS_ECC_CURVE_SECP256R1), 0)
        }
        return key
    }

    /// The key in `pem`; `file` names it in errors.
    static func read(pem: [UInt8], file: String) throws(TLSError) -> PrivateKey {
        let key = try PrivateKey()
        try GnuTLS.withDatum(pem) { datum throws(TLSError) in
            try GnuTLS.check("not a PEM private key", file: file) { gnutls_x509_privkey_import(key.handle, &datum, GNUTLS_X509_FMT_PEM) }
        }
        return key
    }

    /// The key as PEM.
    func pem() throws(TLSError) -> [UInt8] {
        var out = gnutls_datum_t()
        try GnuTLS.check("cannot export the private key") { gnutls_x509_privkey_export2(handle, GNUTLS_X509_FMT_PEM, &out) }
        return GnuTLS.take(&out)
    }

    /// The SHA-1 identifier of the public key, the same as the certificate's for a matching pair.
    func keyID() throws(TLSError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var size = buffer.count
        try GnuTLS.check("cannot read the key's identifier") { gnutls_x509_privkey_get_key_id(handle, 0, &buffer, &size) }
        return Array(buffer.prefix(size))
    }
}
