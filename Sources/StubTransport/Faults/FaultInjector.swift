import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket calls of the faults that act below HTTP: a reset, and the refusals of heads
/// libmicrohttpd has no room to answer (raw bytes go through `RawWriter`). What to write is the
/// lifecycle's (`FaultBytes`); a failing call ends the fault early, and the connection is closed
/// either way.
package enum FaultInjector {
    /// Writes `reply` as an HTTP/1.1 response that closes the connection, then ends the sending
    /// side: for a refusal libmicrohttpd has no room left to answer itself (a head near or past
    /// its connection memory). The caller then has libmicrohttpd close the connection; anything
    /// it tries to write after this fails on the closed side, so the client reads this reply
    /// alone. Written without waiting: a refusal of a few hundred bytes fits an empty socket
    /// buffer, and a client that filled it while sending an oversized head gets what fits.
    package static func writeClosing(_ reply: Reply, to fd: Int32) {
        let headers = FaultBytes.truncatedHeaders(reply.headers)
        // What the socket takes now is what the client gets (see above); a failed socket gets nothing.
        _ = RawWriter.writeNow(ArraySlice(FaultBytes.head(status: reply.status, headers: headers, contentLength: reply.body.count) + reply.body), to: fd)
        // The connection closes next either way; a socket the client already reset answers ENOTCONN.
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Resets the connection: the kernel answers the peer with RST.
    package static func reset(_ fd: Int32) {
        // SO_LINGER 0 alone is not enough: MHD shuts down the write side first, which sends a FIN;
        // dissolving the association makes the kernel answer with RST.
        var option = linger(l_onoff: 1, l_linger: 0)
        // It fails only for a descriptor that is no socket, which libmicrohttpd's never is.
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        // It fails only for a connection already gone (the client left first): nothing is left to reset.
        try? LibC.dissolveConnection(fd)
    }
}
