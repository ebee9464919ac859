import Dispatch
import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTP/1.1 calls to upstreams with no thread per call: one thread polls every connection and
/// advances each `UpstreamCall` when its socket is ready; host names are resolved beside it on
/// a serial queue (and kept 30 s). Up to `maxConnectionsPerHost` calls go to one origin at
/// once, later ones wait their turn; finished connections the upstream keeps alive are reused.
///
/// @unchecked Sendable: `inbox` is behind its lock and the wake pipe is written from any
/// thread; every other property is touched only on the client's thread (or by `stop` after
/// joining it).
final class UpstreamClient: @unchecked Sendable {
    /// Calls to one origin at once (URLSession's default of 6 made a fast call wait behind slow ones).
    static let maxConnectionsPerHost = 256
    /// Open connections kept per origin between calls, and for how long.
    static let maxIdlePerHost = 32
    static let idleLimitMs = 30_000
    /// How long a resolved address list is used before the name is resolved again.
    static let resolvedForMs = 30_000

    struct Inbox {
        var calls: [UpstreamCall] = []
        var resolutions: [(UpstreamOrigin, Result<[SocketAddress], UpstreamFailure>)] = []
        var stopping = false
    }

    let trust: UpstreamTrust?
    private let wake: (read: Int32, write: Int32)
    let inbox = Locked(Inbox())
    let resolver = DispatchQueue(label: "stubd.upstream.resolve")
    let resolved = Locked<[UpstreamOrigin: (addresses: [SocketAddress], untilMs: Int)]>([:])
    private var thread: pthread_t?
    // The client thread's own state.
    var active: [ObjectIdentifier: UpstreamCall] = [:]
    var queued: [UpstreamCall] = []
    var resolving: [UpstreamOrigin: [UpstreamCall]] = [:]
    var counts: [UpstreamOrigin: Int] = [:]
    var idle: [UpstreamOrigin: [UpstreamSocket]] = [:]

    /// A client with its thread running. `trust` checks HTTPS upstreams (nil: plain HTTP only).
    init(trust: UpstreamTrust?) throws(UpstreamFailure) {
        self.trust = trust
        // Non-blocking both ways: `poke` never waits on a full pipe, the thread's drain never on an empty one.
        do { wake = try LibC.makeWakePipe() } catch { throw UpstreamFailure(.cancelled, "the proxy cannot start: \(error)") }
        switch LibC.startThread(name: "stubd-upstream", { [self] in run() }) {
        case .success(let started): thread = started
        case .failure(let error):
            // `self` is whole by now: its deinit closes the wake pipe.
            throw UpstreamFailure(.cancelled, "the proxy cannot start: \(error)")
        }
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    static func nowMs() -> Int { Int(StubControl.monotonicSeconds() * 1000) }

    /// Starts `request` to `origin`; `completion` runs once, on the client's thread.
    func send(_ request: UpstreamRequest, to origin: UpstreamOrigin, maxBodyBytes: Int, completion: @escaping UpstreamCall.Completion) {
        let call = UpstreamCall(request, origin: origin, maxBodyBytes: maxBodyBytes, nowMs: UpstreamClient.nowMs(), completion: completion)
        let accepted = inbox.withLock { box -> Bool in
            guard !box.stopping else { return false }
            box.calls.append(call)
            return true
        }
        guard accepted else { return completion(.failure(UpstreamFailure(.cancelled, "stubd is stopping"))) }
        poke()
    }

    /// Ends every call still waiting (each fails as cancelled) and stops the thread. Safe to call twice.
    func stop() {
        inbox.withLock { $0.stopping = true }
        poke()
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    func poke() {
        var byte: UInt8 = 1
        // A full pipe already holds a wake-up: EAGAIN loses nothing.
        _ = LibC.write(wake.write, &byte, 1)
    }

    private func run() {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { scratch.deallocate() }
        while true {
            let (calls, resolutions, stopping) = inbox.withLock { box in
                defer { box.calls = []; box.resolutions = [] }
                return (box.calls, box.resolutions, box.stopping)
            }
            if stopping { return endAll(with: calls) }
            for (origin, result) in resolutions { takeResolution(origin, result, scratch: scratch) }
            for call in calls { admit(call, scratch: scratch) }
            waitForSockets(scratch: scratch)
            expire(scratch: scratch)
        }
    }

    /// Polls the wake pipe and every waiting socket until one is ready, a deadline passes, or
    /// a second goes by; then advances the calls whose sockets are ready.
    private func waitForSockets(scratch: UnsafeMutableRawBufferPointer) {
        let waiting = active.values.filter { $0.socket != nil && $0.wanted != nil }
        var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        fds += waiting.map { pollfd(fd: $0.socket!.fd, events: $0.wanted!, revents: 0) }
        let now = UpstreamClient.nowMs()
        let soonest = (active.values.map(\.deadlineMs) + queued.map(\.deadlineMs) + resolving.values.flatMap { $0.map(\.deadlineMs) }).min()
        let timeout = max(0, min(1000, (soonest ?? now + 1000) - now))
        guard poll(&fds, nfds_t(fds.count), Int32(timeout)) > 0 else { return }
        if fds[0].revents != 0 {
            var sink = [UInt8](repeating: 0, count: 256)
            while LibC.read(wake.read, &sink, sink.count) > 0 {}
        }
        for (i, call) in waiting.enumerated() where fds[i + 1].revents != 0 { drive(call, scratch: scratch) }
    }
}
