internal import CGnuTLS
import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client-side TLS session over a non-blocking socket: the handshake with the upstream's
/// name checked against `UpstreamTrust`, then records in and out. The one adapter for a
/// GnuTLS session; the socket itself belongs to `UpstreamSocket`.
final class TLSClientSession {
    private let session: gnutls_session_t
    private let trust: UpstreamTrust
    private let host: String
    /// The name the certificate is checked against, as C text: GnuTLS keeps the pointer, not
    /// a copy, for the session's whole life.
    private let checkedName: UnsafeMutablePointer<CChar>

    /// A session for `fd` that will check the certificate against `host`.
    init(fd: Int32, host: String, trust: UpstreamTrust) throws(UpstreamFailure) {
        var made: gnutls_session_t?
        guard gnutls_init(&made, UInt32(GNUTLS_CLIENT) | UInt32(GNUTLS_NONBLOCK)) >= 0, let made else {
            throw UpstreamFailure(.tlsFailed, "GnuTLS could not start a session")
        }
        session = made
        self.trust = trust
        self.host = host
        checkedName = strdup(host)
        // From here a throw runs deinit, which frees the session.
        try TLSClientSession.check(gnutls_set_default_priority(made), "set its priorities")
        try TLSClientSession.check(gnutls_credentials_set(made, GNUTLS_CRD_CERTIFICATE, UnsafeMutableRawPointer(trust.credentials)), "use its credentials")
        // Server Name Indication takes host names only, never addresses (RFC 6066 §3).
        if !TLSClientSession.isAddress(host) {
            try TLSClientSession.check(gnutls_server_name_set(made, GNUTLS_NAME_DNS, host, host.utf8.count), "name the upstream")
        }
        gnutls_session_set_verify_cert(made, checkedName, 0)
        gnutls_handshake_set_timeout(made, 0)
        gnutls_transport_set_int2(made, fd, fd)
        // GnuTLS's own writes could raise SIGPIPE in a host process that has not ignored it.
        gnutls_transport_set_push_function(made) { transport, data, count in
            LibC.sendNoSignal(Int32(truncatingIfNeeded: Int(bitPattern: transport)), data, count)
        }
    }

    deinit {
        gnutls_deinit(session)
        free(checkedName)
    }

    /// Ends the session's setup with the call's failure, named.
    private static func check(_ code: Int32, _ what: String) throws(UpstreamFailure) {
        guard code >= 0 else { throw UpstreamFailure(.tlsFailed, "GnuTLS could not \(what): \(String(cString: gnutls_strerror(code)))") }
    }

    /// One step of the handshake.
    func handshake() -> TransferStep {
        let result = gnutls_handshake(session)
        if result == GNUTLS_E_SUCCESS { return .moved(0) }
        if let waiting = wouldBlock(result) { return waiting }
        let status = gnutls_session_get_verify_cert_status(session)
        if status != 0 {
            var text = gnutls_datum_t()
            var words = "its certificate failed the check"
            if gnutls_certificate_verification_status_print(status, GNUTLS_CRT_X509, &text, 0) >= 0, let data = text.data {
                words = String(cString: UnsafeRawPointer(data).assumingMemoryBound(to: CChar.self))
                CGnuTLS_free_datum(&text)
            }
            return .failed(UpstreamFailure(.untrustedCertificate, "TLS with \(host) failed: \(words)"))
        }
        return .failed(UpstreamFailure(.tlsFailed, "TLS with \(host) failed: \(String(cString: gnutls_strerror(result)))"))
    }

    /// Sends up to `bytes.count` bytes. After `.wouldBlock` the same bytes must be offered again.
    func send(_ bytes: UnsafeRawBufferPointer) -> TransferStep {
        let sent = gnutls_record_send(session, bytes.baseAddress, bytes.count)
        if sent >= 0 { return .moved(sent) }
        return wouldBlock(Int32(sent)) ?? .failed(UpstreamFailure(.connectionLost, "TLS send to \(host) failed: \(String(cString: gnutls_strerror(Int32(sent))))"))
    }

    /// Receives into `buffer`; `.closed` at the upstream's end of the session.
    func receive(_ buffer: UnsafeMutableRawBufferPointer) -> TransferStep {
        let got = gnutls_record_recv(session, buffer.baseAddress, buffer.count)
        if got > 0 { return .moved(got) }
        // 0 is a proper close_notify; many servers just close, which GnuTLS reports as premature.
        if got == 0 || got == Int(GNUTLS_E_PREMATURE_TERMINATION) { return .closed }
        return wouldBlock(Int32(got)) ?? .failed(UpstreamFailure(.connectionLost, "TLS receive from \(host) failed: \(String(cString: gnutls_strerror(Int32(got))))"))
    }

    private func wouldBlock(_ result: Int32) -> TransferStep? {
        guard result == GNUTLS_E_AGAIN || result == GNUTLS_E_INTERRUPTED else { return nil }
        return .wouldBlock(wantsWrite: gnutls_record_get_direction(session) == 1)
    }

    private static func isAddress(_ host: String) -> Bool {
        host.contains(":") || host.allSatisfy { $0 == "." || ("0"..."9").contains($0) }
    }
}

/// What one step of socket or TLS work did.
enum TransferStep {
    /// Done, moving this many bytes (0 for a finished handshake or connect).
    case moved(Int)
    /// Nothing can be done until the socket is readable, or writable when `wantsWrite`.
    case wouldBlock(wantsWrite: Bool)
    /// The upstream ended the connection.
    case closed
    case failed(UpstreamFailure)
}
