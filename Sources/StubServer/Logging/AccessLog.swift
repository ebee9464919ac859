import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line per request on standard output: text for people, JSON for log pipelines, or nothing.
public enum AccessLogFormat: String, Sendable, CaseIterable {
    /// `GET /api/v1/users/1 200 app/user [200] 0.4 ms`
    case text
    /// One JSON object per line.
    case json
    /// No access log.
    case off
}

/// Writes access-log lines through a buffer: a request appends its line, and the buffer goes out
/// in one write when it passes `flushBytes` or every `flushIntervalMs`, so a busy server makes a
/// write per tens of requests, not one each, and an idle one shows each line within 50 ms.
final class AccessLog: RequestLogger {
    static let flushBytes = 32 * 1024
    static let flushIntervalMs = 50

    let format: AccessLogFormat
    private let fd: Int32
    private let buffer = Locked<[UInt8]>([])
    /// Held while a buffer is swapped out and written, so lines reach the file in order.
    private let writing = PlainLock()
    private let running = Locked(true)
    private let flusher: Locked<pthread_t?> = Locked(nil)

    /// A log in `format` on `fd` (standard output by default), with its flusher thread started.
    init(format: AccessLogFormat, fd: Int32 = STDOUT_FILENO) throws(SystemCallError) {
        self.format = format
        self.fd = fd
        let thread = try BackgroundThread.start(name: "stubd-log") { [self] in
            while running.withLock({ $0 }) {
                usleepMs(AccessLog.flushIntervalMs)
                flush()
            }
        }
        flusher.withLock { $0 = thread }
    }

    func log(_ record: RequestRecord) {
        guard let line = AccessLogLine.format(record, as: format) else { return }
        let full = buffer.withLock { buffer in
            buffer.append(contentsOf: line.utf8)
            return buffer.count >= AccessLog.flushBytes
        }
        if full { flush() }
    }

    /// Writes what is buffered now.
    func flush() {
        writing.withLock {
            let pending = buffer.withLock { buffer -> [UInt8] in
                defer { buffer.removeAll(keepingCapacity: true) }
                return buffer
            }
            if !pending.isEmpty { StandardStreams.write(pending, to: fd) }
        }
    }

    /// Stops the flusher thread and writes the rest. Safe to call twice.
    func stop() {
        running.withLock { $0 = false }
        if let thread = flusher.withLock({ t -> pthread_t? in defer { t = nil }; return t }) { pthread_join(thread, nil) }
        flush()
    }
}
