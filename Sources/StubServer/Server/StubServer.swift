#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore
import StubTransport
import StubDashboard
import StubSystem
import StubHTTP2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stub HTTP server over libmicrohttpd serving one stub directory. Start it in-process from a
/// test on port 0 and read `port` / `baseURL`, or from the `stubd` command line.
public final class StubServer: Sendable {
    /// The stub directory being served.
    public let stubsDirectory: URL
    /// The host bound.
    public let host: String
    /// The port bound (the real one when 0 was asked for): plain HTTP's, or HTTPS's when serving
    /// HTTPS only.
    public let port: Int
    /// The HTTPS port when serving HTTPS (`configuration.tls`), else nil.
    public let tlsPort: Int?
    /// The configuration the server started with.
    public let configuration: StubServerConfiguration

    let bridge: RequestBridge
    let store: CatalogStore
    /// Overrides, sequences and the journal; shared by the admin API and the Swift API.
    public let control: StubControl
    /// Where the server is in its life; `stop` is the one way down (a start that fails part-way
    /// takes it too, through `ServerParts.stop`).
    private enum Lifecycle {
        /// Serving, with everything it started.
        case running(ServerParts)
        /// Stopped: no thread, daemon or descriptor of its own is left.
        case stopped
        /// Connections stayed suspended even with their sockets shut, so the daemons were left
        /// running (libmicrohttpd aborts the process if a daemon stops with one suspended); their
        /// parts are kept alive for good, as the daemons still call into them.
        case leftRunning
    }

    private let lifecycle: Locked<Lifecycle>

    /// True when `localhost` is served on ::1 as well as 127.0.0.1 (false where IPv6 is missing).
    public let listensOnIPv6Loopback: Bool

    /// `http://host:port` for building request URLs (`127.0.0.1` for `localhost`, which a client
    /// might resolve either way); `https://` when serving HTTPS only.
    public var baseURL: URL {
        url(scheme: configuration.tls?.only == true ? "https" : "http", port: port)
    }

    /// `https://host:tlsPort` when serving HTTPS, else nil.
    public var tlsBaseURL: URL? { tlsPort.map { url(scheme: "https", port: $0) } }

    private func url(scheme: String, port: Int) -> URL {
        let name = host == "localhost" ? "127.0.0.1" : host
        let h = name.contains(":") && !name.hasPrefix("[") ? "[\(name)]" : name
        return URL(string: "\(scheme)://\(h):\(port)")!
    }

    /// Loads `stubsAt` and starts serving on `host`:`port` (0 = a free port).
    public convenience init(stubsAt directory: URL, host: String = "127.0.0.1", port: Int = 0) throws {
        var configuration = StubServerConfiguration()
        configuration.host = host
        configuration.port = port
        try self.init(stubsAt: directory, configuration: configuration)
    }

    /// Loads `stubsAt` and starts serving with `configuration`. Throws `StubServerError` with every
    /// problem in the stub directory, or the bind error.
    public init(stubsAt directory: URL, configuration: StubServerConfiguration) throws {
        let catalog: StubCatalog
        // With a proxy behind it an empty folder is fine: everything goes upstream.
        switch StubLoader.load(directory: directory.path, allowEmpty: configuration.unmatched != nil) {
        case .success(let c): catalog = c
        case .failure(let f): throw StubServerError.invalidStubs(f)
        }
        let (plain, secure) = try ListenSocket.openListeners(configuration)
        let sockets = plain + secure
        stubsDirectory = directory
        host = configuration.host
        port = sockets[0].port
        tlsPort = secure.first?.port
        listensOnIPv6Loopback = configuration.host == "localhost" && (plain.isEmpty ? secure : plain).count == 2
        self.configuration = configuration
        let control = StubControl(journalSize: configuration.journalSize, sessionTTLSeconds: configuration.sessionTTLSeconds,
                                  maxSessions: configuration.maxSessions, clock: configuration.sessionClock,
                                  sharedState: configuration.sharedState, keepsCredentials: configuration.journalCredentials,
                                  memory: StubMemory(store: configuration.sharedState?.memoryStore ?? LocalMemoryStore(),
                                                     limits: MemoryLimits(maxObjects: configuration.maxCollectionObjects, maxStateBytes: configuration.maxStateBytes),
                                                     seed: UInt64(configuration.seed), sessionTTLSeconds: configuration.sessionTTLSeconds,
                                                     maxSessions: configuration.maxSessions, clock: configuration.sessionClock))
        self.control = control
        let store = CatalogStore(directory: directory, catalog: catalog, announceReloads: configuration.announceReloads,
                                 allowEmpty: configuration.unmatched != nil, reloaded: { outcome in
            control.noteChange()
            switch outcome {
            case .success(let catalog): control.shared?.catalogChanged(ok: true, routes: catalog.routes.count)
            case .failure: control.shared?.catalogChanged(ok: false, routes: 0)
            }
        })
        self.store = store
        let contract = configuration.contract
        for warning in contract?.prepare(catalog.routes) ?? [] { StandardStreams.write("warning: \(warning)\n", to: STDERR_FILENO) }
        let running = ServerParts()
        running.sockets = sockets
        running.control = control
        running.unmatched = configuration.unmatched
        do {
            bridge = try StubServer.start(running, configuration: configuration, store: store, control: control)
            if let shared = control.shared {
                // Connected before the first request, so a test's first override already reaches the fleet.
                shared.start(control: control, stubDirectory: directory.path, routes: catalog.routes.count)
                running.fleetStarted = true
            }
            if configuration.watch {
                running.watcher = try StubWatcher(directory: directory.path, forcePolling: configuration.watchMode == .poll,
                                                  onChange: { _ = store.reloadNow() })
            }
            for socket in plain {
                running.daemons.append(try MHDDaemon(socket: socket, configuration: configuration, bridge: bridge))
                running.socketTaken(socket)
            }
            if let tls = configuration.tls {
                try StubServer.serveHTTPS(secure, tls: tls, running, configuration: configuration, bridge: bridge, control: control)
            }
        } catch {
            running.stop()
            if let error = error as? SystemCallError { throw StubServerError(error) }
            throw error
        }
        lifecycle = Locked(.running(running))
    }

