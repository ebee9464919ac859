#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubServer

/// The `STUBD_*` variables `stubd serve` reads; flags given after them override them.
extension ServeCommand {
    static func applyEnvironment(_ environment: [String: String], to options: inout Options) throws(UsageError) {
        options.configuration.adminToken = environment["STUBD_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if let size = environment["STUBD_JOURNAL_SIZE"] {
            guard let n = Int(size), n >= 0 else { throw UsageError(message: "STUBD_JOURNAL_SIZE must be a whole number, got \"\(size)\"") }
            options.configuration.journalSize = n
        }
        options.stubs = environment["STUBD_STUBS"] ?? options.stubs
        if let upstream = environment["STUBD_PROXY_UNMATCHED"], !upstream.isEmpty {
            options.configuration.proxyUnmatched = try upstreamURL(upstream, flag: "STUBD_PROXY_UNMATCHED")
        }
        options.configuration.host = environment["STUBD_HOST"] ?? options.configuration.host
        if let port = environment["STUBD_PORT"] {
            guard let p = Int(port), (0...65535).contains(p) else { throw UsageError(message: "STUBD_PORT must be a port number, got \"\(port)\"") }
            options.configuration.port = p
        }
        if let log = environment["STUBD_LOG"] {
            guard let format = AccessLogFormat(rawValue: log) else { throw UsageError(message: "STUBD_LOG must be text, json or off, got \"\(log)\"") }
            options.configuration.log = format
        }
        if let delay = environment["STUBD_DELAY"] {
            guard let ms = ArgumentScanner.parseDuration(delay) else { throw UsageError(message: "STUBD_DELAY must be a duration like 300ms, got \"\(delay)\"") }
            options.configuration.baseDelayMs = ms
        }
        if let size = environment["STUBD_MAX_BODY"] {
            guard let bytes = ArgumentScanner.parseSize(size) else { throw UsageError(message: "STUBD_MAX_BODY must be a size like 16MiB, got \"\(size)\"") }
            options.configuration.maxBodyBytes = bytes
        }
        if let size = environment["STUBD_MAX_BODY_MEMORY"] {
            guard let bytes = ArgumentScanner.parseSize(size) else { throw UsageError(message: "STUBD_MAX_BODY_MEMORY must be a size like 256MiB, got \"\(size)\"") }
            options.configuration.maxBodyMemoryBytes = bytes
        }
        if let timeout = environment["STUBD_HEADER_TIMEOUT"] {
            guard let ms = ArgumentScanner.parseDuration(timeout), ms > 0 else { throw UsageError(message: "STUBD_HEADER_TIMEOUT must be a duration like 10s, got \"\(timeout)\"") }
            options.configuration.headerTimeoutMs = ms
        }
        if let timeout = environment["STUBD_BODY_TIMEOUT"] {
            guard let ms = ArgumentScanner.parseDuration(timeout), ms > 0 else { throw UsageError(message: "STUBD_BODY_TIMEOUT must be a duration like 20s, got \"\(timeout)\"") }
            options.configuration.bodyTimeoutMs = ms
        }
        if let rate = environment["STUBD_BODY_MIN_RATE"] {
            guard let bytes = Int(rate), (0...1_073_741_824).contains(bytes) else { throw UsageError(message: "STUBD_BODY_MIN_RATE must be bytes per second from 0 to 1073741824, got \"\(rate)\"") }
            options.configuration.minBodyRate = bytes
        }
        if let ttl = environment["STUBD_SESSION_TTL"] {
            guard let ms = ArgumentScanner.parseDuration(ttl), ms >= 1000 else { throw UsageError(message: "STUBD_SESSION_TTL must be a duration of 1s or more like 10m, got \"\(ttl)\"") }
            options.configuration.sessionIdleSeconds = Double(ms) / 1000
        }
        if let count = environment["STUBD_MAX_SESSIONS"] {
            guard let n = Int(count), n >= 1 else { throw UsageError(message: "STUBD_MAX_SESSIONS must be a whole number of 1 or more, got \"\(count)\"") }
            options.configuration.maxSessions = n
        }
    }

    /// An upstream for `--proxy-unmatched` or `record --upstream`: an absolute http(s) URL.
    static func upstreamURL(_ text: String, flag: String) throws(UsageError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw UsageError(message: "\(flag) expects an http:// or https:// URL, got \"\(text)\"")
        }
        return url
    }
}
