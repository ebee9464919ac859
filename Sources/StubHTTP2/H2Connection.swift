internal import CGnuTLS
internal import CNGHTTP2
import StubCore
import StubSystem
import StubTransport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP/2 connection: its TLS session, its nghttp2 session and its open streams. Only the
/// engine's thread touches it. Bytes read are decrypted and fed to nghttp2, whose callbacks
/// (`H2Callbacks`) make and run the streams; what nghttp2 has to send is encrypted and written
/// until the socket would block, the rest kept for the next writable turn.
final class H2Connection {
    let id: Int
    let fd: Int32
    let tls: gnutls_session_t
    unowned let engine: H2Engine
    let admitted: ConnectionAdmission.Connection
    /// nghttp2's session, once the handshake chose `h2`.
    var session: OpaquePointer?
    var streams: [Int32: H2Stream] = [:]
    /// Encrypted output not yet taken by the socket: `out[outOffset...]`.
    private var out: [UInt8] = []
    private var outOffset = 0
    /// True once the connection cannot go on (the client left, a TLS or protocol error).
    private(set) var failed = false
    /// True once the connection is done and its side is shut: what the client sends is read and dropped.
    private(set) var lingering = false
    /// The time of the turn being run, for the streams' events.
    var now: UInt64 = 0
    /// Frames a flood is counted in (see `H2Limits.controlBurst`).
    var controlFrames: TokenBucket
    var resets: TokenBucket
    /// The GOAWAY code a callback chose when it refused what the client sent.
    var pendingGoAway: UInt32?

    init(id: Int, fd: Int32, tls: gnutls_session_t, engine: H2Engine, admitted: ConnectionAdmission.Connection) {
        self.id = id
        self.fd = fd
        self.tls = tls
        self.engine = engine
        self.admitted = admitted
        controlFrames = TokenBucket(burst: engine.limits.controlBurst, perSecond: engine.limits.controlPerSecond)
        resets = TokenBucket(burst: engine.limits.resetBurst, perSecond: engine.limits.resetPerSecond)
    }

    /// True when nothing more will happen on the connection: close it.
    var finished: Bool {
        if failed { return true }
        guard let session else { return false }
        return nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0 && outOffset == out.count
    }

    /// True when GnuTLS holds decrypted input not yet read (a read stopped at its slice).
    var hasBufferedInput: Bool { session != nil && !failed && !lingering && gnutls_record_check_pending(tls) > 0 }

    /// True while encrypted bytes wait for the socket, or the handshake waits to write.
    var wantsWrite: Bool {
        outOffset < out.count || (session == nil && gnutls_record_get_direction(tls) == 1)
    }

    /// The socket is ready: handshake, read what came, write what is due.
    func ready(readable: Bool, writable: Bool, now: UInt64) {
        self.now = now
        if lingering { return drain() }
        if session == nil {
            guard handshake() else { return }
        }
        if readable { read() }
        flush()
    }

    /// One step of the TLS handshake; true once it is done and the session runs.
    private func handshake() -> Bool {
        let result = gnutls_handshake(tls)
        if result == GNUTLS_E_AGAIN || result == GNUTLS_E_INTERRUPTED { return false }
        var selected = gnutls_datum_t()
        guard result >= 0, gnutls_alpn_get_selected_protocol(tls, &selected) >= 0, selected.size == 2, let made = engine.makeSession(for: self) else {
            // A client that offered h2 and chose otherwise, or a failed handshake.
            failed = true
            return false
        }
        session = made
        return true
    }

    /// Bytes one connection may have read in one turn: a client that sends without pause gets its
    /// next slice on the next turn, after every other ready connection had its own.
    static let readSliceBytes = 256 * 1024

    /// Reads and decrypts what is there, up to a slice, and feeds it to nghttp2.
    private func read() {
        guard let session else { return }
        let buffer = engine.scratch
        var taken = 0
        while !failed && taken < H2Connection.readSliceBytes {
            let got = gnutls_record_recv(tls, buffer.baseAddress, buffer.count)
            if got == Int(GNUTLS_E_AGAIN) || got == Int(GNUTLS_E_INTERRUPTED) { return }
            guard got > 0 else {
                // The client closed, or TLS failed: nothing more can be said to it.
                failed = true
                return
            }
            taken += got
            let fed = nghttp2_session_mem_recv(session, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), got)
            if fed < 0 {
                // A protocol error nghttp2 did not answer itself (a flood, a bad preface): say
                // GOAWAY before going, as far as the socket takes it now.
                // -905: NGHTTP2_ERR_TOO_MANY_CONTINUATIONS, which headers older than 1.61 lack.
                let flood = fed == -905 || fed == Int(NGHTTP2_ERR_FLOODED.rawValue)
                let code = pendingGoAway ?? (flood ? H2Engine.enhanceYourCalm : UInt32(NGHTTP2_PROTOCOL_ERROR.rawValue))
                _ = nghttp2_session_terminate_session(session, code)
                flush()
                failed = true
                return
            }
            if got < buffer.count && gnutls_record_check_pending(tls) == 0 { return }
        }
    }

    /// Sends what nghttp2 has for the client until the socket would block.
    func flush() {
        guard let session, !failed else { return }
        while true {
            if outOffset == out.count {
                out.removeAll(keepingCapacity: true)
                outOffset = 0
                // Gathered up to a TLS record's worth, so small frames share one record.
                while out.count < 16_384 {
                    var data: UnsafePointer<UInt8>?
                    let count = nghttp2_session_mem_send(session, &data)
                    if count < 0 {
                        failed = true
                        return
                    }
                    guard count > 0, let data else { break }
                    out.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
                }
                if out.isEmpty { return }
            }
            let sent = out.withUnsafeBytes { gnutls_record_send(tls, $0.baseAddress! + outOffset, $0.count - outOffset) }
            if sent == Int(GNUTLS_E_AGAIN) || sent == Int(GNUTLS_E_INTERRUPTED) { return }
            guard sent >= 0 else {
                failed = true
                return
            }
            outOffset += sent
        }
    }

    /// Done after GOAWAY: shuts its side (the client reads to the end of the stream) and reads
    /// until the client closes.
    func linger() {
        lingering = true
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads and drops what a lingering connection's client sent; its close ends the connection.
    private func drain() {
        let buffer = engine.scratch
        while true {
            let got = recv(fd, buffer.baseAddress, buffer.count, 0)
            if got > 0 { continue }
            if got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
            failed = true
            return
        }
    }

    /// The stream's wait under `ticket` is over.
    func wake(stream id: Int32, ticket: UInt64, now: UInt64) {
        self.now = now
        guard let stream = streams[id], stream.ticket == ticket else { return }
        stream.ticket = nil
        stream.wake(stopping: engine.stopping)
        flush()
    }

    /// Ends every stream still open (as a client that left) and frees the sessions and socket.
    func close(now: UInt64) {
        self.now = now
        for stream in streams.values { stream.ended() }
        streams.removeAll()
        if let session { nghttp2_session_del(session) }
        session = nil
        // Admission forgets the socket while it is still open: its sweeper may shut a socket it
        // knows, and the number could belong to another connection once closed.
        engine.services.admission.closed(admitted)
        gnutls_deinit(tls)
        LibC.close(fd)
    }

    /// Ends the connection with GOAWAY(`code`): the frame goes out with what is queued before
    /// it, then the connection closes (nghttp2 wants nothing more). Safe inside a callback.
    func terminate(_ code: nghttp2_error_code) {
        guard let session else {
            failed = true
            return
        }
        _ = nghttp2_session_terminate_session(session, code.rawValue)
    }
}
