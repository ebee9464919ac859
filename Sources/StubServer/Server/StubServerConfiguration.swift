import Glibc
import StubCore

/// Everything a `StubServer` can be told at start; the CLI fills it from flags and `STUBD_*` variables.
public struct StubServerConfiguration: Sendable {
    /// Address to bind: an IPv4 or IPv6 literal, or `localhost`.
    public var host = "127.0.0.1"
    /// Port to bind; 0 picks a free one (read it back from `StubServer.port`).
    public var port = 0
    /// Access-log format on standard output.
    public var log = AccessLogFormat.off
    /// Milliseconds added to every stub response (a whole slow-network test run).
    public var baseDelayMs = 0
    /// How long a `hang` fault holds a connection before closing it.
    public var hangCapMs = 300_000
    /// Concurrent connections accepted; more wait in the listen backlog.
    public var connectionLimit = StubServerConfiguration.defaultConnectionLimit()
    /// Per-connection memory for the request head and response head; larger request heads get 431.
    /// 6 KiB fits the request heads of real API clients (a JWT bearer token and a few cookies) and
    /// keeps 10,000 open connections under 100 MB; raise it for clients with very large headers.
    public var connectionMemoryLimit = 6 * 1024
    /// Seconds an idle keep-alive connection stays open.
    public var idleTimeoutSeconds = 120
    /// libmicrohttpd polling threads (each with its own epoll set); 1 uses one internal thread.
    public var pollingThreads = min(4, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// Requests kept in the journal (a ring); 0 keeps none.
    public var journalSize = 1000
    /// Serve the admin API under `/__stubd/`.
    public var adminEnabled = true
    /// When set, admin calls other than health need `Authorization: Bearer <token>`.
    public var adminToken: String?
    /// Reload when files in the stub directory change (inotify, else polling).
    public var watch = false
    /// Print reload outcomes to standard error.
    public var announceReloads = false

    /// A configuration with the defaults.
    public init() {}

    /// Connections the process's file-descriptor limit allows, leaving room for files and the listener.
    public static func defaultConnectionLimit() -> Int {
        var limit = rlimit(rlim_cur: 1024, rlim_max: 1024)
        // Without an answer, assume the common default of 1,024.
        _ = try? SystemCall.run("getrlimit") { getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }
        let soft = limit.rlim_cur > 1 << 20 ? 65536 : Int(limit.rlim_cur)
        return max(16, min(soft - 64, 65536))
    }

    /// Raises the soft file-descriptor limit to the hard limit (many concurrent delayed clients need it).
    public static func raiseFileLimit() {
        var limit = rlimit()
        guard (try? SystemCall.run("getrlimit", { getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) })) != nil,
              limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        // Best effort: without it, the connection limit follows the lower soft limit.
        _ = try? SystemCall.run("setrlimit") { setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }
    }
}
