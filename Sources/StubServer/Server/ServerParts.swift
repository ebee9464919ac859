import StubCore
import StubTransport
import StubSystem
import StubHTTP2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything a server starts that must be stopped: threads, daemons, descriptors. `StubServer`
/// adds each part as it starts it, and every way down goes through `stop`: a failed start stops
/// what had started, in the same order a running server stops. Nothing else stops a part.
final class ServerParts: @unchecked Sendable {
    // @unchecked: written by the starting thread before the server is shared, then only by
    // `stop`, which `StubServer` calls under its own lock.

    /// Listening sockets not yet owned by a daemon (a started daemon closes its own).
    var sockets: [ListenSocket] = []
    var log: AccessLog?
    var sweeper: HeaderTimeoutSweeper?
    var bridge: RequestBridge?
    var control: StubControl?
    /// True once the fleet's worker was started (`SharedStateStore.start`).
    var fleetStarted = false
    var watcher: StubWatcher?
    var daemons: [MHDDaemon] = []
    /// The HTTPS front and its HTTP/2 connections, when HTTP/2 is on; it owns the HTTPS listeners.
    var h2: H2Engine?
    var unmatched: (any UnmatchedRequestHandler)?

    /// Hands `socket`'s ownership to a daemon that started on it.
    func socketTaken(_ socket: ListenSocket) {
        sockets.removeAll { $0.fd == socket.fd }
    }

    /// How long `stop` lets suspended connections finish before it cuts them.
    static let drainMs = 2000

    /// Stops every part, the last started first where order matters: no more reloads; the HTTPS
    /// front stops accepting and its HTTP/2 streams end (waiting ones answered, then GOAWAY); each open
    /// WebSocket conversation hears the server going away (1001); suspended connections run
    /// again and end (libmicrohttpd aborts the process if a daemon stops while one is suspended);
    /// the timers and jobs end; upstream calls finish and recorded stubs are written; the daemons
    /// stop and close their sockets; the fleet's last journal entries go to the store; the
    /// access log drains. Safe to call twice. False when connections stayed suspended even after
    /// their sockets were shut: then the daemons are left running (and this object with them)
    /// rather than abort the process.
    @discardableResult
    func stop() -> Bool {
        watcher?.stop()
        watcher = nil
        // The front first: it hands sockets to the daemons, and its held streams answer now.
        h2?.stop()
        h2 = nil
        if let bridge {
            bridge.webSockets.stop()
            if !daemons.isEmpty && !drain(bridge) {
                StandardStreams.write("stubd: connections still suspended after their sockets were shut; leaving the daemon running\n",
                                      to: STDERR_FILENO)
                return false
            }
            bridge.stopThreads()
        }
        unmatched?.stop()
        unmatched = nil
        sweeper?.stop()
        sweeper = nil
        for daemon in daemons { daemon.stop() }
        daemons = []
        bridge = nil
        for socket in sockets { socket.closeIfStillOurs() }
        sockets = []
        // The conversation record lets go of the hub it steered.
        control?.conversations.attach(nil)
        if fleetStarted { control?.shared?.stop() }
        fleetStarted = false
        control = nil
        log?.stop()
        log = nil
        return true
    }

    /// Resumes every suspended connection and waits for each to end; one that does not within
    /// `drainMs` has its socket shut, which libmicrohttpd's next read or write on it notices.
    private func drain(_ bridge: RequestBridge) -> Bool {
        let suspensions = bridge.suspensions
        if suspensions.drain(timeoutMs: ServerParts.drainMs) { return true }
        suspensions.shutSuspendedSockets()
        return suspensions.drain(timeoutMs: ServerParts.drainMs * 5)
    }
}
