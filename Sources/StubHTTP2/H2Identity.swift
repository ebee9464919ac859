internal import CGnuTLS

/// The certificate, key and priorities of stubd's own TLS sessions on the HTTPS port (those of
/// clients offering `h2`), made once from the same PEM libmicrohttpd is given, so both kinds of
/// client meet the same certificate. ALPN offers `h2`, then `http/1.1`.
final class H2Identity: @unchecked Sendable {
    // @unchecked: GnuTLS credentials and priorities are read-only once made and may be shared by
    // sessions on any thread.
    let credentials: gnutls_certificate_credentials_t
    let priority: gnutls_priority_t

    /// Nil when GnuTLS refuses the key or certificate (libmicrohttpd, given the same, fails first).
    init?(certificatePEM: [UInt8], keyPEM: [UInt8]) {
        var made: gnutls_certificate_credentials_t?
        guard gnutls_certificate_allocate_credentials(&made) >= 0, let made else { return nil }
        let loaded = certificatePEM.withUnsafeBufferPointer { cert in
            keyPEM.withUnsafeBufferPointer { key in
                var certDatum = gnutls_datum_t(data: UnsafeMutablePointer(mutating: cert.baseAddress), size: UInt32(cert.count))
                var keyDatum = gnutls_datum_t(data: UnsafeMutablePointer(mutating: key.baseAddress), size: UInt32(key.count))
                return gnutls_certificate_set_x509_key_mem(made, &certDatum, &keyDatum, GNUTLS_X509_FMT_PEM)
            }
        }
        var chosen: gnutls_priority_t?
        // libmicrohttpd 1.0 asks for "@LIBMICROHTTPD", then "@SYSTEM", then "NORMAL"; 0.9.75 for
        // "NORMAL". Without a system file naming LIBMICROHTTPD all of them come to the same.
        let found = loaded >= 0 && ["@SYSTEM", "NORMAL"].contains { (name: String) in gnutls_priority_init(&chosen, name, nil) >= 0 && chosen != nil }
        guard found, let chosen else {
            gnutls_certificate_free_credentials(made)
            return nil
        }
        credentials = made
        priority = chosen
    }

    deinit {
        gnutls_priority_deinit(priority)
        gnutls_certificate_free_credentials(credentials)
    }

    /// A server session on `fd`, non-blocking, with ALPN `h2` and `http/1.1` (the server's order).
    func session(on fd: Int32) -> gnutls_session_t? {
        var made: gnutls_session_t?
        guard gnutls_init(&made, UInt32(GNUTLS_SERVER) | UInt32(GNUTLS_NONBLOCK) | UInt32(GNUTLS_NO_SIGNAL)) >= 0, let made else { return nil }
        guard gnutls_priority_set(made, priority) >= 0,
              gnutls_credentials_set(made, GNUTLS_CRD_CERTIFICATE, UnsafeMutableRawPointer(credentials)) >= 0,
              H2Identity.offerALPN(made) >= 0 else {
            gnutls_deinit(made)
            return nil
        }
        gnutls_transport_set_int2(made, fd, fd)
        return made
    }

    /// Offers `h2`, then `http/1.1`, the server's order deciding. GnuTLS copies the names.
    private static func offerALPN(_ session: gnutls_session_t) -> Int32 {
        var h2: [UInt8] = Array("h2".utf8), http11: [UInt8] = Array("http/1.1".utf8)
        return h2.withUnsafeMutableBufferPointer { first in
            http11.withUnsafeMutableBufferPointer { second in
                var protocols = [gnutls_datum_t(data: first.baseAddress, size: UInt32(first.count)),
                                 gnutls_datum_t(data: second.baseAddress, size: UInt32(second.count))]
                return gnutls_alpn_set_protocols(session, &protocols, 2, UInt32(GNUTLS_ALPN_SERVER_PRECEDENCE.rawValue))
            }
        }
    }
}
