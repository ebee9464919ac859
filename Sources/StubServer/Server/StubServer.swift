import CMicroHTTPD
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import StubCore

/// A stub HTTP server over libmicrohttpd serving one stub directory. Start it in-process from a
/// test on port 0 and read `port` / `baseURL`, or from the `stubd` command line.
public final class StubServer: @unchecked Sendable {
    /// The stub directory being served.
    public let stubsDirectory: URL
    /// The host bound.
    public let host: String
    /// The port bound (the real one when 0 was asked for).
    public let port: Int
    /// The configuration the server started with.
    public let configuration: StubServerConfiguration

    let bridge: RequestBridge
    let store: CatalogStore
    /// Overrides, sequences and the journal; shared by the admin API and the Swift API.
    public let control: StubControl
    private let daemon: Locked<OpaquePointer?>
    private let watcher: StubWatcher?

    /// `http://host:port` for building request URLs.
    public var baseURL: URL {
        let h = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return URL(string: "http://\(h):\(port)")!
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
        switch StubLoader.load(directory: directory.path) {
        case .success(let c): catalog = c
        case .failure(let f): throw StubServerError.invalidStubs(f)
        }
        let socket = try ListenSocket.open(host: configuration.host, port: configuration.port)
        stubsDirectory = directory
        host = configuration.host
        port = socket.port
        self.configuration = configuration
        let store = CatalogStore(directory: directory, catalog: catalog, announceReloads: configuration.announceReloads)
        self.store = store
        control = StubControl(journalSize: configuration.journalSize)
        let admin = configuration.adminEnabled
            ? AdminAPI(control: control, host: store, token: configuration.adminToken, version: StubdVersion.current) : nil
        bridge = RequestBridge(store: store, planner: ResponsePlanner(baseDelayMs: max(0, min(configuration.baseDelayMs, StubServerConfiguration.maxDurationMs))),
                               log: AccessLog(format: configuration.log), hangCapMs: configuration.hangCapMs,
                               control: control, admin: admin)
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_TURBO.rawValue
        if socket.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        var options = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(socket.fd), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.idleTimeoutSeconds, ptr_value: nil),
        ]
        if configuration.pollingThreads > 1 {
            options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.pollingThreads, ptr_value: nil))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        // The daemon holds the bridge unretained; `bridge` lives as long as this server, which stops the daemon first.
        let cls = Unmanaged.passUnretained(bridge).toOpaque()
        let started = options.withUnsafeMutableBufferPointer { buffer in
            CMHD_start_daemon(UInt32(flags), 0, stubdAccessHandler, cls, stubdRequestCompleted, cls, buffer.baseAddress)
        }
        guard let started else {
            close(socket.fd)
            bridge.scheduler.shutdown()
            throw StubServerError.daemonFailed
        }
        daemon = Locked(started)
        watcher = configuration.watch ? StubWatcher(directory: directory.path, onChange: { _ = store.reloadNow() }) : nil
    }

    deinit { stop() }

    /// Stops accepting, closes suspended connections, and stops the daemon. Safe to call twice.
    public func stop() {
        daemon.withLock { daemon in
            guard let d = daemon else { return }
            watcher?.stop()
            // No MHD_quiesce_daemon: with a thread pool it races the workers over the listen
            // socket's epoll registration and panics. MHD_stop_daemon closes the listen socket.
            guard bridge.drain(timeoutMs: 2000) || bridge.drain(timeoutMs: 10_000) else {
                // MHD_stop_daemon aborts the process while a connection is suspended. Leave the
                // daemon running (and the bridge it points at alive) rather than crash.
                StandardStreams.write("stubd: connections still suspended after 12 s; leaving the daemon running\n", to: STDERR_FILENO)
                _ = Unmanaged.passRetained(bridge)
                daemon = nil
                return
            }
            // The timer thread stops before the daemon is freed: it may still be inside
            // MHD_resume_connection for the last connection it resumed.
            bridge.scheduler.shutdown()
            MHD_stop_daemon(d)
            daemon = nil
        }
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
