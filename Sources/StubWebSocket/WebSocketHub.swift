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
        case next(JSONValue, subscription: String?, [Int])
    }

    private let pending = Locked<[Adoption]>([])
    private let commands = Locked<[Command]>([])
    private let book: ConversationBook
    private let wake: (read: Int32, write: Int32)
    private let count = AtomicWord<Int>(0)
    private let maxMessageBytes: Int
    /// The open conversations by id; the hub's thread only.
    private var peers: [Int: WebSocketPeer] = [:]
    private var timers = TimerHeap()
    /// The due time each conversation is in `timers` with, when it is.
    private var scheduled: [Int: UInt64] = [:]
    /// The sockets the hub's thread waits on.
    private let watch: SocketWatch
    private var thread: StoppableThread?
    private static let stopToken = UInt64.max
    private static let wakeToken = UInt64.max - 1

    /// Starts the hub's thread.
    /// `useEpoll` as the server's event loop says (`SocketWatch`).
    package init(book: ConversationBook, useEpoll: Bool, maxMessageBytes: Int = WebSocketHub.defaultMaxMessageBytes) throws(SystemCallError) {
        self.book = book
        watch = SocketWatch(useEpoll: useEpoll)
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

    package func next(_ payload: JSONValue, subscription: String?, to ids: [Int]) {
        commands.withLock { $0.append(.next(payload, subscription: subscription, ids)) }
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
        watch.watch(stopFD, token: WebSocketHub.stopToken, read: true, write: false)
        watch.watch(wake.read, token: WebSocketHub.wakeToken, read: true, write: false)
        while true {
            let now = MonotonicClock.now()
            let timeout = timers.next.map { $0 <= now ? 0 : Int32(min(($0 - now + 999_999) / 1_000_000, 60_000)) } ?? -1
            var touched = Set<Int>()
            for ready in watch.wait(timeoutMs: timeout) {
                switch ready.token {
                case WebSocketHub.stopToken: return goAway()
                case WebSocketHub.wakeToken: touched.formUnion(takePending())
                default:
                    guard let peer = peers[Int(ready.token)] else { continue }
                    if ready.readable { peer.readable() }
                    touched.insert(peer.id)
                }
            }
            let after = MonotonicClock.now()
            for (due, id) in timers.popDue(after) {
                if scheduled[id] == due { scheduled[id] = nil }
                touched.insert(id)
            }
            // Only the conversations something happened to are looked at: the rest cost nothing.
            for id in touched {
                guard let peer = peers[id] else { continue }
                peer.fire(after)
                peer.flush()
                settle(peer)
            }
        }
    }

    /// After `peer` ran: forgotten if it finished, else watched for what it waits for, and its
    /// next timer known to the heap.
    private func settle(_ peer: WebSocketPeer) {
        if peer.finished {
            // Its socket was forgotten before it was closed (`adopt`'s release).
            peers[peer.id] = nil
            scheduled[peer.id] = nil
            count.subtract(1, ordering: .relaxed)
            return
        }
        let events = peer.wantedEvents
        watch.watch(peer.fd, token: UInt64(peer.id), read: events & Int16(POLLIN) != 0, write: events & Int16(POLLOUT) != 0)
        if let due = peer.timers.lazy.map(\.due).min(), scheduled[peer.id].map({ due < $0 }) ?? true {
            scheduled[peer.id] = due
            timers.push(due, peer.id)
        }
    }

    /// Takes the adopted sockets and the admin API's commands; the conversations they touched.
    private func takePending() -> Set<Int> {
        var byte = [UInt8](repeating: 0, count: 64)
        while LibC.read(wake.read, &byte, byte.count) > 0 {}
        let taken = pending.withLock { list in
            defer { list.removeAll() }
            return list
        }
        let now = MonotonicClock.now()
        var touched = Set<Int>()
        for adoption in taken {
            // The socket leaves the watch before it is closed: its number may be reused at once.
            let fd = adoption.fd, release = adoption.release
            let peer = WebSocketPeer(fd: fd, extra: adoption.extra, open: adoption.open, book: book, maxMessageBytes: maxMessageBytes,
                                     now: now, release: { [unowned self] in self.watch.forget(fd); release() })
            peers[peer.id] = peer
            peer.readable()
            touched.insert(peer.id)
        }
        for command in commands.withLock({ list in defer { list.removeAll() }; return list }) {
            switch command {
            case .send(let payload, let ids):
                for id in ids { peers[id]?.send(payload) }
            case .close(let ids, let code, let reason):
                for id in ids { peers[id]?.end(Conversation.Ending(code: code, reason: reason), now: now) }
            case .next(let payload, let subscription, let ids):
                for id in ids { peers[id]?.pushNext(payload, subscription: subscription) }
            }
            touched.formUnion(ids(of: command))
        }
        return touched
    }

    private func ids(of command: Command) -> [Int] {
        switch command {
        case .send(_, let ids), .close(let ids, _, _), .next(_, _, let ids): ids
        }
    }

    /// Forgets the peers whose connections are closed.
    private func sweep() {
        let finished = peers.values.filter(\.finished).map(\.id)
        for id in finished { peers[id] = nil }
        if !finished.isEmpty { count.subtract(finished.count, ordering: .relaxed) }
    }

    /// The stopping server's end: 1001 to every conversation, flushed for up to 500 ms.
    private func goAway() {
        _ = takePending()
        for peer in peers.values { peer.goAway() }
        let deadline = MonotonicClock.now() &+ WebSocketHub.goingAwayNs
        while true {
            for peer in peers.values { peer.flush() }
            sweep()
            let now = MonotonicClock.now()
            let writing = peers.values.filter { $0.wantedEvents & Int16(POLLOUT) != 0 }
            guard !writing.isEmpty, now < deadline else { break }
            var fds = writing.map { pollfd(fd: $0.fd, events: Int16(POLLOUT), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), Int32((deadline - now) / 1_000_000 + 1))
        }
        for peer in peers.values { peer.finish() }
        sweep()
    }
}
