import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every open WebSocket conversation, on one thread that polls all their sockets and runs their
/// timers: no thread per connection. The transport reserves a place (`reserve`) before it sends a
/// 101 and hands over each upgraded socket with `adopt`, and a function that closes it; the hub
/// calls that function exactly once.
///
/// One client cannot starve the rest: each turn reads a slice of each ready client
/// (`WebSocketLimits.readSliceBytes`), and a client whose queue passes its bound is not read
/// until it drains (`WebSocketLimits.queueBytes`, `totalQueueBytes`).
package final class WebSocketHub: ConversationSteering, ConversationRoom, @unchecked Sendable {
    // @unchecked: `peers`, `timers`, `scheduled` and `totalQueued` are touched only on the hub's
    // thread; `inbox` behind its lock; `thread` is set once in `init` and cleared in `stop`,
    // which the owner calls once.

    /// A socket handed over, waiting for the hub's thread.
    struct Adoption: Sendable {
        let fd: Int32
        let extra: [UInt8]
        let open: OpenConversation
        let release: @Sendable () -> Void
    }

    /// What the admin API asked for, waiting for the hub's thread.
    enum Command: Sendable {
        case send(Conversation.Message.Payload, [Int])
        case close([Int], code: Int, reason: String)
        case next(JSONValue, subscription: String?, [Int])
    }

    /// What other threads leave for the hub's thread, and the pipe that wakes it. Once stopped,
    /// nothing more is taken and the pipe is closed: a late `poke` writes to no descriptor.
    struct Inbox {
        var adoptions: [Adoption] = []
        var commands: [Command] = []
        var wake: (read: Int32, write: Int32)?
    }

    /// How long a stopping hub waits for its 1001 close frames to go out.
    static let goingAwayNs: UInt64 = 500_000_000

    let inbox: Locked<Inbox>
    let book: ConversationBook
    let limits: WebSocketLimits
    /// Places taken: open conversations and 101s on their way.
    private let places = AtomicWord<Int>(0)
    /// The open conversations by id; the hub's thread only.
    var peers: [Int: WebSocketPeer] = [:]
    /// Which conversation has something due when.
    private var timers = TimerHeap<Int>()
    /// The due time each conversation is in `timers` with, when it is.
    private var scheduled: [Int: UInt64] = [:]
    /// Bytes queued for all clients, as last counted.
    private var totalQueued = 0
    /// The sockets the hub's thread waits on.
    let watch: SocketWatch
    private var thread: StoppableThread?
    static let stopToken = UInt64.max
    static let wakeToken = UInt64.max - 1

    /// Starts the hub's thread. `useEpoll` as the server's event loop says (`SocketWatch`).
    package init(book: ConversationBook, useEpoll: Bool, limits: WebSocketLimits = WebSocketLimits()) throws(SystemCallError) {
        self.book = book
        self.limits = limits
        let wake = try LibC.makeWakePipe()
        inbox = Locked(Inbox(wake: wake))
        watch = SocketWatch(useEpoll: useEpoll)
        do {
            thread = try StoppableThread(name: "stubd-websocket") { [unowned self] stopFD in self.run(stopFD: stopFD) }
        } catch {
            LibC.close(wake.read)
            LibC.close(wake.write)
            throw error
        }
    }

    /// Takes a place for a conversation about to open; false when `limits.conversations` are taken.
    package func reserve() -> Bool {
        var current = places.load(ordering: .relaxed)
        while current < limits.conversations {
            let (exchanged, seen) = places.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = seen
        }
        return false
    }

    /// Gives back a place whose 101 was never sent.
    package func unreserve() {
        places.subtract(1, ordering: .relaxed)
    }

    /// Takes over `fd`, an upgraded connection, for `open`, in a place `reserve` took; `extra`
    /// holds bytes the client sent after its handshake. `release` closes the connection, once,
    /// from the hub's thread (or at once, from here, when the hub has stopped).
    package func adopt(fd: Int32, extra: [UInt8], open: OpenConversation, release: @escaping @Sendable () -> Void) {
        let taken = inbox.withLock { inbox in
            guard inbox.wake != nil else { return false }
            inbox.adoptions.append(Adoption(fd: fd, extra: extra, open: open, release: release))
            return true
        }
        guard taken else {
            unreserve()
            return release()
        }
        poke()
    }

    package func send(_ payload: Conversation.Message.Payload, to ids: [Int]) { command(.send(payload, ids)) }

    package func next(_ payload: JSONValue, subscription: String?, to ids: [Int]) {
        command(.next(payload, subscription: subscription, ids))
    }

    package func close(_ ids: [Int], code: Int, reason: String) { command(.close(ids, code: code, reason: reason)) }

    private func command(_ command: Command) {
        inbox.withLock { inbox in
            guard inbox.wake != nil else { return }
            inbox.commands.append(command)
        }
        poke()
    }

    /// Wakes the hub's thread; nothing once it has stopped.
    private func poke() {
        inbox.withLock { inbox in
            guard let wake = inbox.wake else { return }
            var byte: UInt8 = 1
            // A full pipe already holds a wake-up: EAGAIN loses nothing.
            _ = LibC.write(wake.write, &byte, 1)
        }
    }

    /// Sends every open conversation a close frame (1001, going away), waits up to 500 ms for
    /// them to leave, closes the connections and ends the thread. Safe to call twice.
    package func stop() {
        thread?.stop()
        thread = nil
        let left = inbox.withLock { inbox -> [Adoption] in
            if let wake = inbox.wake {
                LibC.close(wake.read)
                LibC.close(wake.write)
            }
            inbox.wake = nil
            defer { inbox.adoptions.removeAll() }
            return inbox.adoptions
        }
        // Sockets handed over after the thread's last look: closed unheard.
        for adoption in left {
            unreserve()
            adoption.release()
        }
    }

    private func run(stopFD: Int32) {
        guard let wakeRead = inbox.withLock({ $0.wake?.read }) else { return }
        watch.watch(stopFD, token: WebSocketHub.stopToken, read: true, write: false)
        watch.watch(wakeRead, token: WebSocketHub.wakeToken, read: true, write: false)
        while true {
            var now = MonotonicClock.now()
            let timeout = timers.next.map { $0 <= now ? 0 : Int32(min(($0 - now + 999_999) / 1_000_000, 60_000)) } ?? -1
            var touched = Set<Int>()
            let ready = watch.wait(timeoutMs: timeout)
            now = MonotonicClock.now()
            for event in ready {
                switch event.token {
                case WebSocketHub.stopToken: return goAway()
                case WebSocketHub.wakeToken: touched.formUnion(takeInbox(wakeRead, now: now))
                default:
                    guard let peer = peers[Int(event.token)] else { continue }
                    peer.now = now
                    if event.readable { peer.readable() }
                    touched.insert(peer.id)
                }
            }
            for (due, id) in timers.popDue(now) {
                if scheduled[id] == due { scheduled[id] = nil }
                touched.insert(id)
            }
            // Only the conversations something happened to are looked at: the rest cost nothing.
            for id in touched {
                guard let peer = peers[id] else { continue }
                peer.now = now
                peer.fire()
                peer.flush()
                settle(peer)
            }
        }
    }

    /// After `peer` ran: forgotten if it finished, else its queue counted (and bounded), watched
    /// for what it waits for, and its next timer known to the heap.
    private func settle(_ peer: WebSocketPeer) {
        if !peer.finished { bound(peer) }
        if peer.finished { return forget(peer) }
        let events = peer.wantedEvents
        watch.watch(peer.fd, token: UInt64(peer.id), read: events.read, write: events.write)
        if let due = peer.timers.next, scheduled[peer.id].map({ due < $0 }) ?? true {
            scheduled[peer.id] = due
            timers.push(due, peer.id)
        }
    }

    /// Lets go of a finished peer and gives back its place. Its socket was forgotten by the watch
    /// before it was closed (`adopt`'s release).
    func forget(_ peer: WebSocketPeer) {
        totalQueued -= peer.countedQueue
        peers[peer.id] = nil
        scheduled[peer.id] = nil
        unreserve()
    }

    /// Counts what waits for `peer`'s client: past its bound the client is not read until half
    /// of it is gone; past four times that (what the script or the admin API pushed to a client
    /// that reads nothing), or past its own bound while all queues together pass theirs, the
    /// conversation is closed with 1008.
    private func bound(_ peer: WebSocketPeer) {
        let queued = peer.queuedBytes
        totalQueued += queued - peer.countedQueue
        peer.countedQueue = queued
        let overTotal = totalQueued >= limits.totalQueueBytes
        if queued >= limits.closingQueueBytes || (overTotal && queued >= limits.queueBytes) {
            peer.overflow(queued: queued)
            peer.flush()
        }
        if queued >= limits.queueBytes || (overTotal && queued > 0) {
            peer.readPaused = true
        } else if peer.readPaused && queued < limits.queueBytes / 2 && !overTotal {
            peer.readPaused = false
        }
    }
}
