import CSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Socket options set on descriptors stubd hands between threads and libraries.
extension LibC {
    /// Accepts a connection waiting on `listener`, non-blocking and closed on exec; -1 when none
    /// waits (or the accept failed: the loop that called waits for the listener again).
    package static func acceptNonBlocking(_ listener: Int32, _ address: UnsafeMutablePointer<sockaddr>,
                                          _ length: UnsafeMutablePointer<socklen_t>) -> Int32 {
        #if os(Linux)
        return CSystem_accept_nonblocking(listener, address, length)
        #else
        let fd = accept(listener, address, length)
        guard fd >= 0 else { return fd }
        do {
            try setNonBlocking(fd)
            // Only a bad descriptor fails it, and this one was just made.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        } catch {
            close(fd)
            return -1
        }
        return fd
        #endif
    }

    /// Makes `fd` non-blocking: reads and writes answer EAGAIN instead of waiting.
    package static func setNonBlocking(_ fd: Int32) throws(SystemCallError) {
        let flags = try SystemCall.run("fcntl F_GETFL") { fcntl(fd, F_GETFL) }
        try SystemCall.run("fcntl F_SETFL O_NONBLOCK") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Turns Nagle's algorithm off on a TCP socket: small writes go out at once instead of
    /// waiting for the peer's (delayed) acknowledgement of the last one. Fails with ENOTSUP or
    /// EOPNOTSUPP on a socket that is not TCP (a socket pair).
    package static func setNoDelay(_ fd: Int32) throws(SystemCallError) {
        var one: Int32 = 1
        try SystemCall.run("setsockopt TCP_NODELAY") {
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// Makes the kernel abort a TCP connection whose sent data stays unacknowledged, or unsent
    /// for a zero window (a client that stopped reading), for `ms` milliseconds: TCP_USER_TIMEOUT,
    /// Linux only; nothing elsewhere (libmicrohttpd's idle timer stays on there).
    package static func abortStalledSends(_ fd: Int32, afterMs ms: Int) throws(SystemCallError) {
        #if os(Linux)
        var value = UInt32(clamping: ms)
        try SystemCall.run("setsockopt TCP_USER_TIMEOUT") {
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT, &value, socklen_t(MemoryLayout<UInt32>.size))
        }
        #endif
    }
}

extension LibC {
    /// True when a connected socket is finished: the peer closed it (a read would return end of
    /// file) or it failed (reset). One non-blocking peek, which leaves waiting bytes in place.
    package static func connectionFinished(_ fd: Int32) -> Bool {
        let (n, code) = peek(fd)
        return n == 0 || (n < 0 && code != EAGAIN && code != EWOULDBLOCK && code != EINTR)
    }
}

extension LibC {
    /// shutdown(2) of both directions, for types whose own `shutdown` method hides the global
    /// function. Fails with ENOTCONN for a socket already shut or reset: callers that close it
    /// anyway ignore that.
    @discardableResult
    package static func shutdownBoth(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
        #else
        Darwin.shutdown(fd, SHUT_RDWR)
        #endif
    }
}

extension LibC {
    /// The inode of the file or socket open as `fd`, or nil when `fd` is not open: with it, a
    /// descriptor handed to a library that may have closed it can be told from a new one that
    /// reused its number.
    package static func inode(of fd: Int32) -> UInt64? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return UInt64(info.st_ino)
    }
}

extension LibC {
    /// A pipe for waking a thread that waits in poll(2), non-blocking both ways: a wake-up never
    /// waits on a full pipe (a full one already holds a wake-up), and the drain stops at an empty
    /// one. On failure nothing is left open.
    package static func makeWakePipe() throws(SystemCallError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        try SystemCall.run("pipe") { pipe(&fds) }
        do {
            for fd in fds { try setNonBlocking(fd) }
        } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
        return (fds[0], fds[1])
    }
}
