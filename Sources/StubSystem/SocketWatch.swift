#if os(Linux)
import CSystem
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a loop thread (the WebSocket hub's, the HTTP/2 engine's) waits on its sockets: epoll on Linux, where a wake-up costs what the ready sockets
/// cost (10,000 idle conversations add nothing to a message's round trip); poll(2) elsewhere and
/// with `--event-loop poll`, which walks every watched socket on each wake-up. Level-triggered
/// both ways; only its owner's thread uses it.
package final class SocketWatch {
    /// A socket that is ready, by the token it was watched with.
    package struct Ready {
        package let token: UInt64
        /// Input, a hang-up or an error: reading says which.
        package let readable: Bool
        package let writable: Bool
    }

    /// Dropped for poll(2) if it ever refuses a socket (see `watch`).
    private var epoll: Int32?
    /// What each socket is watched for, and its token.
    private var watched: [Int32: (token: UInt64, read: Bool, write: Bool)] = [:]

    package init(useEpoll: Bool) {
        #if os(Linux)
        let made = useEpoll ? CSystem_epoll_create() : -1
        epoll = made >= 0 ? made : nil
        #else
        epoll = nil
        #endif
    }

    deinit {
        if let epoll { LibC.close(epoll) }
    }

    /// Watches `fd` for what is asked; a socket watched for nothing stays known, quiet.
    package func watch(_ fd: Int32, token: UInt64, read: Bool, write: Bool) {
        let known = watched[fd]
        if let known, known.token == token, known.read == read, known.write == write { return }
        watched[fd] = (token, read, write)
        #if os(Linux)
        // Refused (no memory, the user's watch limit reached), the socket would never be heard
        // from: poll(2) from here on, which needs nothing registered (`watched` is all it reads).
        if let epoll, CSystem_epoll_watch_io(epoll, fd, known == nil, read, write, token) != 0 {
            LibC.close(epoll)
            self.epoll = nil
        }
        #endif
    }

    /// Stops watching `fd`, before it is closed.
    package func forget(_ fd: Int32) {
        guard watched.removeValue(forKey: fd) != nil else { return }
        #if os(Linux)
        // It fails only for a socket epoll does not hold: nothing is left to remove.
        if let epoll { _ = CSystem_epoll_forget(epoll, fd) }
        #endif
    }

    /// Waits up to `timeoutMs` (-1: no limit) for sockets to be ready.
    package func wait(timeoutMs: Int32) -> [Ready] {
        #if os(Linux)
        if let epoll {
            var tokens = [UInt64](repeating: 0, count: 256)
            var ready = [UInt8](repeating: 0, count: 256)
            let n = CSystem_epoll_wait_io(epoll, &tokens, &ready, Int32(tokens.count), timeoutMs)
            guard n > 0 else { return [] }
            return (0..<Int(n)).map { Ready(token: tokens[$0], readable: ready[$0] & 1 != 0, writable: ready[$0] & 2 != 0) }
        }
        #endif
        let entries = Array(watched)
        var fds = entries.map { fd, watch in
            pollfd(fd: fd, events: (watch.read ? Int16(POLLIN) : 0) | (watch.write ? Int16(POLLOUT) : 0), revents: 0)
        }
        guard poll(&fds, nfds_t(fds.count), timeoutMs) > 0 else { return [] }
        return zip(entries, fds).compactMap { entry, fd in
            guard fd.revents != 0 else { return nil }
            return Ready(token: entry.value.token, readable: fd.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0,
                         writable: fd.revents & Int16(POLLOUT) != 0)
        }
    }
}
