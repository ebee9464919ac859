internal import CGnuTLS
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// TLS to the store (`rediss://`): a TCP socket, non-blocking once connected, and one GnuTLS
/// client session over it whose certificate is checked against the store's host name and the
/// system's authorities plus `--state-ca`. Debian's hiredis (0.14) has no TLS, so
/// `RedisConnection` formats commands and parses replies with hiredis and moves the bytes here.
/// Non-blocking, so that no GnuTLS call waits on the socket: a record that trickles in a byte at
/// a time ends a call at its deadline, not at a socket timeout each byte starts again. The one
/// adapter for this socket, its session and its credentials.
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
        var made: gnutls_certificate_credentials_t?
        var open: gnutls_session_t?
        let global = gnutls_global_init()
        var code = global
        if code >= 0 { code = gnutls_certificate_allocate_credentials(&made) }
        if code >= 0 { code = gnutls_init(&open, UInt32(GNUTLS_CLIENT)) }
        guard code >= 0, let made, let open else {
            if let made { gnutls_certificate_free_credentials(made) }
            if global >= 0 { gnutls_global_deinit() }
            close(fd)
            throw StoreError(description: "GnuTLS could not start a session: \(String(cString: gnutls_strerror(code)))")
        }
        credentials = made
        session = open
        checkedName = strdup(host)
        // From here a throw runs deinit, which frees all of the above.
        // No system authorities (a slim container) is no error yet: --state-ca may name the
        // store's, and a store no loaded authority vouches for fails the handshake, named.
        _ = gnutls_certificate_set_x509_system_trust(made)
        if let authorities {
            let added = gnutls_certificate_set_x509_trust_file(made, authorities, GNUTLS_X509_FMT_PEM)
            guard added > 0 else {
                throw StoreError(description: "cannot use \(authorities) as the store's authority: \(added < 0 ? String(cString: gnutls_strerror(added)) : "no certificate in it")")
            }
        }
        try StoreTLSChannel.check(gnutls_set_default_priority(open), "set its priorities")
        try StoreTLSChannel.check(gnutls_credentials_set(open, GNUTLS_CRD_CERTIFICATE, UnsafeMutableRawPointer(made)), "use its credentials")
        // Server Name Indication takes host names only, never addresses (RFC 6066 §3).
        if !(host.contains(":") || host.allSatisfy({ $0 == "." || $0.isNumber })) {
            try StoreTLSChannel.check(gnutls_server_name_set(open, GNUTLS_NAME_DNS, host, host.utf8.count), "name the store")
        }
        gnutls_session_set_verify_cert(open, checkedName, 0)
        gnutls_transport_set_int2(open, fd, fd)
        gnutls_transport_set_push_function(open) { transport, data, count in
            LibC.sendNoSignal(Int32(truncatingIfNeeded: Int(bitPattern: transport)), data, count)
        }
        // The whole handshake ends within the timeout: a server that never answers, is not a TLS
        // server at all, or trickles its records, fails then.
        let deadline = MonotonicClock.now() + UInt64(timeoutMs) * 1_000_000
        var result: Int32
        repeat {
            result = gnutls_handshake(open)
        } while (result == GNUTLS_E_AGAIN || result == GNUTLS_E_INTERRUPTED)
                    && StoreTLSChannel.wait(fd, gnutls_record_get_direction(open) == 1 ? POLLOUT : POLLIN, until: deadline)
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

    /// Sends all of `bytes`; `blocked` waits until the socket takes more (it throws once the
    /// call's time is up). Throws when the store went away.
    func send(_ bytes: [UInt8], blocked: () throws(StoreError) -> Void) throws(StoreError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { gnutls_record_send(session, $0.baseAddress! + offset, $0.count - offset) }
            if sent == Int(GNUTLS_E_AGAIN) || sent == Int(GNUTLS_E_INTERRUPTED) {
                // Tried again with the same bytes, as GnuTLS asks.
                try blocked()
                continue
            }
            guard sent > 0 else { throw StoreError(description: "TLS send to the store failed: \(String(cString: gnutls_strerror(Int32(sent))))") }
            offset += sent
        }
    }

    /// Hands what is there to `take`, once; nothing when no whole record is there yet (poll said
    /// readable, but it was part of a record or a post-handshake message).
    func receive(_ take: (UnsafeRawBufferPointer) throws(StoreError) -> Void) throws(StoreError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 1)
        defer { buffer.deallocate() }
        let got = gnutls_record_recv(session, buffer.baseAddress, buffer.count)
        if got == Int(GNUTLS_E_AGAIN) || got == Int(GNUTLS_E_INTERRUPTED) { return }
        guard got > 0 else {
            throw StoreError(description: got == 0 ? "the store closed the connection" : "TLS receive failed: \(String(cString: gnutls_strerror(Int32(got))))")
        }
        try take(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
    }

    /// Waits until `fd` is ready for `event` or `deadline` (monotonic ns) passes; false then.
    private static func wait(_ fd: Int32, _ event: Int32, until deadline: UInt64) -> Bool {
        let now = MonotonicClock.now()
        guard now < deadline else { return false }
        var ready = pollfd(fd: fd, events: Int16(event), revents: 0)
        // A failed or interrupted wait only makes the handshake try again early: the deadline holds.
        _ = poll(&ready, 1, Int32(min(1000, (deadline - now + 999_999) / 1_000_000)))
        return true
    }

    /// Bytes GnuTLS has decrypted but not handed out yet (poll cannot see them).
    var pending: Int { gnutls_record_check_pending(session) }

    /// Ends the session's setup with the call's failure, named.
    private static func check(_ code: Int32, _ what: String) throws(StoreError) {
        guard code >= 0 else { throw StoreError(description: "GnuTLS could not \(what): \(String(cString: gnutls_strerror(code)))") }
    }

    /// A TCP socket connected to `host:port` within `timeoutMs` (for all of its addresses
    /// together), non-blocking from then on.
    private static func openSocket(host: String, port: Int, timeoutMs: Int) throws(StoreError) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = LibC.streamType
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            throw StoreError(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(found) }
        let deadline = MonotonicClock.now() + UInt64(timeoutMs) * 1_000_000
        var why = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd: Int32
            do {
                fd = try SystemCall.run("socket") { socket(info.pointee.ai_family, LibC.streamSocket, info.pointee.ai_protocol) }
            } catch {
                why = "\(error)"
                continue
            }
            do throws(SystemCallError) {
                try LibC.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen, untilNs: deadline)
                return fd
            } catch {
                if error.call != "connect" {
                    why = "\(error)"
                } else {
                    why = error.errno == ETIMEDOUT ? "no answer within \(timeoutMs) ms" : String(cString: strerror(error.errno))
                }
                close(fd)
            }
        }
        throw StoreError(description: "cannot reach \(host):\(port): \(why)")
    }
}
