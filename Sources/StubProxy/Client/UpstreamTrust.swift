internal import CGnuTLS

/// The authorities HTTPS upstreams are checked against: the system's trusted set, plus the
/// PEM file given as `proxyAuthorities` (a company's own authority, or a `stubd tls init`
/// folder's `ca.pem` for a local upstream). The one adapter for a GnuTLS credentials handle.
///
/// @unchecked Sendable: the credentials are filled in `init` and only read afterwards, which
/// GnuTLS allows from any thread.
final class UpstreamTrust: @unchecked Sendable {
    let credentials: gnutls_certificate_credentials_t
    /// How many authorities were loaded (0 when the system has none and no file was given).
    let count: Int

    /// The system's authorities plus those in `extraAuthorities` (a PEM file); throws when the
    /// file cannot be read or holds no certificate.
    init(extraAuthorities: String?) throws(UpstreamFailure) {
        guard gnutls_global_init() >= 0 else { throw UpstreamFailure(.tlsFailed, "GnuTLS could not start") }
        var made: gnutls_certificate_credentials_t?
        guard gnutls_certificate_allocate_credentials(&made) >= 0, let made else { throw UpstreamFailure(.tlsFailed, "GnuTLS could not allocate credentials") }
        credentials = made
        // No system store (a bare container without ca-certificates) leaves 0: every HTTPS
        // upstream then fails its check with a message naming the missing signer.
        var loaded = max(0, Int(gnutls_certificate_set_x509_system_trust(made)))
        if let extraAuthorities {
            let added = gnutls_certificate_set_x509_trust_file(made, extraAuthorities, GNUTLS_X509_FMT_PEM)
            guard added > 0 else {
                gnutls_certificate_free_credentials(made)
                let why = added < 0 ? String(cString: gnutls_strerror(added)) : "no certificate in it"
                throw UpstreamFailure(.tlsFailed, "cannot use \(extraAuthorities) as the upstream's authority: \(why)")
            }
            loaded += Int(added)
        }
        count = loaded
    }

    deinit {
        gnutls_certificate_free_credentials(credentials)
        gnutls_global_deinit()
    }
}
