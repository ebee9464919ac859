#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import StubCore

/// One line per request on standard output: text for people, JSON for log pipelines, or nothing.
public enum AccessLogFormat: String, Sendable, CaseIterable {
    /// `GET /api/v1/users/1 200 app/user [200] 0.4 ms`
    case text
    /// One JSON object per line.
    case json
    /// No access log.
    case off
}

/// Writes access-log lines; safe from any thread.
final class AccessLog: Sendable {
    let format: AccessLogFormat
    private let lock = Locked(())

    init(format: AccessLogFormat) {
        self.format = format
    }

    func write(_ r: RequestRecord) {
        guard format != .off else { return }
        let query = r.request.query.isEmpty ? "" : "?" + r.request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let ms = (r.elapsedMs * 10).rounded() / 10
        let line: String
        switch format {
        case .text:
            let outcome = r.fault.map { "fault:\($0.rawValue)" } ?? String(r.status)
            let target = r.routeID.map { "\($0) [\(r.variant ?? "-")]" } ?? "-"
            line = "\(r.request.method) \(r.request.path)\(query) \(outcome) \(target) \(ms) ms\n"
        case .json:
            var members: [(key: String, value: JSONValue)] = [
                ("method", .string(r.request.method)), ("path", .string(r.request.path + query)),
                ("route", r.routeID.map { .string($0) } ?? .null), ("variant", r.variant.map { .string($0) } ?? .null),
                ("status", .number(Double(r.status))), ("ms", .number(ms)),
            ]
            if let fault = r.fault { members.append(("fault", .string(fault.rawValue))) }
            if r.delayMs > 0 { members.append(("delayMs", .number(Double(r.delayMs)))) }
            line = JSONValue.object(members).serialized() + "\n"
        case .off:
            return
        }
        lock.withLock { _ in StandardStreams.write(line, to: STDOUT_FILENO) }
    }
}

/// Unbuffered writes to standard output and error, whole lines at a time.
public enum StandardStreams {
    /// Writes all of `text` to `fd`, retrying short writes and EINTR.
    public static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue } else { return } }
            bytes = bytes.dropFirst(n)
        }
    }
}
