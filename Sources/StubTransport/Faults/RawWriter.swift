import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finishes the raw writes of faults (`truncate`, `garbage`, `slow-headers`) that a client reads
/// more slowly than they are written, on a thread of its own: a serving thread writes what the
/// socket takes at once and hands the rest over, so a slow reader never holds it up. The
/// connection waits suspended meanwhile; the bridge cancels a socket's writes before its
/// connection runs again (`cancel`), so nothing is written to a socket libmicrohttpd closed.
package final class RawWriter: Sendable {
    private struct Pending {
        var bytes: [UInt8]
        var offset = 0
        /// Called once the bytes are out or the socket failed; not after `cancel`.
        var done: (@Sendable () -> Void)?
    }

    /// The sockets with bytes still to write, and the pipe that wakes the thread.
    private struct State {
        var pending: [Int32: Pending] = [:]
        var wake: (read: Int32, write: Int32)?
    }

    private let state: Locked<State>
    private let thread: Locked<StoppableThread?>

    package init() throws(SystemCallError) {
        let wake = try LibC.makeWakePipe()
        state = Locked(State(wake: wake))
        thread = Locked(nil)
        do {
            let made = try StoppableThread(name: "stubd-rawwrite") { [state] stopFD in RawWriter.run(state, stopFD: stopFD) }
            thread.withLock { $0 = made }
        } catch {
            LibC.close(wake.read)
            LibC.close(wake.write)
            throw error
        }
    }

    /// Writes what `fd` takes now, without waiting; how many bytes, or nil when the socket failed.
    package static func writeNow(_ bytes: ArraySlice<UInt8>, to fd: Int32) -> Int? {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { LibC.sendNoSignal(fd, $0.baseAddress! + offset, $0.count - offset) }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && errno == EINTR {
                continue
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return offset
            } else {
                return nil
            }
        }
        return offset
    }

    /// True while `fd` has bytes waiting here: later bytes for it must queue behind them.
    package func hasPending(_ fd: Int32) -> Bool {
        state.withLock { $0.pending[fd] != nil }
    }

    /// Queues `bytes` for `fd` (behind any already waiting); `done` runs on the writer's thread
    /// once they are out or the socket failed, unless `cancel` came first.
    package func write(_ bytes: [UInt8], to fd: Int32, done: (@Sendable () -> Void)?) {
        let queued = state.withLock { state -> Bool in
            guard let wake = state.wake else { return false }
            if var pending = state.pending[fd] {
                pending.bytes += bytes
                if let done { pending.done = done }
                state.pending[fd] = pending
            } else {
                state.pending[fd] = Pending(bytes: bytes, done: done)
            }
            var byte: UInt8 = 1
            // A full pipe already holds a wake-up.
            _ = LibC.write(wake.write, &byte, 1)
            return true
        }
        // Stopped: nothing will be written; the connection goes on to close.
        if !queued { done?() }
    }

    /// Forgets `fd`'s bytes: its connection runs again (its wait ended, or the server stops)
    /// and may close it at once. After this returns the writer does not touch `fd`.
    package func cancel(_ fd: Int32) {
        state.withLock { _ = $0.pending.removeValue(forKey: fd) }
    }

    /// Ends the thread; what was not written is dropped (each connection closes on its resume).
    package func stop() {
        let running = thread.withLock { thread -> StoppableThread? in
            defer { thread = nil }
            return thread
        }
        running?.stop()
        state.withLock { state in
            if let wake = state.wake {
                LibC.close(wake.read)
                LibC.close(wake.write)
            }
            state.wake = nil
            state.pending.removeAll()
        }
    }

    /// Waits for room on the sockets with bytes to write, writes under the lock `cancel` takes,
    /// and calls each finished socket's `done` outside it.
    private static func run(_ state: Locked<State>, stopFD: Int32) {
        guard let wakeRead = state.withLock({ $0.wake?.read }) else { return }
        while true {
            var fds = [pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            fds += state.withLock { $0.pending.keys.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) } }
            // A failed wait (EINTR is retried) is tried again: the sockets decide, not the wait.
            guard (try? SystemCall.run("poll") { poll(&fds, nfds_t(fds.count), -1) }) != nil else { continue }
            if fds[0].revents != 0 { return }
            var scratch = [UInt8](repeating: 0, count: 64)
            while LibC.read(wakeRead, &scratch, scratch.count) > 0 {}
            var finished: [@Sendable () -> Void] = []
            state.withLock { state in
                for entry in fds.dropFirst(2) where entry.revents != 0 {
                    guard var pending = state.pending[entry.fd] else { continue }
                    let written = writeNow(pending.bytes[pending.offset...], to: entry.fd)
                    pending.offset += written ?? 0
                    if written == nil || pending.offset == pending.bytes.count {
                        state.pending[entry.fd] = nil
                        if let done = pending.done { finished.append(done) }
                    } else {
                        state.pending[entry.fd] = pending
                    }
                }
            }
            for done in finished { done() }
        }
    }
}
