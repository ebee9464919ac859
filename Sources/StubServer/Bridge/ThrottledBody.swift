import StubCore

/// One response body sent at a fixed rate (a slow mobile link, like OkHttp's `throttleBody`).
/// libmicrohttpd pulls the body through a content reader; when the next chunk is not due yet the
/// reader suspends the connection and the timer resumes it, so a slow body holds no thread.
final class ThrottledBody: PulledBody {
    let body: [UInt8]
    let bytesPerSecond: Int
    let chunk: Int
    let connection: MHDConnection
    let suspensions: SuspendedConnections
    private var startNs: UInt64 = 0
    /// Set through `suspensions` only.
    private var suspension = SuspensionMark()

    init(body: [UInt8], bytesPerSecond: Int, connection: MHDConnection, suspensions: SuspendedConnections) {
        self.body = body
        self.bytesPerSecond = bytesPerSecond
        // About ten writes a second, at most 1 KiB each, so the pace is smooth at any rate.
        chunk = max(1, min(1024, bytesPerSecond / 10))
        self.connection = connection
        self.suspensions = suspensions
        super.init()
    }

    /// Copies the next chunk at `offset` into `buffer` when it is due.
    override func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        suspensions.didResume(&suspension)
        guard offset < body.count else { return .end }
        let now = MonotonicClock.now()
        if startNs == 0 { startNs = now }
        let due = startNs + UInt64(offset) * 1_000_000_000 / UInt64(bytesPerSecond)
        if due > now + 1_000_000 {
            let ticket = suspensions.suspend(connection.handle, mark: &suspension, until: due) { MHDConnection(handle: $0).suspend() }
            return ticket == nil ? .abort : .suspended
        }
        if suspensions.isStopping { return .abort }
        let count = min(chunk, buffer.count, body.count - offset)
        body.withUnsafeBytes { raw in
            buffer.baseAddress!.copyMemory(from: raw.baseAddress! + offset, byteCount: count)
        }
        return .copied(count)
    }

    /// libmicrohttpd freed the response, maybe while the connection was suspended (the client left).
    override func responseFreed() {
        suspensions.didResume(&suspension)
    }
}
