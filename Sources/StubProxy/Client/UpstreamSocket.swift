import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One non-blocking connection to an upstream, plain or TLS: connect, handshake, then bytes in
/// and out. Owns its descriptor and closes it in `deinit`; kept between calls by
/// `UpstreamClient`'s pool while the upstream keeps it alive.
final class UpstreamSocket {
    enum Phase { case connecting, handshaking, open }

    let fd: Int32
    let origin: UpstreamOrigin
    private(set) var phase = Phase.connecting
    private var tls: TLSClientSession?
    /// When the socket last finished a call (monotonic ms), for the pool's idle limit.
    var idleSinceMs = 0

    /// Starts connecting to `address`; the connection is usually still under way on return.
    init(to address: SocketAddress, origin: UpstreamOrigin) throws(UpstreamFailure) {
        self.origin = origin
        do {
            fd = try SystemCall.run("socket", { socket(address.family, LibC.streamSocket, 0) })
        } catch {
            throw UpstreamFailure(.cannotConnect, "cannot connect to \(origin.text): \(error)")
        }
        do {
            try LibC.setNonBlocking(fd)
            // A child started meanwhile must not keep the upstream's connection open (Darwin has no SOCK_CLOEXEC).
            try SystemCall.run("fcntl FD_CLOEXEC", { fcntl(fd, F_SETFD, FD_CLOEXEC) })
            var one: Int32 = 1
            // Requests are written whole; no reason to wait for more bytes before sending.
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        } catch {
            close(fd)
            throw UpstreamFailure(.cannotConnect, "cannot connect to \(origin.text): \(error)")
        }
        let result = address.withSockaddr { connect(fd, $0, $1) }
        if result == 0 {
            phase = .handshaking
        } else if errno != EINPROGRESS && errno != EINTR {
            let code = errno
            close(fd)
            throw UpstreamFailure(.cannotConnect, "cannot connect to \(origin.text): \(String(cString: strerror(code)))")
        }
    }

    deinit {
        tls = nil
        close(fd)
    }

    /// One step toward an open connection: the connect's outcome, then the TLS handshake.
    func advanceOpening(trust: UpstreamTrust?) -> TransferStep {
        if phase == .connecting {
            var code: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &size) == 0 else { return .failed(refused(errno)) }
            guard code == 0 else { return .failed(refused(code)) }
            phase = .handshaking
        }
        if phase == .handshaking {
            guard origin.secure else {
                phase = .open
                return .moved(0)
            }
            if tls == nil {
                guard let trust else { return .failed(UpstreamFailure(.tlsFailed, "no TLS trust for \(origin.text)")) }
                do { tls = try TLSClientSession(fd: fd, host: origin.host, trust: trust) } catch { return .failed(error) }
            }
            let step = tls!.handshake()
            if case .moved = step { phase = .open }
            return step
        }
        return .moved(0)
    }

    /// Sends what it can of `bytes`.
    func send(_ bytes: UnsafeRawBufferPointer) -> TransferStep {
        if let tls { return tls.send(bytes) }
        let sent = LibC.sendNoSignal(fd, bytes.baseAddress, bytes.count)
        if sent >= 0 { return .moved(sent) }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock(wantsWrite: true) }
        return .failed(UpstreamFailure(.connectionLost, "sending to \(origin.text) failed: \(String(cString: strerror(errno)))"))
    }

    /// Receives what has arrived into `buffer`.
    func receive(_ buffer: UnsafeMutableRawBufferPointer) -> TransferStep {
        if let tls { return tls.receive(buffer) }
        let got = LibC.read(fd, buffer.baseAddress, buffer.count)
        if got > 0 { return .moved(got) }
        if got == 0 { return .closed }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock(wantsWrite: false) }
        return .failed(UpstreamFailure(.connectionLost, "receiving from \(origin.text) failed: \(String(cString: strerror(errno)))"))
    }

    private func refused(_ code: Int32) -> UpstreamFailure {
        UpstreamFailure(.cannotConnect, "cannot connect to \(origin.text): \(String(cString: strerror(code)))")
    }
}
