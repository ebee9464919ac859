#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore
import StubTransport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StubSystem

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
    /// The longest stubd holds a connection open on purpose: a `hang` fault, a hold, a keep-open
    /// stream (`--hold-cap`). Past it the connection is closed.
    public var holdCapMs = 300_000
    /// Concurrent connections accepted; more are closed as soon as they connect (and logged).
    public var connectionLimit = StubServerConfiguration.defaultConnectionLimit()
    /// Concurrent connections from one client address; more are closed as soon as they connect.
    /// nil: no cap when bound to loopback (every client is this machine), else half of
    /// `connectionLimit`, so one client cannot take every slot; 0: no cap.
    public var maxClientConnections: Int?
    /// Milliseconds a connection has to deliver a complete request head, from connecting or from
    /// the request line of a kept-alive request; a later head is cut off (slow clients cannot hold
    /// connections by sending a byte at a time).
    public var headerTimeoutMs = 10_000
    /// Milliseconds a request body may take once its head is in, extended by a second for every
    /// `minBodyRate` bytes received, like Apache's mod_reqtimeout (`body=20,MinRate=500`); a body
    /// slower than that is cut off (`--body-timeout`).
    public var bodyTimeoutMs = 20_000
    /// Bytes per second that each extend `bodyTimeoutMs` by a second; 0 for a fixed time
    /// (`--body-min-rate`).
    public var minBodyRate = 500
    /// The largest request body accepted; a larger one gets 413. `when` conditions see the whole body.
    public var maxBodyBytes = 16 << 20
    /// Request body bytes all requests together may hold in memory at once; a body that would
    /// pass it gets 503 (`--max-body-memory`). At least `maxBodyBytes`, or no large body could pass.
    public var maxBodyMemoryBytes = 256 << 20
    /// Host names the admin API and the dashboard answer besides loopback ones (`--allow-host`),
    /// for a team that reaches a shared stubd by name. Only a loopback bind without an admin
    /// token checks `Host` at all (see `AdminGuard`).
    public var allowedHosts: [String] = []
    /// The largest request head (request line and headers) served (`--connection-memory`). A
    /// larger one gets a JSON 431 (414 when the request target alone is over it) up to about
    /// twice this size; past that libmicrohttpd answers on its own (a plain 431 or 414). 8 KiB is
    /// what Apache allows a header field and nginx a header line: every real API client's head
    /// fits (a JWT bearer token and a few cookies).
    public var maxHeadBytes = 8 * 1024
    /// Seconds an idle keep-alive connection stays open.
    public var idleTimeoutSeconds = 120
    /// Threads that wait for sockets and serve requests (`--threads`); 1 serves on one thread.
    public var ioThreads = min(4, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// Requests kept in the journal (a ring); 0 keeps none.
    public var journalSize = 1000
    /// The largest GraphQL query document read, in bytes as sent; a larger one gets a 400 in
    /// GraphQL's error shape without being read (`--graphql-max-document`).
    public var graphQLMaxDocumentBytes = 1 << 20
    /// The deepest nesting of selection sets in a GraphQL document (`--graphql-max-depth`).
    public var graphQLMaxDepth = 128
    /// The most operations in one GraphQL batch (`--graphql-max-batch`).
    public var graphQLMaxBatch = 100
    /// WebSocket conversations open at once (`--websocket-max-conversations`); nil: three
    /// quarters of `connectionLimit`, which is also the most any value gets, so that plain
    /// requests always keep connections. A handshake past it gets 503 with `Retry-After`.
    public var webSocketMaxConversations: Int?
    /// Bytes queued for one WebSocket client past which it is not read until half of them are
    /// sent; four times this closes the conversation with 1008 (`--websocket-max-queue`).
    public var webSocketMaxQueueBytes = 4 << 20
    /// Bytes queued for every WebSocket client together past which no client with anything
    /// queued is read (`--websocket-max-queue-total`).
    public var webSocketMaxQueueTotalBytes = 256 << 20
    /// Milliseconds a WebSocket conversation may go without a frame from the client or a
    /// message to it before it is closed with 1001; 0 for never (`--websocket-idle-timeout`).
    public var webSocketIdleTimeoutMs = 300_000
    /// When true the journal keeps secrets verbatim; by default it keeps a marker with a
    /// fingerprint (`CredentialRedaction`) for credential headers and for secret-named headers,
    /// query values and body fields, so neither the admin API, the dashboard, the access log, Pact
    /// export nor a fleet's store holds them, and a test can still check what was sent with
    /// `StubRequest.header(_:is:)`, `query(_:is:)` and `bodyField(_:is:)`.
    public var journalCredentials = false
    /// Objects one collection may hold per scope; a `POST` past it gets 409 (`--max-collection-objects`).
    public var maxCollectionObjects = 100_000
    /// Bytes of state values one service may hold per scope; a change past it gets 413 (`--max-state-bytes`).
    public var maxStateBytes = 1 << 20
    /// The seed of the values templates draw (`{{uuid}}`, `{{fake.name}}`, `{{random.int 1 9}}`) when
    /// neither the request (`X-Stub-Seed`) nor its session gives one: the same seed, the same values (`--seed`).
    public var seed = 1
    /// Seconds a session's overrides and sequences survive without use (`--session-ttl`).
    public var sessionTTLSeconds = StubControl.defaultSessionTTLSeconds
    /// The clock session expiry reads (seconds, monotonic): a test's own, to pass idle time
    /// without waiting for it.
    package var sessionClock: @Sendable () -> Double = StubControl.monotonicSeconds
    /// Sessions holding overrides at once; beyond it the least recently used are dropped.
    public var maxSessions = StubControl.defaultMaxSessions
    /// Serve the admin API under `/__stubd/`.
    public var adminEnabled = true
    /// Serve the dashboard for people at `/__stubd/ui` (with the admin API; `--no-ui` turns it off).
    public var dashboard = true
    /// When set, admin calls other than health need `Authorization: Bearer <token>`.
    public var adminToken: String?
    /// Reload when files in the stub directory change (inotify, else polling).
    public var watch = false
    /// How the watcher learns of changes: `.native` (inotify where there is one, else polling)
    /// or `.poll` (a scan every half second, on every platform).
    public var watchMode = WatchMode.native
    /// How libmicrohttpd waits for sockets: `.native` (epoll on Linux) or `.poll` (poll(2), on
    /// every platform; what macOS uses).
    public var eventLoop = EventLoop.native

    /// The watcher's ways of learning of changes.
    public enum WatchMode: String, Sendable, CaseIterable {
        /// inotify on Linux; polling where there is none.
        case native
        /// A scan every half second.
        case poll
    }

    /// libmicrohttpd's ways of waiting for sockets.
    public enum EventLoop: String, Sendable, CaseIterable {
        /// epoll on Linux, poll elsewhere.
        case native
        /// poll(2).
        case poll
    }
    /// What answers requests that match no stub instead of the 404 or 405: the proxy
    /// (`--proxy-unmatched`, from StubProxy). Nil gives the 404 or 405. With one set, an empty
    /// stub directory is fine: everything goes to it.
    package var unmatched: (any UnmatchedRequestHandler)?

    /// The API contract requests to stubbed routes are checked against (`--openapi`, from
    /// StubContract): violations go into the journal, the access log and the health count.
    package var contract: (any RequestContract)?

    /// Requests that may wait at once for a deferred reply from `unmatched` (upstream calls);
    /// past it they get a 503 naming the limit.
    package var maxWaitingDeferred = 10_000

    /// HTTPS on its own port beside plain HTTP (or alone); nil serves plain HTTP only.
    public var tls: TLS?

    /// Print reload outcomes to standard error.
    public var announceReloads = false

    /// Control state shared with other replicas through Valkey or Redis (`serve --state`; made
    /// with `SharedStateStore.redis(…)` from `StubFleet`); nil keeps it in this process.
    public var sharedState: SharedStateStore?

    /// A configuration with the defaults: a free port on 127.0.0.1, no access log, no watching.
    /// What an in-process test wants.
    public init() {}

    /// The `stubd` daemon's starting point: the library's defaults but port 8080 on `localhost`
    /// (127.0.0.1 and ::1), the text access log, and reloads on change, announced. Every other
    /// default is the library's own, so the two cannot drift apart.
    public static var daemon: StubServerConfiguration {
        var configuration = StubServerConfiguration()
        configuration.port = 8080
        configuration.host = "localhost"
        configuration.log = .text
        configuration.watch = true
        configuration.announceReloads = true
        return configuration
    }

    /// The old name of `holdCapMs`.
    @available(*, deprecated, renamed: "holdCapMs")
    public var hangCapMs: Int {
        get { holdCapMs }
        set { holdCapMs = newValue }
    }

    /// The old name of `maxHeadBytes`, from when it was libmicrohttpd's memory per connection.
    @available(*, deprecated, renamed: "maxHeadBytes")
    public var connectionMemoryLimit: Int {
        get { maxHeadBytes }
        set { maxHeadBytes = newValue }
    }

    /// The old name of `ioThreads`.
    @available(*, deprecated, renamed: "ioThreads")
    public var pollingThreads: Int {
        get { ioThreads }
        set { ioThreads = newValue }
    }

    /// Memory each connection may hold for its request and response heads: twice the largest
    /// head served. libmicrohttpd keeps an entry of about 56 bytes per header beside the head's
    /// bytes, so a head at the limit made of 100 short headers needs 14 KiB (the limit and 1 KiB
    /// refused one of 20); and a head up to about twice the limit still reaches stubd and gets its
    /// JSON 431. No more: libmicrohttpd (0.9.75 and 1.0.1 alike) zeroes the whole of it before
    /// every request on a kept-alive connection, and it stays resident for every busy connection. Measured with
    /// bench/head-memory.py on both: 16 KiB costs no CPU per request that paired runs can tell
    /// from 7 KiB, and 9 KB more per busy connection (a wave of 10,000 kept-alive delayed
    /// requests: 193 MB instead of 111, and 90 ms longer); 64 KiB cost 7-29% more CPU per
    /// request and 56 KB more per connection.
    var connectionMemoryBytes: Int { max(2 * maxHeadBytes, maxHeadBytes + 1024) }

    /// The old name of `sessionTTLSeconds`.
    @available(*, deprecated, renamed: "sessionTTLSeconds")
    public var sessionIdleSeconds: Double {
        get { sessionTTLSeconds }
        set { sessionTTLSeconds = newValue }
    }

    /// True when `host` is a loopback address (`127.0.0.0/8`, `::1`, `::ffff:127.0.0.1`, `localhost`):
    /// nothing outside this machine can connect.
    public var bindsLoopback: Bool {
        host == "localhost" || ClientAddress(literal: host)?.isLoopback == true
    }

    /// Who may call the admin API: no page of another origin; on a loopback bind without a token,
    /// only a loopback `Host` or an allowed name.
    var adminGuard: AdminGuard {
        AdminGuard(checksHost: bindsLoopback && adminToken == nil, allowedHosts: allowedHosts)
    }

    /// Connections the process's file-descriptor limit allows, leaving room for files and the listener.
    public static func defaultConnectionLimit() -> Int {
        var limit = rlimit(rlim_cur: 1024, rlim_max: 1024)
        // Without an answer, assume the common default of 1,024.
        _ = try? SystemCall.run("getrlimit") { getrlimit(LibC.fileLimit, &limit) }
        let soft = limit.rlim_cur > 1 << 20 ? 65536 : Int(limit.rlim_cur)
        return max(16, min(soft - 64, 65536))
    }

    /// Raises the soft file-descriptor limit to the hard limit (many concurrent delayed clients need it).
    public static func raiseFileLimit() {
        var limit = rlimit()
        guard (try? SystemCall.run("getrlimit", { getrlimit(LibC.fileLimit, &limit) })) != nil,
              limit.rlim_cur < LibC.openFilesCeiling(hard: limit.rlim_max) else { return }
        limit.rlim_cur = LibC.openFilesCeiling(hard: limit.rlim_max)
        // Best effort: without it, the connection limit follows the lower soft limit.
        _ = try? SystemCall.run("setrlimit") { setrlimit(LibC.fileLimit, &limit) }
    }
}