    /// Starts the access log, the admission sweeper and the bridge (with its hub, timers and
    /// jobs) into `running`; the bridge.
    private static func start(_ running: ServerParts, configuration: StubServerConfiguration, store: CatalogStore,
                              control: StubControl) throws(SystemCallError) -> RequestBridge {
        let log = configuration.log == .off ? nil : try AccessLog(format: configuration.log)
        running.log = log
        let admission = ConnectionAdmission(limits: configuration.admissionLimits, close: { fd in
            // A socket already shut (or reset by its client) answers ENOTCONN: it is closing anyway.
            _ = shutdown(fd, Int32(SHUT_RDWR))
        }, peerGone: LibC.peerClosed, log: { StandardStreams.write($0 + "\n", to: STDERR_FILENO) })
        store.limits.withLock { $0 = { admission.report.totals } }
        let admin = configuration.adminEnabled
            ? AdminAPI(control: control, host: store, token: configuration.adminToken, version: StubdVersion.current,
                       ui: configuration.dashboard ? DashboardFiles.files : nil, guard: configuration.adminGuard) : nil
        let responder = StubResponder(control: control, admin: admin, baseDelayMs: configuration.baseDelayMs, logger: log,
                                      unmatched: configuration.unmatched, contract: configuration.contract,
                                      graphQLLimits: GraphQLLimits(documentBytes: configuration.graphQLMaxDocumentBytes,
                                                                   depth: configuration.graphQLMaxDepth, batch: configuration.graphQLMaxBatch))
        let bridge = try RequestBridge(store: store, responder: responder, admission: admission, holdCapMs: configuration.holdCapMs,
                                       maxBody: configuration.maxBodyBytes, bodyMemory: configuration.maxBodyMemoryBytes,
                                       maxHead: configuration.maxHeadBytes, useEpoll: EventLoopChoice.usesEpoll(configuration.eventLoop),
                                       deferredWaitingLimit: configuration.maxWaitingDeferred,
                                       stalledSendLimitMs: MHDDaemon.timesIdleConnections || configuration.idleTimeoutSeconds <= 0
                                           ? nil : min(configuration.idleTimeoutSeconds, Limits.maxDurationMs / 1000) * 1000,
                                       webSocketLimits: configuration.webSocketLimits)
        running.bridge = bridge
        running.sweeper = try HeaderTimeoutSweeper(admission: admission)
        let suspensions = bridge.suspensions
        control.setReleaser { tickets in for ticket in tickets { suspensions.resumeEarly(ticket) } }
        control.conversations.attach(bridge.webSockets)
        return bridge
    }

    deinit { stop() }

    /// Stops accepting, says goodbye to WebSocket conversations, closes suspended connections,
    /// and stops the daemons and every thread the server started. Safe to call twice.
    public func stop() {
        lifecycle.withLock { state in
            guard case .running(let parts) = state else { return }
            if parts.stop() {
                state = .stopped
            } else {
                // Released never: the running daemons hold its bridge unretained.
                _ = Unmanaged.passRetained(parts)
                state = .leftRunning
            }
        }
    }

    /// The dashboard for people (`/__stubd/ui`), or nil when it or the admin API is off. Print it
    /// from a test's setup to watch and steer that test's traffic in a browser.
    public var dashboardURL: URL? {
        guard configuration.adminEnabled, configuration.dashboard else { return nil }
        return baseURL.appendingPathComponent("__stubd/ui")
    }

    /// The catalog being served now.
    public var catalog: StubCatalog { store.currentCatalog }

    /// Whether the last reload succeeded and when the served stubs were loaded.
    public var health: HealthReport { store.health }

    /// Reloads the stub directory now. On problems the last good stubs stay in service and the problems are thrown.
    @discardableResult
    public func reload() throws(StubServerError) -> StubCatalog {
        switch store.reloadNow() {
        case .success(let catalog): return catalog
        case .failure(let failure): throw .invalidStubs(failure)
        }
    }
}
