import StubCore

/// A streamed body: events sent as they fall due, through libmicrohttpd's content reader with
/// chunked encoding. When the next event is not due the reader suspends the connection and the
/// delay timer resumes it, as for throttled bodies, so ten thousand open streams hold no thread.
/// It also paces a throttle, cuts the connection after `cutAfter` events, holds a `keepOpen`
/// stream until the hold cap (`--hold-cap`), and reports how it ended once libmicrohttpd frees it.
final class StreamedBody: PulledBody {
    let plan: PlannedStream
    let connection: MHDConnection
    let suspensions: SuspendedConnections
    let bytesPerSecond: Int?
    let holdUntilNs: UInt64
    private let finished: (_ eventsSent: Int, _ clientGone: Bool) -> Void
    private var startNs: UInt64 = 0
    private var next = 0
    private var offsetInEvent = 0
    private var sentBytes = 0
    private var cutDueNs: UInt64?
    private var ended = false
    /// Set through `suspensions` only.
    private var suspension = SuspensionMark()

    /// `finished` is called once, when libmicrohttpd frees the response.
    init(plan: PlannedStream, connection: MHDConnection, suspensions: SuspendedConnections, bytesPerSecond: Int?, holdCapNs: UInt64,
         finished: @escaping (_ eventsSent: Int, _ clientGone: Bool) -> Void) {
        self.plan = plan
        self.connection = connection
        self.suspensions = suspensions
        self.bytesPerSecond = bytesPerSecond
        holdUntilNs = holdCapNs
        self.finished = finished
        super.init()
    }

    /// Copies what is due into `buffer`, or suspends until it is (the offset is its own to keep).
    override func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        suspensions.didResume(&suspension)
        if suspensions.isStopping { return .abort }
        let now = MonotonicClock.now()
        if startNs == 0 { startNs = now }
        if let cut = plan.cutAfter, next >= cut, offsetInEvent == 0 { return cutConnection(now: now) }
        guard next < plan.events.count else {
            if plan.keepOpen, now < startNs &+ holdUntilNs { return wait(until: startNs &+ holdUntilNs) }
            ended = true
            return .end
        }
        var due = startNs + UInt64(plan.dueMs[next]) * 1_000_000
        if let rate = bytesPerSecond { due = max(due, startNs + UInt64(sentBytes) * 1_000_000_000 / UInt64(rate)) }
        if due > now + 1_000_000 { return wait(until: due) }
        let event = plan.events[next].bytes
        var count = min(buffer.count, event.count - offsetInEvent)
        if let rate = bytesPerSecond { count = min(count, max(1, min(1024, rate / 10))) }
        event.withUnsafeBytes { raw in buffer.baseAddress!.copyMemory(from: raw.baseAddress! + offsetInEvent, byteCount: count) }
        offsetInEvent += count
        sentBytes += count
        if offsetInEvent == event.count {
            next += 1
            offsetInEvent = 0
        }
        return .copied(count)
    }

    /// After `cutAfter` events: wait a moment so libmicrohttpd has written them, then reset.
    private func cutConnection(now: UInt64) -> ReadResult {
        guard let due = cutDueNs else {
            cutDueNs = now + 20_000_000
            return wait(until: now + 20_000_000)
        }
        if due > now + 1_000_000 { return wait(until: due) }
        if let socket = connection.socket { FaultInjector.inject(.reset, socket: socket, status: 0, headers: [], body: []) }
        ended = true
        return .abort
    }

    private func wait(until due: UInt64) -> ReadResult {
        let ticket = suspensions.suspend(connection.handle, mark: &suspension, until: due) { MHDConnection(handle: $0).suspend() }
        return ticket == nil ? .abort : .suspended
    }

    /// libmicrohttpd freed the response: the stream ended, was cut, or the client left.
    override func responseFreed() {
        suspensions.didResume(&suspension)
        finished(next, !ended)
    }
}
