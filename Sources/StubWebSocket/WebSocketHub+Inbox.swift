import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What other threads hand the hub's thread: adopted sockets and the admin API's commands; and
/// the stopping server's last turn.
extension WebSocketHub {
    /// Takes the adopted sockets and the admin API's commands; the conversations they touched.
    func takeInbox(_ wakeRead: Int32, now: UInt64) -> Set<Int> {
        var scratch = [UInt8](repeating: 0, count: 64)
        while LibC.read(wakeRead, &scratch, scratch.count) > 0 {}
        let (adoptions, commands) = inbox.withLock { inbox in
            defer {
                inbox.adoptions.removeAll()
                inbox.commands.removeAll()
            }
            return (inbox.adoptions, inbox.commands)
        }
        var touched = Set<Int>()
        for adoption in adoptions {
            // The socket leaves the watch before it is closed: its number may be reused at once.
            let fd = adoption.fd, release = adoption.release
            let peer = WebSocketPeer(fd: fd, extra: adoption.extra, open: adoption.open, book: book, limits: limits, now: now,
                                     release: { [unowned self] in self.watch.forget(fd); release() })
            peers[peer.id] = peer
            peer.readable()
            touched.insert(peer.id)
        }
        for command in commands {
            switch command {
            case .send(let payload, let ids):
                for id in ids { peers[id]?.now = now; peers[id]?.send(payload) }
            case .close(let ids, let code, let reason):
                for id in ids { peers[id]?.now = now; peers[id]?.end(Conversation.Ending(code: code, reason: reason)) }
            case .next(let payload, let subscription, let ids):
                for id in ids { peers[id]?.now = now; peers[id]?.pushNext(payload, subscription: subscription) }
            }
            switch command {
            case .send(_, let ids), .close(let ids, _, _), .next(_, _, let ids): touched.formUnion(ids)
            }
        }
        return touched
    }

    /// The stopping server's end: 1001 to every conversation, flushed for up to 500 ms, then
    /// every connection closed.
    func goAway() {
        guard let wakeRead = inbox.withLock({ $0.wake?.read }) else { return }
        _ = takeInbox(wakeRead, now: MonotonicClock.now())
        for peer in peers.values { peer.goAway() }
        let deadline = MonotonicClock.now() &+ WebSocketHub.goingAwayNs
        while true {
            let now = MonotonicClock.now()
            for peer in peers.values {
                peer.now = now
                peer.flush()
            }
            forgetFinished()
            let writing = peers.values.filter { $0.wantedEvents.write }
            guard !writing.isEmpty, now < deadline else { break }
            var fds = writing.map { pollfd(fd: $0.fd, events: Int16(POLLOUT), revents: 0) }
            // A failed or interrupted wait only ends this round early: the deadline still holds.
            _ = try? SystemCall.run("poll") { poll(&fds, nfds_t(fds.count), Int32((deadline - now) / 1_000_000 + 1)) }
        }
        for peer in peers.values { peer.finish() }
        forgetFinished()
    }

    /// Forgets the peers whose connections are closed, giving back their places.
    private func forgetFinished() {
        for peer in peers.values where peer.finished { forget(peer) }
    }
}
