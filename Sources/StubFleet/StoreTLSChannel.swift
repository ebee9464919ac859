internal import CGnuTLS
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// TLS to the store (`rediss://`): a blocking TCP socket with read and write timeouts, and one
/// GnuTLS client session over it whose certificate is checked against the store's host name and
/// the system's authorities plus `--state-ca`. Debian's hiredis (0.14) has no TLS, so
/// `RedisConnection` formats commands and parses replies with hiredis and moves the bytes here.
/// The one adapter for this socket, its session and its credentials.
final class StoreTLSChannel {
    let descriptor: Int32
    private let timeoutMs: Int
    private let session: gnutls_session_t
    private let credentials: gnutls_certificate_credentials_t
    /// The checked name as C text: GnuTLS keeps the pointer for the session's life.
    private let checkedName: UnsafeMutablePointer<CChar>

    /// Connects to `host:port` and completes the handshake, each step within `timeoutMs`.
    init(host: String, port: Int, timeoutMs: Int, authorities: String?) throws(StoreError) {
        let fd = try StoreTLSChannel.openSocket(host: host, port: port, timeoutMs: timeoutMs)
        descriptor = fd
        self.timeoutMs = timeoutMs
        checkedName = strdup(host)
        var made: gnutls_certificate_credentials_t?
        _ = gnutls_global_init()
        _ = gnutls_certificate_allocate_credentials(&made)
        var open: gnutls_session_t?
        _ = gnutls_init(&open, UInt32(GNUTLS_CLIENT))
        guard let made, let open else {
            close(fd)
            throw StoreError(description: "GnuTLS could not start a session")
        }
        credentials = made
        session = open
        // From here a throw runs deinit, which frees all of the above.
        _ = gnutls_certificate_set_x509_system_trust(made)
        if let authorities {
            let added = gnutls_certificate_set_x509_trust_file(made, authorities, GNUTLS_X509_FMT_PEM)
            guard added > 0 else {
                throw StoreError(description: "cannot use \(authorities) as the store's authority: \(added < 0 ? String(cString: gnutls_strerror(added)) : "no certificate in it")")
            }
        }
        gnutls_set_default_priority(open)
        gnutls_credentials_set(open, GNUTLS_CRD_CERTIFICATE, UnsafeMutableRawPointer(made))
        // Server Name Indication takes host names only, never addresses (RFC 6066 §3).
        if !(host.contains(":") || host.allSatisfy({ $0 == "." || $0.isNumber })) {
            gnutls_server_name_set(open, GNUTLS_NAME_DNS, host, host.utf8.count)
        }
        gnutls_session_set_verify_cert(open, checkedName, 0)
        gnutls_transport_set_int2(open, fd, fd)
        gnutls_transport_set_push_function(open) { transport, data, count in
            LibC.sendNoSignal(Int32(truncatingIfNeeded: Int(bitPattern: transport)), data, count)
        }
        // Each try waits at most the socket's timeout; a server that never answers (or is not a
        // TLS server at all) fails once the whole timeout has passed, not never.
        let deadline = MonotonicClock.now() + UInt64(timeoutMs) * 1_000_000
        var result: Int32
        repeat {
            result = gnutls_handshake(open)
        } while (result == GNUTLS_E_AGAIN || result == GNUTLS_E_INTERRUPTED) && MonotonicClock.now() < deadline
        guard result == GNUTLS_E_SUCCESS else {
            if result == GNUTLS_E_AGAIN || result == GNUTLS_E_INTERRUPTED {
                throw StoreError(description: "no TLS answer from \(host):\(port) within \(timeoutMs) ms (is it a TLS port?)")
            }
            var words = String(cString: gnutls_strerror(result))
            var text = gnutls_datum_t()
            let status = gnutls_session_get_verify_cert_status(open)
            if result == GNUTLS_E_CERTIFICATE_VERIFICATION_ERROR,
               gnutls_certificate_verification_status_print(status, GNUTLS_CRT_X509, &text, 0) >= 0, let data = text.data {
                words = String(cString: UnsafeRawPointer(data).assumingMemoryBound(to: CChar.self))
                CGnuTLS_free_datum(&text)
            }
            throw StoreError(description: "TLS with \(host):\(port) failed: \(words)")
        }
    }

    deinit {
        gnutls_deinit(session)
        gnutls_certificate_free_credentials(credentials)
        gnutls_global_deinit()
        free(checkedName)
        close(descriptor)
    }

    /// Sends all of `bytes`; throws when the store went away or took longer than the timeout.
    func send(_ bytes: [UInt8]) throws(StoreError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { gnutls_record_send(session, $0.baseAddress! + offset, $0.count - offset) }
            if sent == Int(GNUTLS_E_AGAIN) || sent == Int(GNUTLS_E_INTERRUPTED) { continue }
            guard sent > 0 else { throw StoreError(description: "TLS send to the store failed: \(String(cString: gnutls_strerror(Int32(sent))))") }
            offset += sent
        }
    }

    /// Receives what is there and hands it to `take`. With `wait`, waits up to the timeout when
    /// nothing is; without, returns when nothing is (poll said readable, but it was only a
    /// post-handshake message).
    func receive(wait: Bool = true, _ take: (UnsafeRawBufferPointer) -> Void) throws(StoreError) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        // GNUTLS_E_AGAIN comes both after a post-handshake message (a TLS 1.3 session ticket: try
        // again at once) and when the socket's read timeout passed (give up).
        let deadline = MonotonicClock.now() + UInt64(timeoutMs) * 1_000_000
        var got: Int
        repeat {
            got = buffer.withUnsafeMutableBytes { gnutls_record_recv(session, $0.baseAddress, $0.count) }
        } while wait && (got == Int(GNUTLS_E_AGAIN) || got == Int(GNUTLS_E_INTERRUPTED)) && MonotonicClock.now() < deadline
        if got == Int(GNUTLS_E_AGAIN) || got == Int(GNUTLS_E_INTERRUPTED) {
            if !wait { return }
            throw StoreError(description: "the store did not answer in time")
        }
        guard got > 0 else {
            throw StoreError(description: got == 0 ? "the store closed the connection" : "TLS receive failed: \(String(cString: gnutls_strerror(Int32(got))))")
        }
        buffer.withUnsafeBytes { take(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
    }

    /// Bytes GnuTLS has decrypted but not handed out yet (poll cannot see them).
    var pending: Int { gnutls_record_check_pending(session) }

    /// A connected TCP socket to `host:port`, with `timeoutMs` for connecting, reading and writing.
    private static func openSocket(host: String, port: Int, timeoutMs: Int) throws(StoreError) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = LibC.streamType
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            throw StoreError(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(found) }
        var wait = LibC.timeval(milliseconds: timeoutMs)
        var why = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, LibC.streamSocket, info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            // SO_SNDTIMEO bounds connect too (Linux); both bound every read and write after it.
            _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
            why = String(cString: strerror(errno))
            close(fd)
        }
        throw StoreError(description: "cannot reach \(host):\(port): \(why)")
    }
}
