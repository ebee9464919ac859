import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's subscriber thread: it listens on the change and release channels. A change notice
/// asks the worker for a refresh; a release notice wakes this replica's requests named in it.
/// It waits with poll on the connection and the stop descriptor, so stopping never waits for the
/// store; a lost connection is opened again (and a refresh asked for: notices may have been missed).
final class FleetSubscriber: @unchecked Sendable {
    // @unchecked: the connection is used by the subscriber thread only (and by `start`, which
    // subscribes before that thread exists).
    private let store: RedisControlState
    private var connection: RedisConnection?

    init(store: RedisControlState) {
        self.store = store
    }

    /// The loop; returns when `stopFD` becomes readable.
    func run(stopFD: Int32) {
        while true {
            guard let connection else {
                if waitForStop(stopFD, ms: 250) { return }
                if store.isReachable { subscribe() }
                continue
            }
            var fds = [pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0), pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, 1000) >= 0 else { continue }
            if fds[0].revents != 0 { return }
            guard fds[1].revents != 0 else { continue }
            do {
                try connection.readAvailable()
                while let reply = try connection.bufferedReply() { handle(reply) }
            } catch {
                self.connection = nil
            }
        }
    }

    private func waitForStop(_ fd: Int32, ms: Int32) -> Bool {
        var stopper = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&stopper, 1, ms) > 0
    }

    /// Opens the connection and subscribes; on failure the loop tries again.
    func subscribe() {
        do {
            let c = try RedisConnection(store.url, timeoutMs: 2000, cutoff: store.cutoff)
            try c.append(["SUBSCRIBE", FleetKeys.changes, FleetKeys.release])
            for _ in 0..<2 { _ = try c.nextReply() }
            connection = c
            store.askRefresh()
        } catch {
            connection = nil
        }
    }

    /// `["message", channel, payload]`.
    private func handle(_ reply: RedisReply) {
        let parts = reply.elements
        guard parts.count == 3, parts[0].text == "message", let channel = parts[1].text, let payload = parts[2].text else { return }
        switch channel {
        case FleetKeys.changes: store.askRefresh()
        case FleetKeys.release: store.heardRelease(payload)
        default: break
        }
    }
}
