import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket calls of the faults that act below HTTP: raw bytes written to the client, and a
/// reset; and the refusals of heads libmicrohttpd has no room to answer. What to write is the
/// lifecycle's (`FaultBytes`); a failing call ends the fault early, and the connection is closed
/// either way.
package enum FaultInjector {
    /// Writes `bytes` whole to the client socket, ignoring a client that is gone.
    package static func write(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { LibC.sendNoSignal(fd, $0.baseAddress! + offset, $0.count - offset) }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && errno == EINTR {
                continue
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                // The socket is non-blocking and its buffer full: wait for room, briefly.
                var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                guard poll(&entry, 1, 1000) > 0 else { return }
            } else {
                return
            }
        }
    }

    /// Writes `reply` whole as an HTTP/1.1 response that closes the connection, then ends the
    /// sending side: for a refusal libmicrohttpd has no room left to answer itself (a head near
    /// or past its connection memory). The caller then has libmicrohttpd close the connection;
    /// anything it tries to write after this fails on the closed side, so the client reads this
    /// reply alone.
    package static func writeClosing(_ reply: Reply, to fd: Int32) {
        let headers = FaultBytes.truncatedHeaders(reply.headers)
        write(FaultBytes.head(status: reply.status, headers: headers, contentLength: reply.body.count) + reply.body, to: fd)
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Resets the connection: the kernel answers the peer with RST.
    package static func reset(_ fd: Int32) {
        // SO_LINGER 0 alone is not enough: MHD shuts down the write side first, which sends a FIN;
        // dissolving the association makes the kernel answer with RST.
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        try? LibC.dissolveConnection(fd)
    }
}
