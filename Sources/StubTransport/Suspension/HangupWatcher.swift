import StubCore
#if os(Linux)
internal import CSystem
#endif
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Notices clients that close their connection while it is suspended, which libmicrohttpd does
/// not (it polls no suspended socket): a delayed, held or streaming request whose client left is
/// then woken at once instead of at its deadline. One thread for every suspended connection.
///
/// Two ways of watching: on Linux, epoll with `EPOLLRDHUP` (a FIN wakes it, pipelined bytes do
/// not); elsewhere, and on Linux with `--event-loop poll`, a scan every 100 ms that peeks each
/// readable socket for end of file. A TLS client's closing alert arrives as bytes before its FIN,
/// so the scan misses TLS clients; epoll does not.
package final class HangupWatcher: @unchecked Sendable {
    // @unchecked: `watched` is behind its lock; the descriptors never change after init.
    private let epoll: Int32?
    private let stopPipe: (read: Int32, write: Int32)
    private let watched = Locked<[Int32: UInt64]>([:])
    private let onHangup: @Sendable (UInt64) -> Void
    private var thread: pthread_t?

    /// Starts the watching thread; `onHangup` gets the ticket of each client seen leaving.
    package init(useEpoll: Bool, onHangup: @escaping @Sendable (UInt64) -> Void) throws(SystemCallError) {
        self.onHangup = onHangup
        var fds: [Int32] = [-1, -1]
        try SystemCall.run("pipe") { pipe(&fds) }
        stopPipe = (fds[0], fds[1])
        #if os(Linux)
        var made = useEpoll ? CSystem_epoll_create() : -1
        // Without its stop pipe, the epoll thread could never be stopped: the scan instead.
        if made >= 0 && CSystem_epoll_watch_input(made, stopPipe.read, UInt64.max) != 0 {
            close(made)
            made = -1
        }
        epoll = made >= 0 ? made : nil
        #else
        epoll = nil
        #endif
        do {
            thread = try BackgroundThread.start(name: "stubd-hangup") { [self] in
                if let epoll { runEpoll(epoll) } else { runScan() }
            }
        } catch {
            close(fds[0])
            close(fds[1])
            if let epoll { close(epoll) }
            throw error
        }
    }

    /// Watches `fd` for its client leaving; `ticket` is what `onHangup` will get.
    package func watch(_ fd: Int32, ticket: UInt64) {
        watched.withLock { $0[fd] = ticket }
        #if os(Linux)
        // Refused (no memory, the watch limit), a client that leaves is found at its deadline, as without a watcher.
        if let epoll { _ = CSystem_epoll_watch_hangup(epoll, fd, ticket) }
        #endif
    }

    /// Stops watching `fd` (its connection runs again, or ended).
    package func unwatch(_ fd: Int32) {
        guard watched.withLock({ $0.removeValue(forKey: fd) }) != nil else { return }
        #if os(Linux)
        // It fails only for a socket whose watch was refused: nothing is left to remove.
        if let epoll { _ = CSystem_epoll_forget(epoll, fd) }
        #endif
    }

    /// Shuts every watched socket, under the lock `unwatch` takes: a connection lets go of its
    /// socket only after it is unwatched, so no socket is touched after its connection closed it.
    package func shutWatched() {
        // A socket already shut or reset by its client answers ENOTCONN: it is closing anyway.
        watched.withLock { watched in for fd in watched.keys { LibC.shutdownBoth(fd) } }
    }

    /// Stops the thread. Safe to call twice.
    func stop() {
        guard let thread else { return }
        var byte: UInt8 = 1
        // One byte into the thread's own empty pipe, which nothing else writes: it cannot fail.
        _ = LibC.write(stopPipe.write, &byte, 1)
        pthread_join(thread, nil)
        self.thread = nil
        close(stopPipe.read)
        close(stopPipe.write)
        if let epoll { close(epoll) }
    }

    private func runEpoll(_ epoll: Int32) {
        #if os(Linux)
        var datas = [UInt64](repeating: 0, count: 64)
        while true {
            let n = CSystem_epoll_wait(epoll, &datas, Int32(datas.count), -1)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return }
            for data in datas.prefix(Int(n)) {
                if data == UInt64.max { return }
                onHangup(data)
            }
        }
        #endif
    }

    /// The portable way: every 100 ms, the readable sockets are peeked for end of file.
    private func runScan() {
        var stop = pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)
        while poll(&stop, 1, 100) == 0 || (stop.revents == 0) {
            let all = watched.withLock { $0 }
            guard !all.isEmpty else { continue }
            var fds = all.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), 0) > 0 else { continue }
            for entry in fds where entry.revents != 0 && (entry.revents & Int16(POLLHUP) != 0 || LibC.peerClosed(entry.fd)) {
                if let ticket = all[entry.fd] { onHangup(ticket) }
            }
        }
    }
}
