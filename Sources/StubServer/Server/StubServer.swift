import CMicroHTTPD
import Foundation
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
    private let daemon: Locked<OpaquePointer?>
    private let reloadLock = Locked(())

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
        bridge = RequestBridge(catalog: PreparedCatalog(catalog), planner: ResponsePlanner(baseDelayMs: configuration.baseDelayMs),
                               log: AccessLog(format: configuration.log), hangCapMs: configuration.hangCapMs)
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_TURBO.rawValue
        if socket.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        var options = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(socket.fd), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.idleTimeoutSeconds, ptr_value: nil),
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
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
    }

    deinit { stop() }

    /// Stops accepting, closes suspended connections, and stops the daemon. Safe to call twice.
    public func stop() {
        daemon.withLock { daemon in
            guard let d = daemon else { return }
            let listenFD = MHD_quiesce_daemon(d)
            bridge.drain(timeoutMs: 2000)
            MHD_stop_daemon(d)
            if listenFD >= 0 { close(listenFD) }
            bridge.scheduler.shutdown()
            daemon = nil
        }
    }

    /// The catalog being served now.
    public var catalog: StubCatalog {
        bridge.catalog.withLock { $0.catalog }
    }

    /// Reloads the stub directory. On problems the last good stubs stay in service and the problems are thrown.
    @discardableResult
    public func reload() throws(StubServerError) -> StubCatalog {
        let result = reloadLock.withLock { _ in
            let loaded = StubLoader.load(directory: stubsDirectory.path)
            if case .success(let catalog) = loaded {
                let prepared = PreparedCatalog(catalog)
                // In-flight requests keep the old PreparedCatalog alive until they finish.
                bridge.catalog.withLock { $0 = prepared }
            }
            return loaded
        }
        switch result {
        case .success(let catalog): return catalog
        case .failure(let failure): throw .invalidStubs(failure)
        }
    }
}
