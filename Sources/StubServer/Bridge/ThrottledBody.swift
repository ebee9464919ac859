import CMicroHTTPD
import StubCore

/// One response body sent at a fixed rate (a slow mobile link, like OkHttp's `throttleBody`).
/// libmicrohttpd pulls the body through a content reader; when the next chunk is not due yet the
/// reader suspends the connection and the delay scheduler resumes it, so a slow body holds no thread.
final class ThrottledBody {
    let body: [UInt8]
    let bytesPerSecond: Int
    let chunk: Int
    let connection: ConnectionHandle
    let bridge: RequestBridge
    private var startNs: UInt64 = 0
    /// True between a suspend in `read` and the next `read` (or the response being freed).
    var isSuspended = false

    init(body: [UInt8], bytesPerSecond: Int, connection: ConnectionHandle, bridge: RequestBridge) {
        self.body = body
        self.bytesPerSecond = bytesPerSecond
        // About ten writes a second, at most 1 KiB each, so the pace is smooth at any rate.
        chunk = max(1, min(1024, bytesPerSecond / 10))
        self.connection = connection
        self.bridge = bridge
    }

    /// Builds the libmicrohttpd response that pulls from this body.
    func makeResponse(headers: [HTTPHeader]) -> OpaquePointer? {
        // Retained here, released by stubdThrottleFree when MHD is done with the response.
        let cls = Unmanaged.passRetained(self).toOpaque()
        guard let response = MHD_create_response_from_callback(UInt64(body.count), 1024, stubdThrottleRead, cls, stubdThrottleFree) else {
            Unmanaged<ThrottledBody>.fromOpaque(cls).release()
            return nil
        }
        for header in headers { _ = MHD_add_response_header(response, header.name, header.value) }
        return response
    }

    /// MHD's content reader: bytes copied, 0 after suspending until the next chunk is due,
    /// -1 at the end, -2 to close (the server is stopping).
    func read(position: UInt64, into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        if isSuspended {
            isSuspended = false
            bridge.suspended.subtract(1, ordering: .relaxed)
        }
        let offset = Int(position)
        guard offset < body.count else { return -1 }
        let now = MonotonicClock.now()
        if startNs == 0 { startNs = now }
        let due = startNs + UInt64(offset) * 1_000_000_000 / UInt64(bytesPerSecond)
        if due > now + 1_000_000 {
            let suspended = bridge.stopping.withLock { stopping -> Bool in
                guard !stopping else { return false }
                bridge.suspended.add(1, ordering: .relaxed)
                isSuspended = true
                MHD_suspend_connection(connection.pointer)
                return true
            }
            guard suspended else { return -2 }
            bridge.scheduler.schedule(connection, at: due)
            return 0
        }
        if bridge.stopping.withLock({ $0 }) { return -2 }
        let count = min(chunk, max, body.count - offset)
        body.withUnsafeBytes { raw in
            UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress! + offset, byteCount: count)
        }
        return count
    }
}

private func stubdThrottleRead(_ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ max: Int) -> Int {
    guard let cls, let buffer else { return -2 }
    return Unmanaged<ThrottledBody>.fromOpaque(cls).takeUnretainedValue().read(position: position, into: buffer, max: max)
}

private func stubdThrottleFree(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    let body = Unmanaged<ThrottledBody>.fromOpaque(cls).takeRetainedValue()
    if body.isSuspended {
        body.isSuspended = false
        body.bridge.suspended.subtract(1, ordering: .relaxed)
    }
}
