import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every open WebSocket conversation, on one thread that polls all their sockets and runs their
/// timers: no thread per connection. The transport hands over each upgraded socket with
/// `adopt`, and a function that closes it; the hub calls that function exactly once.
package final class WebSocketHub: ConversationSteering, @unchecked Sendable {
    // @unchecked: `peers` is touched only on the hub's thread; `pending` behind its lock; the
    // descriptors never change; `thread` is set once in `init` and joined in `stop`.

    /// A socket handed over, waiting for the hub's thread.
    private struct Adoption: Sendable {
        let fd: Int32
        let extra: [UInt8]
        let open: OpenConversation
        let release: @Sendable () -> Void
    }

    /// The largest message a client may send (wslay closes with 1009 beyond it): 1 MiB.
    package static let defaultMaxMessageBytes = 1 << 20
    /// How long a stopping hub waits for its 1001 close frames to go out.
    static let goingAwayNs: UInt64 = 500_000_000

    /// What the admin API asked for, waiting for the hub's thread.
    private enum Command: Sendable {
        case send(Conversation.Message.Payload, [Int])
        case close([Int], code: Int, reason: String)
    }

    private let pending = Locked<[Adoption]>([])
    private let commands = Locked<[Command]>([])
    private let book: ConversationBook
    private let wake: (read: Int32, write: Int32)
    private let count = AtomicWord<Int>(0)
    private let maxMessageBytes: Int
    private var peers: [WebSocketPeer] = []
    private var thread: StoppableThread?

    /// Starts the hub's thread.
    package init(book: ConversationBook, maxMessageBytes: Int = WebSocketHub.defaultMaxMessageBytes) throws(SystemCallError) {
        self.book = book
        self.maxMessageBytes = maxMessageBytes
        var fds: [Int32] = [-1, -1]
        try SystemCall.run("pipe") { pipe(&fds) }
        wake = (fds[0], fds[1])
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        do {
            thread = try StoppableThread(name: "stubd-websocket") { [unowned self] stopFD in self.run(stopFD: stopFD) }
        } catch {
            LibC.close(fds[0])
            LibC.close(fds[1])
            throw error
        }
    }

    /// The conversations open now.
    package var openCount: Int { count.load(ordering: .relaxed) }

    /// Takes over `fd`, an upgraded connection, for `open`; `extra` holds bytes the client sent
    /// after its handshake. `release` closes the connection, once, from the hub's thread.
    package func adopt(fd: Int32, extra: [UInt8], open: OpenConversation, release: @escaping @Sendable () -> Void) {
        pending.withLock { $0.append(Adoption(fd: fd, extra: extra, open: open, release: release)) }
        count.add(1, ordering: .relaxed)
        poke()
    }

    package func send(_ payload: Conversation.Message.Payload, to ids: [Int]) {
        commands.withLock { $0.append(.send(payload, ids)) }
        poke()
    }

    package func close(_ ids: [Int], code: Int, reason: String) {
        commands.withLock { $0.append(.close(ids, code: code, reason: reason)) }
        poke()
    }

    private func poke() {
        var byte: UInt8 = 1
        _ = LibC.write(wake.write, &byte, 1)
    }

    /// Sends every open conversation a close frame (1001, going away), waits up to 500 ms for
    /// them to leave, closes the connections and ends the thread.
    package func stop() {
        thread?.stop()
        thread = nil
        LibC.close(wake.read)
        LibC.close(wake.write)
    }

    private func run(stopFD: Int32) {
        while true {
            var fds = [pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            fds += peers.map { pollfd(fd: $0.fd, events: $0.wantedEvents, revents: 0) }
            let now = MonotonicClock.now()
            let next = peers.lazy.flatMap { $0.timers.map(\.due) }.min()
            let timeout = next.map { $0 <= now ? 0 : Int32(min(($0 - now + 999_999) / 1_000_000, 60_000)) } ?? -1
            _ = poll(&fds, nfds_t(fds.count), timeout)
            if fds[0].revents != 0 { return goAway() }
            if fds[1].revents != 0 { takePending() }
            for (i, peer) in peers.enumerated() where fds.count > i + 2 && fds[i + 2].revents != 0 {
                peer.readable()
            }
            let after = MonotonicClock.now()
            for peer in peers {
                peer.fire(after)
                peer.flush()
            }
            sweep()
        }
    }

    private func takePending() {
        var byte = [UInt8](repeating: 0, count: 64)
        while LibC.read(wake.read, &byte, byte.count) > 0 {}
        let taken = pending.withLock { list in
            defer { list.removeAll() }
            return list
        }
        let now = MonotonicClock.now()
        for adoption in taken {
            let peer = WebSocketPeer(fd: adoption.fd, extra: adoption.extra, open: adoption.open, book: book, maxMessageBytes: maxMessageBytes,
                                     now: now, release: adoption.release)
            peers.append(peer)
            peer.readable()
        }
        for command in commands.withLock({ list in defer { list.removeAll() }; return list }) {
            switch command {
            case .send(let payload, let ids):
                for peer in peers where ids.contains(peer.id) { peer.send(payload) }
            case .close(let ids, let code, let reason):
                for peer in peers where ids.contains(peer.id) { peer.end(Conversation.Ending(code: code, reason: reason), now: now) }
            }
        }
    }

    /// Forgets the peers whose connections are closed.
    private func sweep() {
        let before = peers.count
        peers.removeAll { $0.finished }
        if peers.count != before { count.subtract(before - peers.count, ordering: .relaxed) }
    }

    /// The stopping server's end: 1001 to every conversation, flushed for up to 500 ms.
    private func goAway() {
        takePending()
        for peer in peers { peer.goAway() }
        let deadline = MonotonicClock.now() &+ WebSocketHub.goingAwayNs
        while true {
            for peer in peers { peer.flush() }
            sweep()
            let now = MonotonicClock.now()
            let writing = peers.filter { $0.wantedEvents & Int16(POLLOUT) != 0 }
            guard !writing.isEmpty, now < deadline else { break }
            var fds = writing.map { pollfd(fd: $0.fd, events: Int16(POLLOUT), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), Int32((deadline - now) / 1_000_000 + 1))
        }
        for peer in peers { peer.finish() }
        sweep()
    }
}
